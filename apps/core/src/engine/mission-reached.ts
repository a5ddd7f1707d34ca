import type { Knex } from 'knex';
import type { AccountInfo } from '../auth/authenticate.js';
import { IssueTally } from '../observability/metrics.js';
import type { RequestContext } from '../records/context.js';
import type { Records } from '../records/resource.js';
import type { MissionRow } from '../schema/definitions.js';
import type { MissionProgressRow, TaskProgressRow } from '../schema/progress.js';
import { announceIssued } from './announce.js';
import { tryLockAggregation } from './ingest.js';
import { liveMilestones } from './milestones.js';
import { completeReached, reachedTasks } from './mission.js';
import type { ProgressEvent, Tx } from './types.js';
import { WriteSet } from './writes.js';

/**
 * SQL, beside a due `mission_progress` row joined to its `mission`: whether the run is reached
 * (engine/mission.ts, `reachedTasks`). `completeReachedRun` checks it again on the rows it locks.
 */
export const REACHED_SQL = `mission.status = 'live' and not exists (
  select 1 from jsonb_array_elements(mission.tasks) task
   where not exists (select 1 from task_progress t
                      where t.account_id = mission_progress.account_id and t.linked_schema_record_id = mission_progress.id
                        and t.task_id = (task->>'id')::uuid
                        and (t.task_progress_status = 'completed' or t.current_progress_value >= (task->>'targetValue')::numeric)))`;

/**
 * Completes a due run the scheduler holds locked, when it is reached: the tasks reached completed,
 * the milestones crossed and the mission's reward issued, as of its window's end. Its events are
 * the scheduler's (§9), and its reward logs are announced as those issued outside a log are
 * (`reward_log_issued`). Null when the run is not reached, or when a log or the member's erasure
 * holds its locks: the run is then failed as any other.
 */
export async function completeReachedRun(
  records: Records,
  trx: Knex.Transaction,
  ctx: RequestContext,
  account: AccountInfo,
  progress: MissionProgressRow,
  now: Date,
): Promise<{ patch: Partial<MissionProgressRow>; events: ProgressEvent[] } | null> {
  const { mission_id: missionId, owned_by_id: memberId } = progress;
  if (!(await tryLockAggregation(trx, 'mission', missionId, memberId))) return null;
  const definition = await trx<MissionRow>('mission').where({ account_id: account.id, id: missionId }).first();
  if (!definition) return null;
  const tasks = await trx<TaskProgressRow>('task_progress').where({ account_id: account.id, linked_schema_record_id: progress.id });
  const reached = reachedTasks(definition, tasks);
  if (!reached) return null;
  const tx: Tx = { trx, ctx, records, account, now, writes: new WriteSet(account.id), locked: true, issued: new IssueTally() };
  const done = await completeReached(tx, definition, progress, reached, await liveMilestones(trx, account.id, missionId), (row, patch) =>
    trx('task_progress').where({ account_id: account.id, id: row.id }).update(patch),
  );
  // Points a points reward entered are in the set, with their events.
  await tx.writes.write(trx);
  await announceIssued(trx, records, ctx, account.id, done.issued);
  tx.issued.commit();
  return done;
}
