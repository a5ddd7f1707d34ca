import type { Knex } from 'knex';
import type { RetentionSettings } from '../config.js';
import { count } from '../observability/metrics.js';

export const RETAINED_TABLES = ['event_log', 'webhook_log', 'notification_log'] as const;
export type RetainedTable = (typeof RETAINED_TABLES)[number];

/**
 * Which old rows may go: never one a delivery will still read. An event stays until it is
 * dispatched and no pending or retrying delivery carries it (the delivery reads its payload); a
 * webhook or notification log stays until it is final. `:account` is the account of the batch.
 */
const FINISHED: Record<RetainedTable, string> = {
  event_log: `dispatched_at is not null
    and id not in (select unnest(event_log_ids) from webhook_log
                    where account_id = :account and webhook_log_status in ('pending', 'errored'))
    and id not in (select event_log_id from notification_log
                    where account_id = :account and notification_log_status = 'pending')`,
  webhook_log: `webhook_log_status in ('processed', 'max_errored')`,
  notification_log: `notification_log_status <> 'pending'`,
};

export interface RetentionOptions {
  /** Rows per DELETE statement: each batch is a transaction of its own, so locks last one batch. */
  batchSize: number;
  /** Batches one run may delete across every account and table; the rest waits for the next run. */
  maxBatches: number;
  /** A pause between batches, so a large backlog does not take the disk from ingestion. */
  pauseMs: number;
}

export const DEFAULT_RETENTION_OPTIONS: RetentionOptions = { batchSize: 1000, maxBatches: 1000, pauseMs: 10 };

export interface RetentionRun {
  deleted: Record<RetainedTable, number>;
  /** False when the run stopped at its batch bound with expired rows left. */
  complete: boolean;
}

export function retentionDays(settings: RetentionSettings): Record<RetainedTable, number> {
  return { event_log: settings.eventLogDays, webhook_log: settings.webhookLogDays, notification_log: settings.notificationLogDays };
}

/**
 * One batch: the oldest expired, finished rows of one account and table. The account leads every
 * statement, so the scan is a range of the (account_id, created_at, id) index that every table has,
 * and on a database distributed by account each batch runs on one shard. SKIP LOCKED leaves any row
 * another transaction holds (a resend, say) to a later run.
 */
async function deleteBatch(db: Knex, table: RetainedTable, account: string, cutoff: Date, limit: number): Promise<number> {
  const result = await db.raw<{ rowCount: number }>(
    `delete from ${table} where account_id = :account and id in (
       select id from ${table}
        where account_id = :account and created_at < :cutoff and ${FINISHED[table]}
        order by created_at
        limit :limit
        for update skip locked)`,
    { account, cutoff, limit },
  );
  return result.rowCount;
}

/**
 * Deletes what outlived its table's retention (days; 0 keeps forever), in bounded batches. Accounts
 * take turns, one batch each per table and round, so one account's backlog never starves another's
 * within the run's bound. Ingestion only inserts, and a delete of old rows takes row locks on those
 * rows alone, so nothing here waits for, or holds up, a log.
 */
export async function runRetention(
  db: Knex,
  days: Record<RetainedTable, number>,
  now: Date,
  options: RetentionOptions = DEFAULT_RETENTION_OPTIONS,
): Promise<RetentionRun> {
  const deleted: Record<RetainedTable, number> = { event_log: 0, webhook_log: 0, notification_log: 0 };
  const tables = RETAINED_TABLES.filter((t) => days[t] > 0);
  if (!tables.length) return { deleted, complete: true };
  const accounts = await db<{ id: string }>('account').orderBy('id').pluck('id');
  let pending = accounts.flatMap((account) => tables.map((table) => ({ account, table })));
  let batches = 0;
  while (pending.length) {
    const again: typeof pending = [];
    for (const work of pending) {
      if (batches === options.maxBatches) return { deleted, complete: false };
      const cutoff = new Date(now.getTime() - days[work.table] * 86_400_000);
      const n = await deleteBatch(db, work.table, work.account, cutoff, options.batchSize);
      // Only batches that deleted count towards the bound: a probe of an account with nothing
      // expired is one index descent, and every account must be reached in every run.
      if (n) batches++;
      deleted[work.table] += n;
      count.retention(work.table, n);
      // A full batch may have left more behind; a short one emptied what this run may delete.
      if (n === options.batchSize) again.push(work);
      if (n && options.pauseMs) await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
    }
    pending = again;
  }
  return { deleted, complete: true };
}
