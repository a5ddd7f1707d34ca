// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Mounting, NudgeMounting, PageMounting, PanelApp, WidgetConfig } from '../src/config.js';
import { DEFAULT_LAUNCHER, type Display } from '../src/display.js';
import { createLauncher } from '../src/loader/launcher.js';

const config: WidgetConfig = { baseUrl: 'https://loyalty.test', accountId: 'a', templateId: 't', themeId: 'th', floatingWidgetId: 'f' };
const display: Display = {
  launcher: { ...DEFAULT_LAUNCHER, alignment: 'top_left', alignmentPositionX: 30, alignmentPositionY: 44, eudTitle: 'Perks' },
  theme: undefined,
  template: undefined,
  failed: false,
};
const settle = () => new Promise((r) => setTimeout(r, 0));
const host = () => document.querySelectorAll('loyalty-widget');
const button = () => document.querySelector('loyalty-widget')!.shadowRoot!.querySelector<HTMLButtonElement>('.lw-launcher');

/** A panel app that records what the loader asks of it. */
function fakeApp() {
  const toggle = vi.fn();
  const unmount = vi.fn();
  const mounted: Mounting[] = [];
  const pages: PageMounting[] = [];
  const unmountPage = vi.fn();
  const nudged: NudgeMounting[] = [];
  const app: PanelApp = {
    nudge(m) {
      nudged.push(m);
    },
    mount(m) {
      mounted.push(m);
      return { toggle, unmount };
    },
    mountPage(m) {
      pages.push(m);
      return { unmount: unmountPage };
    },
  };
  const importApp = vi.fn(async () => app);
  return { app, importApp, toggle, unmount, mounted, pages, unmountPage, nudged };
}

