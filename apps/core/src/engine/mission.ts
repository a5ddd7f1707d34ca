import type { EventCode } from '../events/codes.js';
import { updateRow } from '../db/rows.js';
import { rowFromJson, rowsFromJson } from '../db/json.js';
import type { Row } from '../records/resource.js';
import type { StoredTask } from '../resources/definitions.js';
import { crossed, nextMilestone } from './milestones.js';
import { type Period, windowEnd } from './periods.js';
import { issueMilestoneRewards, issueReward } from './rewards.js';
import { type ClosedProgress, type LogInput, notAggregated, type Outcome, type Tx } from './types.js';

/** A mission log also names its activity: it counts toward the task with that activityId. */
export interface MissionInput extends LogInput {
  activityId: string;
}

export function failMission(tx: Tx, progress: Row): Promise<Row> {
  return updateRow(tx.trx, 'mission_progress', progress, {
    mission_progress_status: 'failed',
    mission_failed_at: progress.mission_to_be_failed_at,
    is_mission_to_be_failed_processed: true,
    updated_at: tx.now,
  });
}

/** Mission semantics of CONTRACT §8: tasks by activityId within a window from the member's start. */
export async function aggregateMission(tx: Tx, input: MissionInput): Promise<Outcome> {
  const { definition, memberId, activityAt, activityId, value, zone, milestones } = input;
  const tasks = definition.tasks as StoredTask[];
  const task = tasks.find((t) => t.activityId === activityId);
  if (!task) return notAggregated();
  const where = { account_id: tx.account.id, mission_id: definition.id, owned_by_id: memberId };
  const closed: ClosedProgress[] = [];

  // The in-progress run, locked, with its task rows in the same round trip.
  const found = await tx.trx.raw(
    `select row_to_json(mp) as progress,
            (select json_agg(t order by t.created_at) from task_progress t
              where t.account_id = mp.account_id and t.linked_schema_record_id = mp.id) as task_rows
       from mission_progress mp
      where mp.account_id = ? and mp.unique_identifier = ? and mp.mission_progress_status = 'in_progress'
      for update of mp`,
    // The unique identifier names the one in-progress run: its partial unique index finds it.
    [tx.account.id, `${definition.id as string}:${memberId}`],
  );
  let progress = rowFromJson(found.rows[0]?.progress);
  let taskRows = rowsFromJson(found.rows[0]?.task_rows);
  if (progress && activityAt >= (progress.mission_to_be_failed_at as Date)) {
    closed.push({ code: 'mission_progress_failed', progress: await failMission(tx, progress) });
    progress = undefined;
  }
  if (progress && activityAt < (progress.mission_started_at as Date)) return notAggregated();
  if (!progress) {
    const completedOnce = await tx.trx('mission_progress').where({ ...where, mission_progress_status: 'completed' }).first('id');
    if (completedOnce && !definition.is_repeatable) return notAggregated(closed);
    const latest = (await tx.trx('mission_progress').where(where).whereNot('mission_progress_status', 'in_progress').orderBy('created_at', 'desc').first()) as Row | undefined;
    const latestEnd = (latest?.mission_failed_at ?? latest?.mission_completed_at) as Date | undefined;
    if (latestEnd && activityAt < latestEnd) return notAggregated(closed);
    [progress] = (await tx.trx('mission_progress')
      .insert({
        ...where,
        unique_identifier: `${definition.id as string}:${memberId}`,
        mission_started_at: activityAt,
        mission_to_be_failed_at: windowEnd(activityAt, definition.aggregation_period as Period, zone),
      })
      .returning('*')) as Row[];
    taskRows = (await tx.trx('task_progress').insert(
      tasks.map((t) => ({
        account_id: tx.account.id,
        owned_by_id: memberId,
        linked_schema_slug: 'mission_progress',
        linked_schema_record_id: progress!.id,
        task_id: t.id,
        target_value: t.targetValue,
        // Rows keep the mission's task order when read back by createdAt.
        created_at: tx.trx.raw('clock_timestamp()'),
      })),
    ).returning('*')) as Row[];
  }

  const before = taskRows.filter((r) => r.task_progress_status === 'completed').length;
  const row = taskRows.find((r) => r.task_id === task.id)!;
  const reached = (row.current_progress_value as number) + value;
  const justCompleted = row.task_progress_status !== 'completed' && reached >= (row.target_value as number);
  const fields: Row = { current_progress_value: reached, updated_at: tx.now };
  if (justCompleted) Object.assign(fields, { task_progress_status: 'completed', completed_at: tx.now });
  const touched = await updateRow(tx.trx, 'task_progress', row, fields);
  const after = before + (justCompleted ? 1 : 0);

  const completes = after === tasks.length && before < tasks.length;
  const updated = completes
    ? await updateRow(tx.trx, 'mission_progress', progress!, { mission_progress_status: 'completed', mission_completed_at: activityAt, updated_at: tx.now })
    : progress;

  const achieved = crossed(milestones, before, after);
  const base = { linkedSchemaSlug: 'mission', linkedSchemaRecordId: definition.id as string, ownedById: memberId, periodKey: null };
  const milestoneRewardLogs = await issueMilestoneRewards(tx, achieved, base);
  const rewardLog = completes ? await issueReward(tx, { ...base, rewardId: definition.reward_id as string | null, milestoneId: null }) : null;
  const codes: EventCode[] = [];
  if (achieved.length) codes.push('mission_progress_milestone_completed');
  if (completes) codes.push('mission_progress_completed');
  if (!codes.length) codes.push('mission_progress_in_progress');
  return {
    aggregated: true,
    progress: updated!,
    taskProgress: [touched!],
    achieved,
    nextMilestone: nextMilestone(milestones, after),
    milestoneRewardLogs,
    rewardLog,
    codes,
    closed,
  };
}
