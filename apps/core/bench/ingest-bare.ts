import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { periodKey } from '../src/engine/periods.js';
import type { BareRoute } from './bare-http.js';

/** The row writes of `bench:ingest`'s baselines, and the bare HTTP server's route that runs them (see bare-http.ts). */

export const PATH = '/api/v1.0/schema/streak_log/record';

/** What the baselines know without reading: the account, the streak, and the event payload to write. */
export interface IngestContext {
  accountId: string;
  streakId: string;
  /** The event's payload, sized as the service writes it (a log create response). */
  payload: string;
}

/** The rows one aggregated log writes, as plain SQL in one transaction (no reads, no checks). */
export async function baselineLog(pool: pg.Pool, s: IngestContext, memberId: string, uniqueIdentifier: string = randomUUID()) {
  const client = await pool.connect();
  try {
    const at = new Date();
    const day = periodKey(at, 'daily', 'UTC');
    await client.query('begin');
    const log = await client.query<{ id: string }>(
      `insert into streak_log (account_id, streak_id, owned_by_id, activity_id, activity_at, unique_identifier, status, period_key)
       values ($1, $2, $3, 'visit', $4, $5, 'live', $6) returning id`,
      [s.accountId, s.streakId, memberId, at, uniqueIdentifier, day],
    );
    const progress = await client.query<{ id: string }>(
      `insert into streak_progress (account_id, streak_id, owned_by_id, unique_identifier, streak_started_at, current_period_key, streak_to_be_broken_at)
       values ($1, $2, $3, $6, $4, $5, $4)
       on conflict (account_id, unique_identifier) where streak_progress_status = 'in_progress'
       do update set current_progress_value = streak_progress.current_progress_value, updated_at = now() returning id`,
      [s.accountId, s.streakId, memberId, at, day, `${s.streakId}:${memberId}`],
    );
    const progressId = progress.rows[0]!.id;
    const task = await client.query(
      `update task_progress set current_progress_value = current_progress_value + 1, updated_at = now()
       where account_id = $1 and linked_schema_record_id = $2 and period_key = $3`,
      [s.accountId, progressId, day],
    );
    if (task.rowCount === 0) {
      await client.query(
        `insert into task_progress (account_id, owned_by_id, linked_schema_slug, linked_schema_record_id, period_key, current_progress_value, target_value)
         values ($1, $2, 'streak_progress', $3, $4, 1, 1)`,
        [s.accountId, memberId, progressId, day],
      );
    }
    const logId = log.rows[0]!.id;
    await client.query(`update streak_log set is_aggregated = true where account_id = $1 and id = $2`, [s.accountId, logId]);
    await client.query(
      `insert into event_log (account_id, event_code, owned_by_id, linked_schema_slug, linked_schema_record_id, payload)
       values ($1, 'streak_progress_in_progress', $2, 'streak_progress', $3, $4)`,
      [s.accountId, memberId, progressId, s.payload],
    );
    await client.query('commit');
    return { id: logId, streakProgressId: progressId };
  } catch (err) {
    await client.query('rollback');
    throw err;
  } finally {
    client.release();
  }
}

// The API's path and body, so one load generator setup serves both; the body is trusted as is.
export const routes: BareRoute<IngestContext>[] = [
  {
    method: 'POST',
    path: PATH,
    async handle(pool, { context, body }) {
      const log = body as { ownedById: string; uniqueIdentifier: string };
      return { body: { data: await baselineLog(pool, context, log.ownedById, log.uniqueIdentifier) } };
    },
  },
];
