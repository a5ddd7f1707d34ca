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
  /** A fresh end-user token once `accessToken` has expired (the page outlived it); null when the shopper signed out. */
  renewToken?: () => Promise<string | null | undefined>;
  /**
   * The shop's endpoint for a referred friend's gift (the Shopify app's `/apps/loyalty/referral`):
   * `GET ?code=` says what the friend gets, `POST {code, email}` claims its code. Absent: no gift.
   */
  referralUrl?: string;
  /** False: no reminder beside the launcher (the points a guest gets for an account, the reward a member's balance covers). */
  nudges?: boolean;
}

/** What the loader's queue starts once and then mounts for every valid `init`: the launcher. */
export interface WidgetApp {
  mount(config: WidgetConfig): void;
}

/** What the loader hands the lazily loaded panel app: the launcher it drew and the records it read. */
export interface Mounting {
  config: WidgetConfig;
  shadow: ShadowRoot;
  /** `.lw-root`: carries the theme's custom properties, `lang` and `dir`; the panel goes inside it. */
  root: HTMLElement;
  launcher: HTMLButtonElement;
  display: Display;
  /** Reads the display records again and redraws the launcher (the error state's retry). */
  reload(): Promise<Display>;
  /** The interface's words in `languageCode`, loaded beside the app; absent: English, which the app carries. */
  words?: Strings;
  /** The referral code the browser keeps (the loader's `keepReferral`), for a guest's gift from the friend who shared it. */
  referral?: string;
  /** A guest followed its link on this page, new to the browser: the panel opens by itself when the shop has a gift for them. */
  followed?: boolean;
}

/**
 * What the loader hands the app for a `<loyalty-page>` element (the theme's loyalty page block): the
 * panel laid out in the page, always open, in a shadow root of the element's own.
 */
export interface PageMounting {
  config: WidgetConfig;
  element: HTMLElement;
  display: Display;
  /** Reads the display records again (the error state's retry). */
  read(): Promise<Display>;
  /** The launcher's rules (the root's custom properties, the host's reset), which the panel's build on. */
  styles: string;
  /** Puts the theme's custom properties on a root, as on the launcher's. */
  paint(root: HTMLElement, display: Display): void;
  words?: Strings;
}

/** What the loader hands the app once the page is idle, for the reminder beside the launcher (`PanelApp.nudge`). */
export type NudgeMounting = Pick<Mounting, 'config' | 'root' | 'launcher' | 'display' | 'words'>;

/** The panel app module (`app-<hash>.js`), imported on the first interaction or when the page is idle (at once for a loyalty page). */
export interface PanelApp {
  mount(mounting: Mounting): PanelControl;
  mountPage(mounting: PageMounting): Pick<PanelControl, 'unmount'>;
  /** Once a session, a reminder beside the launcher when there is one to give; clicked, it opens the panel on the points. */
  nudge(mounting: NudgeMounting): void;
}

export interface PanelControl {
  /** Opens the panel, or closes it (focus back on the launcher) when it is open. */
  toggle(): void;
  unmount(): void;
}

const REQUIRED = ['baseUrl', 'accountId', 'templateId', 'themeId', 'floatingWidgetId'] as const;
const OPTIONAL = ['accessToken', 'languageCode', 'currency', 'referralUrl'] as const;

/** The interface's languages (CONTRACT §7); the API refuses any other `languageCode`. */
const LANGUAGE_CODES = ['en', 'fr', 'es', 'de', 'it', 'pt', 'ja', 'ko', 'zh-CN'];

/**
 * The language the widget speaks for a page's `languageCode`: one of the nine as given (in any
 * case), else by its first subtag (`pt-BR` is `pt`, `zh-Hans` is `zh-CN`); undefined for none.
 */
export function interfaceLanguage(code: string): string | undefined {
  const lower = code.toLowerCase();
  return LANGUAGE_CODES.find((c) => c.toLowerCase() === lower) ?? LANGUAGE_CODES.find((c) => c.split('-')[0] === lower.split(/[-_]/)[0]);
}

export function isWidgetConfig(value: unknown): value is WidgetConfig {
  if (!value || typeof value !== 'object') return false;
  const c = value as Record<string, unknown>;
  return (
    REQUIRED.every((k) => typeof c[k] === 'string' && c[k] !== '') &&
    OPTIONAL.every((k) => c[k] == null || typeof c[k] === 'string') &&
    (c.renewToken == null || typeof c.renewToken === 'function')
  );
}
