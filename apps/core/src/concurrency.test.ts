import { describe, expect, it } from 'vitest';
import { inPool, KeyedGate } from './concurrency.js';

const tick = () => new Promise((r) => setImmediate(r));

describe('KeyedGate', () => {
  it('runs at most `limit` tasks of a key at once, the rest in arrival order, other keys beside them', async () => {
    const gate = new KeyedGate(2);
    const started: string[] = [];
    const release = new Map<string, () => void>();
    const task = (key: string, name: string) =>
      gate.run(key, async () => {
        started.push(name);
        await new Promise<void>((done) => release.set(name, done));
        return name;
      });
    const a = ['a1', 'a2', 'a3', 'a4'].map((name) => task('a', name));
    const b = task('b', 'b1');
    await tick();
    expect(started).toEqual(['a1', 'a2', 'b1']);
    expect(gate.load('a')).toEqual({ running: 2, waiting: 2 });
    release.get('a2')!();
    await tick();
    expect(started).toEqual(['a1', 'a2', 'b1', 'a3']);
    for (const name of ['a1', 'a3', 'b1']) release.get(name)!();
    await tick();
    release.get('a4')!();
    expect(await Promise.all([...a, b])).toEqual(['a1', 'a2', 'a3', 'a4', 'b1']);
    expect(gate.load('a')).toEqual({ running: 0, waiting: 0 });
  });

  it('gives the place of a task that failed to the next in line', async () => {
    const gate = new KeyedGate(1);
    const failed = gate.run('k', async () => {
      throw new Error('boom');
    });
    const next = gate.run('k', async () => 'ran');
    await expect(failed).rejects.toThrow('boom');
    expect(await next).toBe('ran');
    expect(gate.load('k')).toEqual({ running: 0, waiting: 0 });
  });
});

describe('inPool', () => {
  it('works every item with at most `width` in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const done: number[] = [];
    await inPool([1, 2, 3, 4, 5], 2, async (n) => {
      most = Math.max(most, ++inFlight);
      await tick();
      done.push(n);
      inFlight--;
    });
    expect(done.sort()).toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(2);
  });
});
