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

  describe('a read the core asks to repeat', () => {
    /** A core that answers `status` with `retryAfter` to the first `busy` calls, then the list. */
    const core = (busy: number, status: number, retryAfter: string | null) => {
      const methods: string[] = [];
      vi.stubGlobal('fetch', async (_url: URL, init: RequestInit) => {
        methods.push(init.method ?? 'GET');
        if (methods.length > busy) return Response.json({ data: [{ id: 's' }] });
        const headers: Record<string, string> = retryAfter === null ? {} : { 'retry-after': retryAfter };
        return Response.json({ error: { code: 'unavailable' } }, { status, headers });
      });
      return methods;
    };
    const api = () => new Api({ baseUrl: 'https://core.example', accountId: 'a', accessToken: 't' });

    it.each([
      [503, 1],
      [429, 2],
    ])('goes again after the seconds it names (%i, %i times)', async (status, busy) => {
      const sent = core(busy, status, '0');
      expect(await api().list('streak')).toEqual([{ id: 's' }]);
      expect(sent).toHaveLength(busy + 1);
    });

    it('fails after two repeats, as the shopper then sees the error and its retry button', async () => {
      const sent = core(5, 503, '0');
      await expect(api().list('streak')).rejects.toMatchObject({ status: 503, code: 'unavailable' });
      expect(sent).toHaveLength(3);
    });

    it.each([
      ['no Retry-After', null],
      ['an empty one', ''],
      ['an HTTP date', 'Wed, 21 Oct 2026 07:28:00 GMT'],
      ['a wait longer than 10 s', '11'],
    ])('fails at once on %s', async (_, retryAfter) => {
      const sent = core(1, 503, retryAfter);
      await expect(api().list('streak')).rejects.toMatchObject({ status: 503 });
      expect(sent).toHaveLength(1);
    });

    it('waits the seconds named', async () => {
      vi.useFakeTimers();
      try {
        const sent = core(1, 503, '5');
        const read = api().list('streak');
        await vi.advanceTimersByTimeAsync(4_900);
        expect(sent).toHaveLength(1);
        await vi.advanceTimersByTimeAsync(200);
        expect(await read).toEqual([{ id: 's' }]);
        expect(sent).toHaveLength(2);
      } finally {
        vi.useRealTimers();
      }
    });

    it('never repeats a redemption: the next click sends its key again', async () => {
      const sent = core(1, 503, '0');
      await expect(api().redeem('r', 'key')).rejects.toMatchObject({ status: 503 });
      expect(sent).toEqual(['POST']);
    });
  });

  describe('an expired member token', () => {
    /** A core that takes only `fresh` as the member's token. */
    const core = () => {
      const sent: (string | null)[] = [];
      vi.stubGlobal('fetch', async (_url: URL, init: RequestInit) => {
        const token = new Headers(init.headers).get('x-enduser-access-token');
        sent.push(token);
        return token === 'fresh' ? Response.json({ data: [] }) : Response.json({ error: { code: 'unauthenticated' } }, { status: 401 });
      });
      return sent;
    };

    it('is renewed once for the calls it failed together, which go again with the fresh one', async () => {
      const sent = core();
      const renewToken = vi.fn(async () => 'fresh');
      const api = new Api({ baseUrl: 'https://core.example', accountId: 'a', accessToken: 'old', renewToken });
      await Promise.all([api.list('streak'), api.list('challenge'), api.list('mission')]);
      await api.list('reward');
      expect(renewToken).toHaveBeenCalledTimes(1);
      expect(sent.filter((t) => t === 'fresh')).toHaveLength(4);
    });

    it.each([
      ['gives none', async () => null],
      ['gives the same token', async () => 'old'],
      ['fails', async () => Promise.reject(new Error('down'))],
      [
        'throws',
        () => {
          throw new Error('no');
        },
      ],
    ])('is asked no more once a renewal %s: the calls fail as refused', async (_, give) => {
      core();
      const renewToken = vi.fn(give);
      const api = new Api({ baseUrl: 'https://core.example', accountId: 'a', accessToken: 'old', renewToken });
      for (let i = 0; i < 3; i++) await expect(api.list('streak')).rejects.toMatchObject({ status: 401 });
      await Promise.all([expect(api.list('challenge')).rejects.toThrow(), expect(api.list('mission')).rejects.toThrow()]);
      expect(renewToken).toHaveBeenCalledTimes(1);
    });
  });
});
