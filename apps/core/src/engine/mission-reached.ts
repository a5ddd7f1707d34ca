import type { Knex } from 'knex';
import type { AccountInfo } from '../auth/authenticate.js';
import { IssueTally } from '../observability/metrics.js';
import type { RequestContext } from '../records/context.js';
import type { Records } from '../records/resource.js';
import type { MissionRow } from '../schema/definitions.js';
import type { MissionProgressRow, TaskProgressRow } from '../schema/progress.js';
import { announceIssued } from './announce.js';
import { tryLockAggregation } from './ingest.js';
import { crossed, liveMilestones } from './milestones.js';
import { issueMilestoneRewards, issueReward } from './rewards.js';
import type { ProgressEvent, Tx } from './types.js';
import { WriteSet } from './writes.js';

/**
 * A run whose window ended with every task of its mission, as the mission is now, reached, though
 * no log completed it: the mission was edited after the member's last log (a task they had not done
 * removed, a target lowered to what they had reached), and a run completes on a log (CONTRACT §8),
 * which did not come. The scheduler completes such a run instead of failing it, as of its window's
 * end, with what that log would have given: the tasks reached completed, the milestones crossed and
 * the mission's reward. (A recompute after a reversal replays the run's logs on the mission as it
 * is now, so there the log that reaches the last task completes it.)
 */

/**
 * SQL, beside a due `mission_progress` row joined to its `mission`: whether the run is reached as
 * above. `completeReachedRun` checks it again on the rows it locks.
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
  if (definition?.status !== 'live') return null;
  const tasks = await trx<TaskProgressRow>('task_progress').where({ account_id: account.id, linked_schema_record_id: progress.id });
  const rowOf = new Map(tasks.filter((r) => r.task_id !== null).map((r) => [r.task_id!, r]));
  const rows = definition.tasks.map((t) => rowOf.get(t.id));
  const reached = (r: TaskProgressRow | undefined, target: number) =>
    !!r && (r.task_progress_status === 'completed' || Number(r.current_progress_value) >= target);
  if (!definition.tasks.every((t, i) => reached(rows[i], t.targetValue))) return null;

  const before = rows.filter((r) => r!.task_progress_status === 'completed').length;
  const at = progress.mission_to_be_failed_at!;
  for (const [i, row] of rows.entries())
    if (row!.task_progress_status !== 'completed')
      await trx('task_progress')
        .where({ account_id: account.id, id: row!.id })
        .update({ task_progress_status: 'completed', completed_at: at, target_value: definition.tasks[i]!.targetValue, updated_at: now });
  const tx: Tx = { trx, ctx, records, account, now, writes: new WriteSet(account.id), locked: true, issued: new IssueTally() };
  const base = {
    linkedSchemaSlug: 'mission',
    linkedSchemaRecordId: missionId,
    ownedById: memberId,
    periodKey: null,
    progressId: progress.id,
    holdDays: definition.reward_hold_days,
  };
  const milestones = await liveMilestones(trx, account.id, missionId);
  const { achieved, logs } = await issueMilestoneRewards(tx, crossed(milestones, before, definition.tasks.length), base);
  const rewardLog = await issueReward(tx, { ...base, rewardId: definition.reward_id, milestoneId: null });
  // Points a points reward entered are in the set, with their events.
  await tx.writes.write(trx);
  const issued = [...logs, ...(rewardLog ? [rewardLog] : [])].filter((l) => l.reward_log_status === 'issued');
  await announceIssued(trx, records, ctx, account.id, issued);
  tx.issued.commit();

  const patch: Partial<MissionProgressRow> = { mission_progress_status: 'completed', mission_completed_at: at, updated_at: now };
  const completed = { ...progress, ...patch };
  return {
    patch,
    events: [
      ...(achieved.length ? [{ code: 'mission_progress_milestone_completed' as const, progress: completed }] : []),
      { code: 'mission_progress_completed', progress: completed },
    ],
  };
}
