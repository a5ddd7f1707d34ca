import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { closedLoop, STREAK_LOG_PATH, streakLogRequests, type StreakAccount } from './lib.js';

/**
 * bench:burst's quiet account, on a thread of its own: the burst's client sends hundreds of large
 * bodies from the main thread, and its pauses would otherwise count as the service's latency.
 * Posts the logs' latencies (ms, ascending) and this thread's own largest event-loop delay.
 */
const { url, account, seconds } = workerData as { url: string; account: StreakAccount; seconds: number };
const requests = streakLogRequests(account);
const latencies: number[] = [];
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
// Two loops, each a log then 20 ms of quiet, as a shop's backend sends them.
await closedLoop({ connections: 2, seconds }, async () => {
  const started = performance.now();
  const res = await fetch(`${url}${STREAK_LOG_PATH}`, { method: 'POST', headers: requests.headers, body: requests.body() });
  if (res.status !== 200) throw new Error(`the quiet account's log answered ${res.status}`);
  await res.arrayBuffer();
  latencies.push(performance.now() - started);
  await new Promise((resolve) => setTimeout(resolve, 20));
});
delay.disable();
parentPort!.postMessage({ latencies: latencies.sort((x, y) => x - y), clientDelayMs: delay.max / 1e6 });
