import type { ChildProcess } from 'node:child_process';

type Stops = Set<() => void>;
const KEY = Symbol.for('loyalty.test.children');

/**
 * What stops the processes tests started and have not stopped yet. Kept on globalThis, since test
 * files re-import the support modules (vi.resetModules) in one worker, which has one exit.
 */
function stops(): Stops {
  const global = globalThis as unknown as Record<symbol, Stops | undefined>;
  let set = global[KEY];
  if (!set) {
    const all: Stops = new Set();
    set = global[KEY] = all;
    const stopAll = () => {
      for (const stop of all) stop();
    };
    process.once('exit', stopAll);
    // Vitest ends its workers with SIGTERM, which by default ends a process without 'exit'.
    process.once('SIGTERM', () => {
      stopAll();
      process.exit(143);
    });
  }
  return set;
}

/**
 * Makes `child` end with this test process: a test that fails before it stops what it started (a
 * start that fails half-way, a hook that times out) would otherwise leave it serving after the run.
 * `stop` ends it (by default SIGKILL to the child; a process group's leader passes its own).
 */
export function endsWithTests(child: ChildProcess, stop = () => void child.kill('SIGKILL')): void {
  const set = stops();
  set.add(stop);
  child.once('exit', () => set.delete(stop));
}
