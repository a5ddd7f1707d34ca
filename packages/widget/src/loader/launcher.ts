import type { Mounting, PanelApp, PanelControl, WidgetApp, WidgetConfig } from '../config.js';
import { type Display, edges, launcherLabel, loadDisplay, themeProperties } from '../display.js';
import css from './launcher.css?inline';
import { addStyles } from '../styles.js';

export interface LauncherOptions {
  /** Imports the panel app with the words of the config's language; called at most once at a time per language, again after a failure. */
  importApp(config: WidgetConfig): Promise<PanelApp>;
  /** Reads the display records (from the core's API unless a test gives its own). */
  readDisplay?(config: WidgetConfig): Promise<Display>;
  /** Import and mount the app at once, as the widget did before the lazy launcher: only the benchmark's comparison build sets it. */
  eager?: boolean;
  /** The widget's word for rewards by language but English: the launcher's name when no record names it, before the app's words come. */
  rewards?: Record<string, string>;
  /** The referral code the browser keeps (`keepReferral`): the app offers a guest the shop's gift for it. */
  referral?: string;
  /** Its link was followed on this page, new to the browser: the first `init`, a guest's with a `referralUrl`, mounts the app at once to offer the gift. */
  followed?: boolean;
}

/** Marks on the page's performance timeline, for anyone measuring the widget (bench:widget reads them). */
export const MARK_LAUNCHER = 'loyalty-widget:launcher';

/** How long the app may wait for an idle moment after the page has loaded before it is imported anyway. */
const IDLE_TIMEOUT_MS = 4000;

const warn = (...args: unknown[]) => console.warn('[LoyaltyWidget]', ...args);

function giftIcon(): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  const attrs = {
    viewBox: '0 0 24 24',
    fill: 'none',
    stroke: 'currentColor',
    'stroke-width': '2',
    'stroke-linecap': 'round',
    'stroke-linejoin': 'round',
    'aria-hidden': 'true',
  };
  for (const [k, v] of Object.entries(attrs)) svg.setAttribute(k, v);
  const path = document.createElementNS(ns, 'path');
  path.setAttribute(
    'd',
    'M20 12v9H4v-9M2 7h20v5H2zM12 21V7M12 7H7.5a2.5 2.5 0 1 1 0-5C11 2 12 7 12 7zM12 7h4.5a2.5 2.5 0 1 0 0-5C13 2 12 7 12 7z',
  );
  svg.append(path);
  return svg;
}

/**
 * The theme's loyalty page block: `<loyalty-page>` elements, each showing the panel in the page while
 * a widget is started. Kept as they connect and disconnect, so one added later (the theme editor
 * redraws a section) or before the first `init` shows all the same. The app does the rest.
 */
const pageElements = new Set<HTMLElement>();
let pageHooks: { show(el: HTMLElement): void; hide(el: HTMLElement): void; release(): void } | undefined;
if (typeof customElements !== 'undefined' && !customElements.get('loyalty-page'))
  customElements.define(
    'loyalty-page',
    class extends HTMLElement {
      connectedCallback() {
        pageElements.add(this);
        pageHooks?.show(this);
      }
      disconnectedCallback() {
        pageElements.delete(this);
        pageHooks?.hide(this);
      }
    },
  );

/** The theme's custom properties on a root, which the launcher's and the panel's styles read. */
function themeRoot(root: HTMLElement, display: Display): void {
  root.removeAttribute('style');
  for (const [name, value] of Object.entries(themeProperties(display.theme))) root.style.setProperty(name, value);
}

/** The launcher's look from the floating widget, its name (`fallback` when no record names it), and the theme's properties on the root. */
function paint(root: HTMLElement, button: HTMLButtonElement, display: Display, fallback: string | undefined): void {
  const { launcher } = display;
  themeRoot(root, display);
  const [vertical, horizontal] = edges(launcher);
  button.removeAttribute('style');
  const look: Record<string, string> = {
    [vertical]: `${launcher.alignmentPositionY}px`,
    [horizontal]: `${launcher.alignmentPositionX}px`,
    background: launcher.backgroundColor,
    color: launcher.textColor,
    border: `${launcher.borderWidth}px solid ${launcher.borderColor}`,
    'border-radius': `${launcher.borderRadius}px`,
    'box-shadow': launcher.boxShadow,
    'font-size': `${launcher.fontSize}px`,
  };
  for (const [name, value] of Object.entries(look)) button.style.setProperty(name, value);
  if (launcher.eudTitle) button.removeAttribute('aria-label');
  else button.setAttribute('aria-label', launcherLabel(display, fallback));
  let icon: Element = giftIcon();
  if (launcher.eudIcon) {
    const img = document.createElement('img');
    img.src = launcher.eudIcon;
    img.alt = '';
    icon = img;
  }
  const title = document.createElement('span');
  title.textContent = launcher.eudTitle;
  button.replaceChildren(icon, ...(launcher.eudTitle ? [title] : []));
}

/** Without requestIdleCallback (Safari): a second after the load event, when a page has usually settled. */
const IDLE_FALLBACK_MS = 1000;

/** Runs `then` once the page has loaded and the main thread is idle (or after IDLE_TIMEOUT_MS). */
function whenPageIdle(then: () => void): void {
  const idle = () =>
    typeof requestIdleCallback === 'function'
      ? requestIdleCallback(then, { timeout: IDLE_TIMEOUT_MS })
      : setTimeout(then, IDLE_FALLBACK_MS);
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
}

