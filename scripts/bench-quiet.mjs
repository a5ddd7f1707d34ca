// Waits, before a benchmark, until the machine has settled from the one before it: PostgreSQL's
// writes and the last run's processes can keep a 2-core machine busy for a minute or more, and a
// browser's wall-time figures under that load are a multiple of an idle machine's.
import { availableParallelism, loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

const limit = Number(process.env.BENCH_QUIET_LOAD ?? availableParallelism() / 2);
const maxSeconds = Number(process.env.BENCH_QUIET_MAX_SECONDS ?? 240);
const started = Date.now();
let load = loadavg()[0];
while (load > limit && Date.now() - started < maxSeconds * 1000) {
  await sleep(5000);
  load = loadavg()[0];
}
const waited = Math.round((Date.now() - started) / 1000);
const state = load > limit ? `still ${load.toFixed(2)} after ${waited} s: going on` : `${load.toFixed(2)} after ${waited} s`;
console.log(`bench-quiet: 1-minute load average at most ${limit} wanted, ${state}`);
