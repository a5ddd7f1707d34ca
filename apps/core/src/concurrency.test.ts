import { describe, expect, it } from 'vitest';
import { ByteBudget, FairLanes, KeyedGate } from './concurrency.js';

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

describe('KeyedGate with a signal', () => {
  it('lets a task whose signal aborts while it waits leave the line, refused with the reason; the next in line takes the place', async () => {
    const gate = new KeyedGate(1);
    let finish = () => {};
    const running = gate.run('k', () => new Promise<string>((done) => (finish = () => done('ran'))));
    const leaving = new AbortController();
    const ran: string[] = [];
    const left = gate.run('k', async () => ran.push('left'), leaving.signal);
    const next = gate.run('k', async () => ran.push('next'));
    await tick();
    leaving.abort(new Error('gone'));
    await expect(left).rejects.toThrow('gone');
    expect(gate.load('k')).toEqual({ running: 1, waiting: 1 });
    finish();
    await Promise.all([running, next]);
    expect(ran).toEqual(['next']);
    expect(gate.load('k')).toEqual({ running: 0, waiting: 0 });
    // Aborted before it asks, a task never runs; one admitted runs to its end whatever its signal does.
    await expect(gate.run('k', async () => ran.push('late'), leaving.signal)).rejects.toThrow('gone');
    const admitted = new AbortController();
    expect(await gate.run('k', async () => (admitted.abort(), 'done'), admitted.signal)).toBe('done');
  });
});

describe('ByteBudget', () => {
  it('holds per key and in all under their ceilings; what would pass one waits, in order per key, until bytes are given back', async () => {
    const budget = new ByteBudget(10, 25);
    const taken: string[] = [];
    const take = (key: string, bytes: number, name: string, signal?: AbortSignal) =>
      budget.take(key, bytes, signal).then(() => void taken.push(name));
    await Promise.all([take('a', 6, 'a6'), take('a', 4, 'a4')]);
    const a1 = take('a', 1, 'a1');
    // A request without a body takes nothing and waits for nothing.
    const a0 = take('a', 0, 'a0');
    // Alone, a body larger than a key's ceiling still passes: the largest a route takes.
    await take('b', 12, 'b12');
    const b1 = take('b', 1, 'b1');
    // 22 held: c's first body passes whatever the whole holds, its second would pass the whole's ceiling.
    await take('c', 3, 'c3');
    const c1 = take('c', 1, 'c1');
    await a0;
    await tick();
    expect(taken).toEqual(['a6', 'a4', 'a0', 'b12', 'c3']);
    expect(budget.load('a')).toEqual({ held: 10, waiting: 1 });
    budget.give('a', 6);
    await Promise.all([a1, c1]);
    expect(taken).toEqual(['a6', 'a4', 'a0', 'b12', 'c3', 'a1', 'c1']);
    // One that leaves the line lets the next in it through.
    const leaving = new AbortController();
    const left = take('b', 9, 'b9', leaving.signal);
    leaving.abort(new Error('gone'));
    await expect(left).rejects.toThrow('gone');
    budget.give('b', 12);
    await b1;
    for (const [key, bytes] of [
      ['a', 5],
      ['b', 1],
      ['c', 4],
    ] as const)
      budget.give(key, bytes);
    expect(['a', 'b', 'c'].map((k) => budget.load(k))).toEqual(Array(3).fill({ held: 0, waiting: 0 }));
  });
});

describe('FairLanes', () => {
  /** Items named `<account><n>`, run until released; `late` ones are handed back instead. */
  function lanes(o: { width: number; accountCap: number; late?: Set<string>; heldMax?: number; accountHeldMax?: number }) {
    const started: string[] = [];
    const handedBack: string[] = [];
    const release = new Map<string, () => void>();
    let freed = 0;
    const clock = { now: 0 };
    const pool = new FairLanes<string>({
      width: o.width,
      accountCap: o.accountCap,
      heldMax: o.heldMax ?? 8,
      accountHeldMax: o.accountHeldMax ?? 4,
      slowMs: 1_000,
      clock: () => clock.now,
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
    return { pool, add, started, handedBack, clock, release: (name: string) => release.get(name)!(), freed: () => freed };
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

  it('halves the lanes of an account whose runs hang at each time-out, gives one back at each quick run, and claims it less meanwhile', async () => {
    const { pool, add, started, clock, release } = lanes({ width: 8, accountCap: 4, heldMax: 64, accountHeldMax: 16 });
    add('a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'b1', 'b2');
    expect(started).toEqual(['a1', 'b1', 'a2', 'b2', 'a3', 'a4']);
    // b's quick runs leave its lanes as they were.
    release('b1');
    release('b2');
    await tick();
    // a's four runs meet their time-out: 4 lanes, then 2, 1, 1, 1.
    clock.now = 1_000;
    for (const name of ['a1', 'a2', 'a3', 'a4']) release(name);
    await tick();
    expect(started.slice(6)).toEqual(['a5']);
    // An account with one lane of four may hold a quarter of what it could: the claim sees it as holding the rest.
    expect(pool.room().busy).toEqual({ a: 2 + 12 });
    add('b3', 'b4', 'b5', 'b6');
    expect(started.slice(7)).toEqual(['b3', 'b4', 'b5', 'b6']);
    // a's far end answers again: each quick run gives a lane back.
    release('a5');
    await tick();
    expect(started.slice(11)).toEqual(['a6']);
    add('a7', 'a8', 'a9', 'a10');
    expect(started.slice(12)).toEqual(['a7']);
    release('a6');
    await tick();
    expect(started.slice(13)).toEqual(['a8', 'a9']);
    // Idle and quick since, it has its whole share again.
    for (const name of ['a7', 'a8', 'a9', 'b3', 'b4', 'b5', 'b6']) release(name);
    await tick();
    release('a10');
    await pool.settled();
    add('a11', 'a12', 'a13', 'a14', 'a15');
    expect(started.slice(-4)).toEqual(['a11', 'a12', 'a13', 'a14']);
  });

  it('takes a run its time-out ended for hung though the finer clock reads it a little short', async () => {
    const { add, started, clock, release } = lanes({ width: 8, accountCap: 4, heldMax: 64, accountHeldMax: 16 });
    add('a1', 'a2', 'a3', 'a4', 'a5', 'a6');
    // A timer of 1,000 ms measured as a Node timer fires, by whole milliseconds of the loop's clock.
    clock.now = 999.4;
    for (const name of ['a1', 'a2', 'a3', 'a4']) release(name);
    await tick();
    expect(started.slice(4)).toEqual(['a5']);
  });
});