/**
 * The launcher without the app: for every `init`, a `<loyalty-widget>` host with a shadow root,
 * the display records read at once, and the launcher drawn in plain DOM as soon as they answer.
 * The Preact panel app is imported on the first hover, focus or touch of the launcher, or when the
 * page is idle, whichever comes first, and mounted on the first click, which it then opens (or
 * at once on a guest's first visit from a referral link, to offer the shop's gift, or for a
 * loyalty page's panel). Once the page is idle, the app may also show its reminder beside the
 * launcher (`PanelApp.nudge`).
 */
export function createLauncher({
  importApp,
  readDisplay,
  eager = false,
  rewards = {},
  referral,
  followed = false,
}: LauncherOptions): WidgetApp {
  // By language: an init in another language needs its words (the app itself the browser imports once).
  const apps = new Map<string, Promise<PanelApp>>();
  const loadApp = (config: WidgetConfig): Promise<PanelApp> => {
    const language = config.languageCode ?? '';
    const loading = apps.get(language) ?? importApp(config);
    apps.set(language, loading);
    // A failed import is tried again on the next interaction.
    loading.catch(() => {
      if (apps.get(language) === loading) apps.delete(language);
    });
    return loading;
  };
  let current: { destroy(): void } | undefined;

  const start = (config: WidgetConfig): void => {
    current?.destroy();
    // Once a page: a later init (another language) does not open the panel again.
    const greet = followed && Boolean(config.referralUrl) && !config.accessToken;
    followed = false;
    const read = () => (readDisplay ?? loadDisplay)(config);
    // The reads start before the body exists; nothing waits for them but the launcher.
    const first = read();
    if (eager) void loadApp(config).catch(() => undefined);

    // A custom element name: store rules aimed at div or span do not reach the host.
    const host = document.createElement('loyalty-widget');
    const shadow = host.attachShadow({ mode: 'open' });
    addStyles(shadow, css);
    const root = document.createElement('div');
    root.className = 'lw-root';
    // The language it shows: a code it does not have was cleared by the queue, and the panel is then English.
    root.lang = config.languageCode || 'en';
    // All its languages are written left to right; `all: initial` leaves a right-to-left page's direction inherited.
    root.dir = 'ltr';
    shadow.append(root);
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'lw-launcher';
    button.setAttribute('aria-haspopup', 'dialog');
    button.setAttribute('aria-expanded', 'false');

    let destroyed = false;
    let display: Display | undefined;
    let panel: PanelControl | undefined;
    let opening = false;
    const fallback = config.languageCode ? rewards[config.languageCode] : undefined;
    const show = (d: Display) => {
      if (destroyed) return;
      display = d;
      paint(root, button, d, fallback);
    };
    const mounting = (): Mounting => ({
      config,
      shadow,
      root,
      launcher: button,
      display: display!,
      reload: () => read().then((d) => (show(d), d)),
      referral,
      followed: greet,
    });
    const mount = (m: PanelApp) => {
      if (!destroyed) panel ??= m.mount(mounting());
      return panel;
    };
    const prefetch = () => void loadApp(config).catch(() => undefined);

    button.addEventListener('click', () => {
      if (panel) return panel.toggle();
      // Clicks while the app is on its way add nothing: the first one opens the panel.
      if (opening) return;
      opening = true;
      loadApp(config)
        .then((m) => mount(m)?.toggle())
        .catch((err: unknown) => warn('could not open:', err))
        .finally(() => (opening = false));
    });
    for (const type of ['pointerenter', 'focus', 'touchstart']) button.addEventListener(type, prefetch, { once: true, passive: true });

    void first.then(
      (d) => {
        if (destroyed) return;
        show(d);
        root.prepend(button);
        performance.mark(MARK_LAUNCHER);
        if (eager || greet) loadApp(config).then(mount, (err: unknown) => warn('could not start:', err));
        else
          whenPageIdle(() =>
            loadApp(config).then(
              (m) => destroyed || panel || opening || m.nudge({ config, root, launcher: button, display: d }),
              () => undefined,
            ),
          );
      },
      (err: unknown) => warn('could not start:', err),
    );

    // A loyalty page's panel: the app at once, as it is the page's content.
    const pages = new Map<HTMLElement, { unmount(): void } | null>();
    const hidePage = (el: HTMLElement) => {
      pages.get(el)?.unmount();
      pages.delete(el);
    };
    const showPage = (el: HTMLElement) => {
      if (destroyed || pages.has(el)) return;
      pages.set(el, null);
      first
        .then((d) =>
          loadApp(config).then((m) => {
            if (pages.get(el) === null)
              pages.set(el, m.mountPage({ config, element: el, display: d, read, styles: css, paint: themeRoot }));
          }),
        )
        .catch((err: unknown) => warn('could not show the page:', err));
    };
    const releasePages = () => [...pages.keys()].forEach(hidePage);
    // The latest widget started shows the loyalty pages: it takes them from any other.
    pageHooks?.release();
    pageHooks = { show: showPage, hide: hidePage, release: releasePages };
    pageElements.forEach(showPage);

    const attach = () => !destroyed && document.body.append(host);
    if (document.body) attach();
    else document.addEventListener('DOMContentLoaded', attach, { once: true });
    current = {
      destroy() {
        destroyed = true;
        panel?.unmount();
        host.remove();
        releasePages();
      },
    };
  };

  return {
    mount(config) {
      try {
        start(config);
      } catch (err) {
        warn('could not mount:', err);
      }
    },
  };
}
