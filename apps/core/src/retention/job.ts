import type PgBoss from 'pg-boss';
import { ensureQueue } from '../db/job-queue.js';
import type { Services } from '../services.js';
import { retentionDays, runRetention } from './retention.js';

const RETENTION_QUEUE = 'loyalty-retention';

/**
 * The retention job on the workers' job queue: every worker asks for a run each interval, and the
 * `stately` queue keeps one waiting and one running across all workers, as for the sweeps. A run
 * that stops at its batch bound asks for the next one at once, so a backlog drains run after run.
 */
export async function scheduleRetention(boss: PgBoss, s: Services, expireInSeconds: number): Promise<{ stop(): void }> {
  const days = retentionDays(s.config.retention);
  if (!Object.values(days).some((d) => d > 0)) return { stop: () => undefined };
  await ensureQueue(boss, { name: RETENTION_QUEUE, policy: 'stately', retryLimit: 3, retryDelay: 60, expireInSeconds });
  const singletonSeconds = Math.max(1, Math.floor(s.config.retention.intervalMs / 1000));
  const request = () =>
    boss
      .send(RETENTION_QUEUE, {}, { singletonKey: 'retention', singletonSeconds })
      .catch((err: unknown) => s.logger.error({ err }, 'retention request failed'));
  await boss.work(RETENTION_QUEUE, { pollingIntervalSeconds: 2 }, async () => {
    const run = await runRetention(s.db, days, s.records.now());
    if (Object.values(run.deleted).some((n) => n > 0)) s.logger.info({ deleted: run.deleted, complete: run.complete }, 'retention');
    if (!run.complete) await boss.send(RETENTION_QUEUE, {});
  });
  const timer = setInterval(() => void request(), s.config.retention.intervalMs);
  timer.unref();
  await request();
  return { stop: () => clearInterval(timer) };
}
