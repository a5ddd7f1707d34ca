// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WidgetApp, WidgetConfig } from '../src/config.js';
import { installLoader, type WidgetHost } from '../src/loader/queue.js';

/** The inline stub merchants paste before the loader's script tag (CONTRACT §13). */
const STUB = 'window.LoyaltyWidget = window.LoyaltyWidget || { q: [], init: function(){ this.q.push(arguments) } }';

const config = (n: number): WidgetConfig => ({
  baseUrl: 'https://loyalty.test',
  accountId: `a${n}`,
  templateId: 't',
  themeId: 'th',
  floatingWidgetId: 'f',
});
const host = () => window as unknown as WidgetHost & { LoyaltyWidget: { init(c: unknown): void; q?: unknown[] } };
const settle = () => new Promise((r) => setTimeout(r, 0));

function fakeApp() {
  const mount = vi.fn<(c: WidgetConfig) => void>();
  const load = vi.fn(async (): Promise<WidgetApp> => ({ mount }));
  return { mount, load };
}

afterEach(() => {
  delete (window as { LoyaltyWidget?: unknown }).LoyaltyWidget;
  vi.restoreAllMocks();
});

describe('the loader queue', () => {
  it('replays the calls the stub queued, in order, loading the app once', async () => {
    window.eval(STUB);
    host().LoyaltyWidget.init(config(1));
    host().LoyaltyWidget.init(config(2));
    expect(host().LoyaltyWidget.q).toHaveLength(2);

    const { mount, load } = fakeApp();
    installLoader(host(), load);
    expect(host().LoyaltyWidget.q).toBeUndefined();
    await settle();
    expect(load).toHaveBeenCalledTimes(1);
    expect(mount.mock.calls.map(([c]) => c.accountId)).toEqual(['a1', 'a2']);

    // After the loader, calls go straight through to the loaded app.
    host().LoyaltyWidget.init(config(3));
    await settle();
    expect(load).toHaveBeenCalledTimes(1);
    expect(mount.mock.calls.map(([c]) => c.accountId)).toEqual(['a1', 'a2', 'a3']);
  });

  it('works without the stub: init after the loader has run', async () => {
    const { mount, load } = fakeApp();
    installLoader(host(), load);
    host().LoyaltyWidget.init({ ...config(1), accessToken: 'token', languageCode: 'fr' });
    await settle();
    expect(mount).toHaveBeenCalledWith(expect.objectContaining({ accessToken: 'token', languageCode: 'fr' }));
  });

  it("speaks a page's regional language tag as its language, and English with a warning for one it does not have", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { mount, load } = fakeApp();
    installLoader(host(), load);
    for (const languageCode of ['pt-BR', 'EN-us', 'zh-Hans', 'zh-CN', 'de', 'xx', 'tlh-Latn'])
      host().LoyaltyWidget.init({ ...config(1), languageCode });
    await settle();
    expect(mount.mock.calls.map(([c]) => c.languageCode)).toEqual(['pt', 'en', 'zh-CN', 'zh-CN', 'de', 'en', 'en']);
    expect(warn).toHaveBeenCalledTimes(2);
    expect(String(warn.mock.calls[0]![1])).toContain('"xx"');
  });

  it('mounts a copy of the config: the page changing its object later changes nothing', async () => {
    const { mount, load } = fakeApp();
    installLoader(host(), load);
    const given = config(1);
    host().LoyaltyWidget.init(given);
    given.accountId = 'changed';
    await settle();
    expect(mount.mock.calls[0]![0].accountId).toBe('a1');
  });

  it('warns about an invalid call instead of throwing, and loads nothing for it', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { load } = fakeApp();
    window.eval(STUB);
    host().LoyaltyWidget.init(undefined);
    installLoader(host(), load);
    for (const bad of [{}, { ...config(1), themeId: '' }, { ...config(1), accessToken: 7 }, 'config']) {
      expect(() => host().LoyaltyWidget.init(bad)).not.toThrow();
    }
    await settle();
    expect(load).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledTimes(5);
  });

  it('survives a failed load without an unhandled rejection, and the next call tries again', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    const mount = vi.fn();
    const load = vi.fn<() => Promise<WidgetApp>>().mockRejectedValueOnce(new Error('network down')).mockResolvedValue({ mount });
    installLoader(host(), load);
    host().LoyaltyWidget.init(config(1));
    await settle();
    expect(warn).toHaveBeenCalledWith('[LoyaltyWidget]', 'could not start:', expect.any(Error));
    host().LoyaltyWidget.init(config(2));
    await settle();
    expect(load).toHaveBeenCalledTimes(2);
    expect(mount).toHaveBeenCalledTimes(1);
    process.off('unhandledRejection', unhandled);
    expect(unhandled).not.toHaveBeenCalled();
  });

  it('keeps an app that throws while mounting away from the page', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    installLoader(host(), async () => ({
      mount() {
        throw new Error('boom');
      },
    }));
    expect(() => host().LoyaltyWidget.init(config(1))).not.toThrow();
    await settle();
    expect(warn).toHaveBeenCalledWith('[LoyaltyWidget]', 'could not start:', expect.objectContaining({ message: 'boom' }));
  });

  it('ignores a second copy of the loader on the same page', async () => {
    const first = fakeApp();
    const second = fakeApp();
    installLoader(host(), first.load);
    const init = host().LoyaltyWidget.init;
    installLoader(host(), second.load);
    expect(host().LoyaltyWidget.init).toBe(init);
    host().LoyaltyWidget.init(config(1));
    await settle();
    expect(first.mount).toHaveBeenCalledTimes(1);
    expect(second.load).not.toHaveBeenCalled();
  });
});
