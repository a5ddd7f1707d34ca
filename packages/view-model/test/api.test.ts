import { afterEach, describe, expect, it, vi } from 'vitest';
import { Api } from '../src/api.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Api', () => {
  it('fails a read the core does not answer in time, so the caller can show its error and retry', async () => {
    // A core that takes the request and never answers: only the request's signal ends it.
    const signals: AbortSignal[] = [];
    vi.stubGlobal(
      'fetch',
      (_url: URL, init: RequestInit) =>
        new Promise((_resolve, reject) => {
          signals.push(init.signal!);
          init.signal!.addEventListener('abort', () => reject(init.signal!.reason));
        }),
    );
    await expect(new Api({ baseUrl: 'https://core.example', accountId: 'a' }, 50).list('streak')).rejects.toThrow();
    expect(signals.map((s) => s.aborted)).toEqual([true]);
  });
});
