import type { Strings } from '@loyalty/view-model';
import type { Display } from './display.js';

/** What a merchant passes to `LoyaltyWidget.init` (CONTRACT §13). */
export interface WidgetConfig {
  baseUrl: string;
  accountId: string;
  templateId: string;
  themeId: string;
  floatingWidgetId: string;
  /** An end-user token: member mode. Absent: guest mode. */
  accessToken?: string;
  languageCode?: string;
  /** The shop's currency (ISO 4217, `EUR`): "2 points for every €1 spent" rather than "for every 1". */
  currency?: string;
}

/** What the loader's queue starts once and then mounts for every valid `init`: the launcher. */
export interface WidgetApp {
  mount(config: WidgetConfig): void;
}

/** What the loader hands the lazily loaded panel app: the launcher it drew and the records it read. */
export interface Mounting {
  config: WidgetConfig;
  shadow: ShadowRoot;
  /** `.lw-root`: carries the theme's custom properties and `lang`; the panel goes inside it. */
  root: HTMLElement;
  launcher: HTMLButtonElement;
  display: Display;
  /** Reads the display records again and redraws the launcher (the error state's retry). */
  reload(): Promise<Display>;
  /** The interface's words in `languageCode`, loaded beside the app; absent: English, which the app carries. */
  words?: Strings;
}

/** The panel app module (`app-<hash>.js`), imported on the first interaction or when the page is idle. */
export interface PanelApp {
  mount(mounting: Mounting): PanelControl;
}

export interface PanelControl {
  /** Opens the panel, or closes it (focus back on the launcher) when it is open. */
  toggle(): void;
  unmount(): void;
}

const REQUIRED = ['baseUrl', 'accountId', 'templateId', 'themeId', 'floatingWidgetId'] as const;
const OPTIONAL = ['accessToken', 'languageCode', 'currency'] as const;

export function isWidgetConfig(value: unknown): value is WidgetConfig {
  if (!value || typeof value !== 'object') return false;
  const c = value as Record<string, unknown>;
  return REQUIRED.every((k) => typeof c[k] === 'string' && c[k] !== '') && OPTIONAL.every((k) => c[k] == null || typeof c[k] === 'string');
}