let idle: (() => void)[];
beforeEach(() => {
  idle = [];
  // jsdom has no requestIdleCallback: the test decides when the page is idle.
  vi.stubGlobal('requestIdleCallback', (run: () => void) => idle.push(run));
});
afterEach(() => {
  document.body.replaceChildren();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the launcher', () => {
  it('is drawn from the display records without the app, placed and named by the floating widget', async () => {
    const { importApp } = fakeApp();
    createLauncher({ importApp, readDisplay: async () => display }).mount(config);
    expect(host()).toHaveLength(1);
    await settle();
    const b = button()!;
    expect(b.textContent).toBe('Perks');
    expect(b.style.top).toBe('44px');
    expect(b.style.left).toBe('30px');
    expect(b.getAttribute('aria-expanded')).toBe('false');
    expect(b.getAttribute('aria-haspopup')).toBe('dialog');
    expect(importApp).not.toHaveBeenCalled();
  });

  it('imports the app when the page is idle, lets it remind the shopper beside the launcher, and opens it on the first click', async () => {
    const { importApp, toggle, mounted, nudged } = fakeApp();
    createLauncher({ importApp, readDisplay: async () => display }).mount(config);
    await settle();
    expect(idle).toHaveLength(1);
    idle[0]!();
    await settle();
    expect(importApp).toHaveBeenCalledTimes(1);
    expect(mounted).toHaveLength(0);
    expect(nudged).toHaveLength(1);
    expect(nudged[0]!.launcher).toBe(button());
    expect(nudged[0]!.display).toBe(display);
    expect(nudged[0]!.config).toEqual(config);

    button()!.click();
    await settle();
    expect(mounted).toHaveLength(1);
    expect(mounted[0]!.launcher).toBe(button());
    expect(mounted[0]!.display).toBe(display);
    expect(toggle).toHaveBeenCalledTimes(1);
    // Later clicks go straight to the panel.
    button()!.click();
    expect(toggle).toHaveBeenCalledTimes(2);
    expect(importApp).toHaveBeenCalledTimes(1);
  });

  it('imports the app on the first hover or focus, before the page is idle', async () => {
    const { importApp, mounted } = fakeApp();
    createLauncher({ importApp, readDisplay: async () => display }).mount(config);
    await settle();
    button()!.dispatchEvent(new Event('focus'));
    button()!.dispatchEvent(new Event('pointerenter'));
    await settle();
    expect(importApp).toHaveBeenCalledTimes(1);
    expect(mounted).toHaveLength(0);
  });

  it('asks for no reminder once the panel is open or on its way: the panel says more', async () => {
    const { app, importApp, toggle, nudged } = fakeApp();
    let arrive = () => {};
    importApp.mockImplementationOnce(() => new Promise((resolve) => (arrive = () => resolve(app))));
    createLauncher({ importApp, readDisplay: async () => display }).mount(config);
    await settle();
    button()!.click();
    idle[0]!();
    arrive();
    await settle();
    expect(toggle).toHaveBeenCalledTimes(1);
    expect(nudged).toEqual([]);
  });

  it('opens once for clicks made while the app is on its way', async () => {
    const { importApp, toggle } = fakeApp();
    createLauncher({ importApp, readDisplay: async () => display }).mount(config);
    await settle();
    button()!.click();
    button()!.click();
    button()!.click();
    await settle();
    expect(toggle).toHaveBeenCalledTimes(1);
  });

  it('warns when the app cannot be imported, and the next click tries again', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { importApp, toggle } = fakeApp();
    importApp.mockRejectedValueOnce(new Error('network down'));
    createLauncher({ importApp, readDisplay: async () => display }).mount(config);
    await settle();
    button()!.click();
    await settle();
    expect(warn).toHaveBeenCalledWith('[LoyaltyWidget]', 'could not open:', expect.any(Error));
    button()!.click();
    await settle();
    expect(importApp).toHaveBeenCalledTimes(2);
    expect(toggle).toHaveBeenCalledTimes(1);
  });

  it('replaces the widget on a later init: one host, the old panel unmounted, the app imported once per language', async () => {
    const { importApp, unmount, mounted } = fakeApp();
    const launcher = createLauncher({ importApp, readDisplay: async () => display });
    launcher.mount(config);
    await settle();
    button()!.click();
    await settle();
    launcher.mount({ ...config, languageCode: 'fr' });
    expect(unmount).toHaveBeenCalledTimes(1);
    expect(host()).toHaveLength(1);
    await settle();
    expect(document.querySelector('loyalty-widget')!.shadowRoot!.querySelector('.lw-root')!.getAttribute('lang')).toBe('fr');
    button()!.click();
    await settle();
    expect(mounted.map((m) => m.config.languageCode)).toEqual([undefined, 'fr']);
    // French needs its words, which come with the import.
    expect(importApp).toHaveBeenCalledTimes(2);
    // Back in a language already imported: nothing more to import.
    launcher.mount(config);
    await settle();
    button()!.click();
    await settle();
    expect(mounted.map((m) => m.config.languageCode)).toEqual([undefined, 'fr', undefined]);
    expect(importApp).toHaveBeenCalledTimes(2);
  });

  it('redraws the launcher when the panel reads the records again', async () => {
    const { importApp, mounted } = fakeApp();
    let read = 0;
    const readDisplay = async () => (read++ ? { ...display, launcher: { ...display.launcher, eudTitle: 'Rewards club' } } : display);
    createLauncher({ importApp, readDisplay }).mount(config);
    await settle();
    button()!.click();
    await settle();
    const again = await mounted[0]!.reload();
    expect(again.launcher.eudTitle).toBe('Rewards club');
    expect(button()!.textContent).toBe('Rewards club');
  });

  it('in the eager build, imports the app at once and mounts it when the launcher is drawn', async () => {
    const { importApp, mounted, toggle } = fakeApp();
    createLauncher({ importApp, readDisplay: async () => display, eager: true }).mount(config);
    expect(importApp).toHaveBeenCalledTimes(1);
    await settle();
    expect(mounted).toHaveLength(1);
    expect(toggle).not.toHaveBeenCalled();
    expect(idle).toHaveLength(0);
  });

  it('mounts the app as the launcher is drawn for a guest who followed a referral link new to the browser, once, with the code', async () => {
    const { importApp, mounted, toggle } = fakeApp();
    const withGift = { ...config, referralUrl: '/apps/loyalty/referral' };
    const launcher = createLauncher({ importApp, readDisplay: async () => display, referral: 'K7M3QX9P', followed: true });
    launcher.mount(withGift);
    await settle();
    // The app opens the panel itself, and only when the shop has a gift: the loader does not.
    expect(mounted.map((m) => [m.referral, m.followed])).toEqual([['K7M3QX9P', true]]);
    expect(toggle).not.toHaveBeenCalled();
    // A later init (another language) is no new visit: mounted on the first click, the code still given.
    launcher.mount({ ...withGift, languageCode: 'fr' });
    await settle();
    expect(mounted).toHaveLength(1);
    button()!.click();
    await settle();
    expect(mounted.map((m) => [m.referral, m.followed])).toEqual([
      ['K7M3QX9P', true],
      ['K7M3QX9P', false],
    ]);
  });

  it('waits for a click as ever where a followed link brings no gift: a member, or no referralUrl', async () => {
    for (const given of [{ ...config, referralUrl: '/apps/loyalty/referral', accessToken: 'token' }, config]) {
      idle = [];
      const { importApp, mounted } = fakeApp();
      createLauncher({ importApp, readDisplay: async () => display, referral: 'K7M3QX9P', followed: true }).mount(given);
      await settle();
      expect(mounted).toHaveLength(0);
      expect(idle).toHaveLength(1);
      document.body.replaceChildren();
    }
  });
});

