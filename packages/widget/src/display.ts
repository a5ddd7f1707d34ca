import type { FloatingWidget, Template, Theme } from '@loyalty/view-model';
import type { WidgetConfig } from './config.js';

/** The spec's floating widget defaults: the launcher still shows when its record cannot be read. */
export const DEFAULT_LAUNCHER: FloatingWidget = {
  eudTitle: null,
  eudIcon: null,
  alignment: 'bottom_right',
  alignmentPositionX: 20,
  alignmentPositionY: 20,
  backgroundColor: 'rgba(255, 255, 255, 1)',
  borderColor: 'rgba(226, 232, 240, 1)',
  textColor: 'rgba(26, 28, 30, 1)',
  borderWidth: 1,
  borderRadius: 8,
  boxShadow: '0 1px 2px rgba(16, 24, 40, 0.06), 0 4px 8px rgba(16, 24, 40, 0.08), 0 12px 24px rgba(16, 24, 40, 0.12)',
  fontSize: 18,
};

export interface Display {
  launcher: FloatingWidget;
  theme: Theme | undefined;
  template: Template | undefined;
  /** Some record could not be read: the panel shows its error state. */
  failed: boolean;
}

/**
 * One record read as view-model's `Api.get` reads it (`x-account-id`, `languageCode`, no cookies),
 * as a guest: the display records read the same for a member, and a member's token that has
 * expired (a page kept open, a cached page) must not take the launcher down; the panel's reads
 * renew it. A function rather than that class: the loader is an IIFE on the host page, and a class
 * field would make the bundler put its helpers in the page's global scope.
 */
async function getRecord<T>(config: WidgetConfig, slug: string, id: string): Promise<T> {
  const url = new URL(`${config.baseUrl.replace(/\/$/, '')}/api/v1.0/schema/${slug}/record/${encodeURIComponent(id)}`);
  if (config.languageCode) url.searchParams.set('languageCode', config.languageCode);
  const res = await fetch(url, {
    headers: { 'x-account-id': config.accountId },
    credentials: 'omit',
    signal: AbortSignal.timeout(READ_TIMEOUT_MS),
  });
  if (!res.ok) throw new Error(`${res.status} from ${slug}`);
  return ((await res.json()) as { data: T }).data;
}

/** How long a display record's read may go unanswered: then the launcher is drawn from what it has, as for a failed read. */
const READ_TIMEOUT_MS = 15_000;

/** The three display records, read on every page load so that a PATCH shows on the next one. */
export async function loadDisplay(config: WidgetConfig): Promise<Display> {
  const [launcher, theme, template] = await Promise.allSettled([
    getRecord<FloatingWidget>(config, 'floating_widget', config.floatingWidgetId),
    getRecord<Theme>(config, 'theme', config.themeId),
    getRecord<Template>(config, 'template', config.templateId),
  ]);
  const value = <T>(r: PromiseSettledResult<T>) => (r.status === 'fulfilled' ? r.value : undefined);
  return {
    launcher: value(launcher) ?? DEFAULT_LAUNCHER,
    theme: value(theme),
    template: value(template),
    failed: [launcher, theme, template].some((r) => r.status === 'rejected'),
  };
}

/** The theme's colours, font and radius as custom properties: the launcher and everything in the panel use them. */
export function themeProperties(theme: Theme | undefined): Record<string, string> {
  if (!theme) return {};
  return {
    '--lw-primary': theme.primaryColor,
    '--lw-on-primary': theme.primaryContrastTextColor,
    '--lw-secondary': theme.secondaryColor,
    '--lw-text': theme.primaryTextColor,
    '--lw-muted': theme.secondaryTextColor,
    '--lw-bg': theme.backgroundColor,
    '--lw-font': theme.fontFamily,
    '--lw-radius': `${theme.borderRadius}px`,
  };
}

export const edges = (launcher: FloatingWidget) => launcher.alignment.split('_') as ['top' | 'bottom', 'left' | 'right'];

/** The launcher's accessible name when it shows no title of its own; `fallback`, the widget's word in its language, when no record names it. */
export const launcherLabel = (display: Display, fallback = 'Rewards') =>
  display.launcher.eudTitle || display.template?.rewardsTabTitle || fallback;
