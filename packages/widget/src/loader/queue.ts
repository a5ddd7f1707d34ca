import { interfaceLanguage, isWidgetConfig, type WidgetApp, type WidgetConfig } from '../config.js';

/**
 * `window.LoyaltyWidget` as a host page sees it: before the loader runs, the inline stub
 * (`{ q: [], init() { this.q.push(arguments) } }`); after, only `init`.
 */
export interface LoyaltyWidgetGlobal {
  init(config: WidgetConfig): void;
  q?: ArrayLike<unknown>[];
}

export type WidgetHost = { LoyaltyWidget?: Partial<LoyaltyWidgetGlobal> };

const warn = (...args: unknown[]) => console.warn('[LoyaltyWidget]', ...args);

/**
 * Replaces the stub with the real `init`, replays the calls the stub queued, and starts the widget
 * (the loader's launcher, see index.ts) once, on the first valid call. Nothing here throws into the
 * host page: a bad call or a failed start is a console warning, and a later call may try again.
 */
export function installLoader(host: WidgetHost, loadApp: (config: WidgetConfig) => Promise<WidgetApp>): void {
  const existing = host.LoyaltyWidget;
  // The loader included twice: the first copy already serves init.
  if (typeof existing?.init === 'function' && !Array.isArray(existing.q)) return;
  let app: Promise<WidgetApp> | undefined;
  const init = (config: unknown): void => {
    try {
      if (!isWidgetConfig(config)) {
        warn('init needs baseUrl, accountId, templateId, themeId and floatingWidgetId as strings.');
        return;
      }
      // A copy: the host page may reuse its object for something else.
      const own: WidgetConfig = { ...config };
      if (own.languageCode) {
        // The API answers only its nine languages: a page's regional tag would fail every read. One it
        // does not have is English throughout, the records' texts as well as the widget's own.
        const language = interfaceLanguage(own.languageCode);
        if (!language) warn(`languageCode "${own.languageCode}" is not one of the widget's languages; showing English.`);
        own.languageCode = language ?? 'en';
      }
      const loading = (app ??= loadApp(own));
      loading
        .then((m) => m.mount(own))
        .catch((err: unknown) => {
          if (app === loading) app = undefined;
          warn('could not start:', err);
        });
    } catch (err) {
      warn('could not start:', err);
    }
  };
  host.LoyaltyWidget = { init };
  for (const args of Array.from(existing?.q ?? [])) init(args[0]);
}
