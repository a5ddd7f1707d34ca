import { describe, expect, it } from 'vitest';
import { FairLanes, KeyedGate } from './concurrency.js';

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

  it('once closed refuses the tasks waiting and any new one; the running ones finish', async () => {
    const gate = new KeyedGate(1);
    let finish = () => {};
    const running = gate.run('k', () => new Promise<string>((done) => (finish = () => done('ran'))));
    const waiting = gate.run('k', async () => 'never');
    await tick();
    gate.close(() => new Error('closed'));
    await expect(waiting).rejects.toThrow('closed');
    await expect(gate.run('other', async () => 'never')).rejects.toThrow('closed');
    finish();
    expect(await running).toBe('ran');
    expect(gate.load('k')).toEqual({ running: 0, waiting: 0 });
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

describe('FairLanes', () => {
  /** Items named `<account><n>`, run until released; `late` ones are handed back instead. */
  function lanes(o: { width: number; accountCap: number; late?: Set<string> }) {
    const started: string[] = [];
    const handedBack: string[] = [];
    const release = new Map<string, () => void>();
    let freed = 0;
    const pool = new FairLanes<string>({
      width: o.width,
      accountCap: o.accountCap,
      heldMax: 8,
      accountHeldMax: 4,
      run: (name) => {
        started.push(name);
        return new Promise<void>((done) => release.set(name, done));
      },
      late: (name) => o.late?.has(name) ?? false,
      handBack: (name) => handedBack.push(name),
      onFreed: () => (freed += 1),
    });
    const add = (...names: string[]) => {
      for (const name of names) pool.add(name[0]!, name);
      pool.pump();
    };
    return { pool, add, started, handedBack, release: (name: string) => release.get(name)!(), freed: () => freed };
  }

  it('starts the accounts in turn, each up to its lanes, and a freed lane goes to the next of the same account', async () => {
    const { pool, add, started, release } = lanes({ width: 3, accountCap: 2 });
    add('a1', 'a2', 'a3', 'a4', 'b1', 'b2');
    expect(started).toEqual(['a1', 'b1', 'a2']);
    expect(pool.room()).toEqual({ free: 2, cap: 4, busy: { a: 4, b: 2 } });
    release('b1');
    await tick();
    expect(started).toEqual(['a1', 'b1', 'a2', 'b2']);
    release('a1');
    await tick();
    // a1's lane goes to the next of its own account.
    expect(started).toEqual(['a1', 'b1', 'a2', 'b2', 'a3']);
    for (const name of ['a2', 'a3', 'b2']) release(name);
    await tick();
    release('a4');
    await pool.settled();
    expect(pool.room()).toEqual({ free: 8, cap: 4, busy: {} });
  });

  it('hands back late items instead of starting them, and what waits when drained', async () => {
    const late = new Set<string>();
    const { pool, add, started, handedBack, release } = lanes({ width: 1, accountCap: 1, late });
    add('a1', 'a2', 'a3', 'b1');
    expect(started).toEqual(['a1']);
    late.add('a2');
    pool.handBackLate();
    expect(handedBack).toEqual(['a2']);
    const drained = pool.drain();
    expect(handedBack).toEqual(['a2', 'a3', 'b1']);
    release('a1');
    await drained;
    expect(started).toEqual(['a1']);
    expect(pool.free).toBe(8);
  });

  it('says when an account comes down to half of what it may hold', async () => {
    const { add, release, freed } = lanes({ width: 4, accountCap: 4 });
    add('a1', 'a2', 'a3');
    release('a1');
    await tick();
    expect(freed()).toBe(1);
  });
});
