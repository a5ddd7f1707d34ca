import PgBoss from 'pg-boss';
import type { Services } from '../services.js';
import { runSweeps } from './sweeps.js';

const SWEEP_QUEUE = 'loyalty-sweep';

export interface Workers {
  /** Runs the sweeps now, outside the timer (the CLI and tests). */
  sweepNow(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Background work on pg-boss: every worker asks for a sweep each interval, the `stately` queue
 * keeps at most one waiting and one running across all workers, and the sweeps themselves lock
 * rows with SKIP LOCKED, so extra workers add capacity and never double work.
 */
export async function startWorkers(s: Services, databaseUrl: string): Promise<Workers> {
  const boss = new PgBoss({ connectionString: databaseUrl, schema: 'pgboss', application_name: 'loyalty-worker', max: 4 });
  boss.on('error', (err) => s.logger.error({ err }, 'job queue error'));
  await boss.start();
  await boss.createQueue(SWEEP_QUEUE, { name: SWEEP_QUEUE, policy: 'stately', retryLimit: 3, retryDelay: 5 });
  const sweep = async () => {
    const done = await runSweeps(s.records, s.records.now(), s.config.lateLogGraceSeconds);
    if (Object.values(done).some((n) => n > 0)) s.logger.info({ done }, 'sweep');
  };
  await boss.work(SWEEP_QUEUE, { pollingIntervalSeconds: Math.max(0.5, Math.min(2, s.config.schedulerIntervalMs / 1000)) }, sweep);
  const singletonSeconds = Math.max(1, Math.floor(s.config.schedulerIntervalMs / 1000));
  const request = () =>
    boss.send(SWEEP_QUEUE, {}, { singletonKey: 'sweep', singletonSeconds }).catch((err: unknown) => s.logger.error({ err }, 'sweep request failed'));
  const timer = setInterval(request, s.config.schedulerIntervalMs);
  timer.unref();
  await request();
  return {
    sweepNow: sweep,
    async stop() {
      clearInterval(timer);
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    },
  };
}
