import { numberOr } from './numbers';

/**
 * The branding editor's draft: the widget's theme, floating launcher and template (CONTRACT §6, §13)
 * as one set of merchant fields, and the record values they stand for. Shared by the page (the live
 * preview lays these values over the stored records) and its action (which writes them).
 */

export const THEME_COLOURS = [
  'primaryColor',
  'primaryContrastTextColor',
  'secondaryColor',
  'primaryTextColor',
  'secondaryTextColor',
  'backgroundColor',
] as const;
export const LAUNCHER_COLOURS = {
  launcherBackground: 'backgroundColor',
  launcherText: 'textColor',
  launcherBorder: 'borderColor',
} as const;
export const TEXTS = [
  'loggedOutTitle',
  'loggedOutSubTitle',
  'loggedInTitle',
  'loggedInSubTitle',
  'signUpButtonText',
  'logInButtonText',
  'rewardsTabTitle',
  'streaksTabTitle',
  'challengesTabTitle',
  'missionsTabTitle',
] as const;
export const ALIGNMENTS = ['bottom_right', 'bottom_left', 'top_right', 'top_left'] as const;

type ThemeColour = (typeof THEME_COLOURS)[number];
type LauncherColour = keyof typeof LAUNCHER_COLOURS;
type Text = (typeof TEXTS)[number];
export type Alignment = (typeof ALIGNMENTS)[number];

export type BrandingDraft = Record<ThemeColour | LauncherColour | Text, string> & {
  fontFamily: string;
  borderRadius: string;
  launcherTitle: string;
  alignment: Alignment;
  offsetX: string;
  offsetY: string;
  launcherFontSize: string;
};

/** The launcher's record fields by the draft's field, for the core's refusals. */
export const LAUNCHER_FIELDS: Record<string, keyof BrandingDraft> = {
  eudTitle: 'launcherTitle',
  alignment: 'alignment',
  alignmentPositionX: 'offsetX',
  alignmentPositionY: 'offsetY',
  fontSize: 'launcherFontSize',
  ...Object.fromEntries(Object.entries(LAUNCHER_COLOURS).map(([draft, field]) => [field, draft])),
};

const isAlignment = (value: unknown): value is Alignment => typeof value === 'string' && (ALIGNMENTS as readonly string[]).includes(value);

/** `rgba(124, 58, 237, 1)` as the `#7c3aed` a merchant reads; any other text stays as it is. */
export function toHex(colour: string): string {
  const m = /^rgba?\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*(?:,\s*1(?:\.0+)?\s*)?\)$/.exec(colour);
  if (!m) return colour;
  return `#${m
    .slice(1, 4)
    .map((n) => Number(n).toString(16).padStart(2, '0'))
    .join('')}`;
}

/** `#7c3aed` (or `#73e`) as the core's `rgba(r, g, b, 1)`; any other text goes as typed, for the core to judge. */
export function toRgba(colour: string): string {
  const text = colour.trim();
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(text);
  const long = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(text);
  const parts = long ? long.slice(1) : short ? short.slice(1).map((c) => c + c) : null;
  return parts ? `rgba(${parts.map((p) => parseInt(p, 16)).join(', ')}, 1)` : text;
}

const str = (value: unknown) => (typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value));

type Stored = Record<string, unknown>;

export function brandingDraft(theme: Stored, launcher: Stored, template: Stored): BrandingDraft {
  return {
    ...(Object.fromEntries(THEME_COLOURS.map((k) => [k, toHex(str(theme[k]))])) as Record<ThemeColour, string>),
    ...(Object.fromEntries(Object.entries(LAUNCHER_COLOURS).map(([k, f]) => [k, toHex(str(launcher[f]))])) as Record<
      LauncherColour,
      string
    >),
    ...(Object.fromEntries(TEXTS.map((k) => [k, str(template[k])])) as Record<Text, string>),
    fontFamily: str(theme.fontFamily),
    borderRadius: str(theme.borderRadius),
    launcherTitle: str(launcher.eudTitle),
    alignment: isAlignment(launcher.alignment) ? launcher.alignment : 'bottom_right',
    offsetX: str(launcher.alignmentPositionX),
    offsetY: str(launcher.alignmentPositionY),
    launcherFontSize: str(launcher.fontSize),
  };
}

/** A number field's text as the core takes it; what is not a number goes as typed, for the core to refuse in its words. */
/** The record values the draft stands for; a blank text is cleared, so the widget shows its default. */
export function brandingValues(d: BrandingDraft) {
  return {
    theme: {
      ...Object.fromEntries(THEME_COLOURS.map((k) => [k, toRgba(d[k])])),
      fontFamily: d.fontFamily,
      borderRadius: numberOr(d.borderRadius),
    },
    floating_widget: {
      ...Object.fromEntries(Object.entries(LAUNCHER_COLOURS).map(([k, f]) => [f, toRgba(d[k as LauncherColour])])),
      eudTitle: d.launcherTitle.trim() || null,
      alignment: d.alignment,
      alignmentPositionX: numberOr(d.offsetX),
      alignmentPositionY: numberOr(d.offsetY),
      fontSize: numberOr(d.launcherFontSize),
    },
    template: Object.fromEntries(TEXTS.map((k) => [k, d[k].trim() || null])),
  } satisfies Record<'theme' | 'floating_widget' | 'template', Record<string, unknown>>;
}

/** What the draft objects the page sends are; anything else is not a draft. */
export function isBrandingDraft(value: unknown): value is BrandingDraft {
  if (!value || typeof value !== 'object') return false;
  const d = value as Record<string, unknown>;
  const keys = [
    ...THEME_COLOURS,
    ...Object.keys(LAUNCHER_COLOURS),
    ...TEXTS,
    'fontFamily',
    'borderRadius',
    'launcherTitle',
    'offsetX',
    'offsetY',
    'launcherFontSize',
  ];
  return keys.every((k) => typeof d[k] === 'string') && isAlignment(d.alignment);
}
