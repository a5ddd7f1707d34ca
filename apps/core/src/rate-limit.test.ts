import { describe, expect, it } from 'vitest';
import { TokenBuckets } from './rate-limit.js';

/** A clock the test moves by hand. */
function manualClock(start = 1_700_000_000_000) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

/** Takes until refused; returns how many were allowed (capped to catch a bucket that never empties). */
function drain(buckets: TokenBuckets, key: string, rate: number, cap = 1000): number {
  let allowed = 0;
  while (allowed < cap && buckets.take(key, rate).allowed) allowed++;
  return allowed;
}

describe('TokenBuckets', () => {
  it('starts full at twice the rate and counts remaining down to zero', () => {
    const clock = manualClock();
    const buckets = new TokenBuckets(clock.now);
    const results = Array.from({ length: 11 }, () => buckets.take('k', 5));
    expect(results.slice(0, 10).map((r) => r.allowed)).toEqual(Array(10).fill(true));
    expect(results.slice(0, 10).map((r) => r.remaining)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect(results.map((r) => r.limit)).toEqual(Array(11).fill(5));
    expect(results[10]).toEqual({ allowed: false, limit: 5, remaining: 0, retryAfterSeconds: 1 });
  });

  it('refills at the rate, a token at a time', () => {
    const clock = manualClock();
    const buckets = new TokenBuckets(clock.now);
    expect(drain(buckets, 'k', 5)).toBe(10);
    clock.advance(100); // half a token
    expect(buckets.take('k', 5).allowed).toBe(false);
    clock.advance(100); // the half from before plus another half
    expect(buckets.take('k', 5)).toMatchObject({ allowed: true, remaining: 0 });
    expect(buckets.take('k', 5).allowed).toBe(false);
    clock.advance(1000);
    expect(drain(buckets, 'k', 5)).toBe(5);
  });

  it('never holds more than the burst, however long it was idle', () => {
    const clock = manualClock();
    const buckets = new TokenBuckets(clock.now);
    expect(drain(buckets, 'k', 3)).toBe(6);
    clock.advance(3_600_000);
    expect(drain(buckets, 'k', 3)).toBe(6);
  });

  it('does not charge refused requests', () => {
    const clock = manualClock();
    const buckets = new TokenBuckets(clock.now);
    drain(buckets, 'k', 5);
    for (let i = 0; i < 50; i++) expect(buckets.take('k', 5).allowed).toBe(false);
    clock.advance(200);
    expect(buckets.take('k', 5).allowed).toBe(true);
  });

  it('keeps one bucket per key', () => {
    const clock = manualClock();
    const buckets = new TokenBuckets(clock.now);
    expect(drain(buckets, 'a', 2)).toBe(4);
    expect(buckets.take('a', 2).allowed).toBe(false);
    expect(buckets.take('b', 2)).toMatchObject({ allowed: true, remaining: 3 });
    expect(drain(buckets, 'c', 7)).toBe(14);
  });

  it('answers Retry-After as the whole seconds until the next token', () => {
    const clock = manualClock();
    const buckets = new TokenBuckets(clock.now);
    // Half a token a second: an empty bucket needs two seconds for one token.
    expect(drain(buckets, 'slow', 0.5)).toBe(1);
    expect(buckets.take('slow', 0.5).retryAfterSeconds).toBe(2);
    clock.advance(1500); // three quarters of a token: half a second to go, rounded up
    expect(buckets.take('slow', 0.5)).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    clock.advance(500);
    expect(buckets.take('slow', 0.5).allowed).toBe(true);
  });

  it('still refills a bucket after an idle spell long enough to forget it', () => {
    const clock = manualClock();
    const buckets = new TokenBuckets(clock.now);
    drain(buckets, 'idle', 4);
    drain(buckets, 'busy', 4);
    clock.advance(120_000);
    // The first take after the idle spell may sweep forgotten buckets; both come back full.
    expect(drain(buckets, 'busy', 4)).toBe(8);
    expect(drain(buckets, 'idle', 4)).toBe(8);
  });
});
