// @vitest-environment jsdom
import { afterEach, expect, it, vi } from 'vitest';
import { DEFAULT_LAUNCHER, loadDisplay } from '../src/display.js';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

it('gives up a display read the core holds unanswered at its time-out: the launcher is drawn from the defaults, not never', async () => {
  // A core that takes the request and never answers: only the request's signal ends it.
  const timeouts: number[] = [];
  const controller = new AbortController();
  vi.spyOn(AbortSignal, 'timeout').mockImplementation((ms) => {
    timeouts.push(ms);
    return controller.signal;
  });
  vi.stubGlobal(
    'fetch',
    (_url: URL, init: RequestInit) =>
      new Promise((_resolve, reject) => init.signal!.addEventListener('abort', () => reject(init.signal!.reason))),
  );
  const read = loadDisplay({ baseUrl: 'https://loyalty.test', accountId: 'a', templateId: 't', themeId: 'th', floatingWidgetId: 'f' });
  expect(timeouts).toEqual([15_000, 15_000, 15_000]);
  controller.abort(new DOMException('The operation timed out.', 'TimeoutError'));
  expect(await read).toMatchObject({ launcher: DEFAULT_LAUNCHER, failed: true });
});
