import { describe, expect, it } from 'vitest';
import { PerKeyLimit } from '../app/http.server';

describe('a token bucket per key', () => {
  it('lets a burst through at once, then so many a second, each key on its own, and says how long until the next', () => {
    const limit = new PerKeyLimit(2, 3);
    const at = 1_000_000;
    expect([limit.take('a', at), limit.take('a', at), limit.take('a', at)]).toEqual([0, 0, 0]);
    expect(limit.take('a', at)).toBe(0.5);
    expect(limit.take('b', at)).toBe(0);
    expect(limit.take('a', at + 250)).toBe(0.25);
    expect(limit.take('a', at + 500)).toBe(0);
    // A quiet key fills up to its burst, not past it.
    expect(Array.from({ length: 4 }, () => limit.take('a', at + 60_000))).toEqual([0, 0, 0, 0.5]);
  });
});