describe('a loyalty page (the theme’s block: a <loyalty-page> element)', () => {
  const page = () => {
    const el = document.createElement('loyalty-page');
    document.body.append(el);
    return el;
  };

  it('hands an element there before init to the app at once, beside the launcher', async () => {
    const el = page();
    const { importApp, pages, mounted } = fakeApp();
    createLauncher({ importApp, readDisplay: async () => display }).mount({ ...config, languageCode: 'de' });
    await settle();
    // Not waiting for an idle moment or a click: the panel is the page's content.
    expect(pages).toHaveLength(1);
    expect(pages[0]).toMatchObject({ element: el, display, config: { languageCode: 'de' } });
    expect(await pages[0]!.read()).toBe(display);
    // The floating launcher is still there, its panel mounted only on its own first click.
    expect(button()).not.toBeNull();
    expect(mounted).toHaveLength(0);
  });

  it('shows one added after init (the theme editor redraws a section), and takes it down when it goes', async () => {
    const { importApp, pages, unmountPage } = fakeApp();
    createLauncher({ importApp, readDisplay: async () => display }).mount(config);
    await settle();
    expect(pages).toHaveLength(0);
    const el = page();
    await settle();
    expect(pages.map((p) => p.element)).toEqual([el]);
    el.remove();
    expect(unmountPage).toHaveBeenCalledTimes(1);
    // Put back, it is shown again.
    document.body.append(el);
    await settle();
    expect(pages.map((p) => p.element)).toEqual([el, el]);
  });

  it('is not shown when it goes while the app is on its way', async () => {
    let arrive!: () => void;
    const { importApp, pages } = fakeApp();
    const app = await importApp();
    const slow = vi.fn(() => new Promise<PanelApp>((resolve) => (arrive = () => resolve(app))));
    const el = page();
    createLauncher({ importApp: slow, readDisplay: async () => display }).mount(config);
    await settle();
    el.remove();
    arrive();
    await settle();
    expect(pages).toHaveLength(0);
  });

  it('is shown again in the language of a later init, the earlier panel taken down', async () => {
    page();
    const { importApp, pages, unmountPage } = fakeApp();
    const launcher = createLauncher({ importApp, readDisplay: async () => display });
    launcher.mount(config);
    await settle();
    launcher.mount({ ...config, languageCode: 'fr' });
    await settle();
    expect(unmountPage).toHaveBeenCalledTimes(1);
    expect(pages.map((p) => p.config.languageCode)).toEqual([undefined, 'fr']);
  });
});
