import type { EventCode } from '../events/codes.js';
import { rowFromJson, rowsFromJson } from '../db/json.js';
import type { MilestoneRow, MissionRow, StoredTask } from '../schema/definitions.js';
import type { MissionProgressRow, TaskProgressRow } from '../schema/progress.js';
import type { RewardLogRow } from '../schema/rewards.js';
import { crossed, nextMilestone } from './milestones.js';
import { windowEnd } from './periods.js';
import { announceIssued } from './announce.js';
import { isTransaction } from './points.js';
import { issueMilestoneRewards, issueReward } from './rewards.js';
import { type ProgressEvent, type LogInput, notAggregated, type Outcome, runIdentifier, type StateRead, type Tx } from './types.js';
import { type Versioned, versioned } from './writes.js';
import { decimalSum } from './decimals.js';

/** A mission log also names its activity: it counts toward the task with that activityId. */
export interface MissionInput extends LogInput<MissionRow> {
  activityId: string;
}

/** The change that fails a mission whose window ended, at the window's end. */
export function failedMissionPatch(progress: MissionProgressRow, now: Date): Partial<MissionProgressRow> {
  return {
    mission_progress_status: 'failed',
    mission_failed_at: progress.mission_to_be_failed_at,
    is_mission_to_be_failed_processed: true,
    updated_at: now,
  };
}

/** A run a reversal emptied (CONTRACT §17): in progress with every task at 0, until its window ends or a later log starts a run. */
export function isEmptiedMission(tasks: readonly TaskProgressRow[]): boolean {
  return tasks.every((t) => Number(t.current_progress_value) === 0);
}

/**
 * The change that closes a run none of whose logs survives: failed as of its start, so that it
 * closes nothing to later logs (a replay never had it). It is not news to the member, so no event
 * goes with it.
 */
export function emptiedMissionClosed(progress: MissionProgressRow, now: Date): Partial<MissionProgressRow> {
  return {
    mission_progress_status: 'failed',
    mission_failed_at: progress.mission_started_at,
    mission_completed_at: null,
    is_mission_to_be_failed_processed: true,
    updated_at: now,
  };
}

/**
 * The member's in-progress run on the mission with its tasks in the mission's order, whether a
 * run was ever completed, and the latest closed run with logs (one a reversal emptied failed as
 * of its start and closes nothing to later logs, CONTRACT §17).
 */
export const MISSION_STATE: StateRead = {
  sql: `jsonb_build_object(
          'run', (select jsonb_build_object('progress', ${versioned('mp')}, 'tasks',
                     (select coalesce(jsonb_agg(${versioned('t')} order by t.created_at), '[]'::jsonb) from task_progress t
                       where t.account_id = mp.account_id and t.linked_schema_record_id = mp.id))
                    from mission_progress mp
                   where mp.account_id = ? and mp.unique_identifier = ? and mp.mission_progress_status = 'in_progress'),
          'completedOnce', exists(select 1 from mission_progress c
                                   where c.account_id = ? and c.owned_by_id = ? and c.mission_id = ? and c.mission_progress_status = 'completed'),
          'latest', (select to_jsonb(l) from mission_progress l
                      where l.account_id = ? and l.owned_by_id = ? and l.mission_id = ? and l.mission_progress_status <> 'in_progress'
                        and (l.mission_failed_at is null or l.mission_failed_at > l.mission_started_at)
                      order by l.mission_started_at desc, l.created_at desc limit 1))`,
  bindings: (accountId, definitionId, memberId) => [
    accountId,
    runIdentifier(definitionId, memberId),
    accountId,
    memberId,
    definitionId,
    accountId,
    memberId,
    definitionId,
  ],
};

/** A run's task progress rows for `tasks`, at 0, a millisecond apart so they read back by createdAt in the mission's order. */
function newTaskRows(tx: Tx, tasks: readonly StoredTask[], progressId: string, memberId: string): Versioned<TaskProgressRow>[] {
  return tx.writes.insert<TaskProgressRow>(
    'task_progress',
    tasks.map((t, i) => ({
      owned_by_id: memberId,
      linked_schema_slug: 'mission_progress',
      linked_schema_record_id: progressId,
      task_id: t.id,
      target_value: t.targetValue,
      current_progress_value: 0,
      task_progress_status: 'in_progress',
      created_at: new Date(tx.writes.createdAt.getTime() + i),
    })),
  );
}

/**
 * A run whose window ended with every task of its mission, as the mission is now, reached, though
 * no log completed it: the mission was edited after the member's last log in it (a task they had
 * not done removed, a target lowered to what they had reached), and a run completes on a log
 * (CONTRACT §8). Such a run is completed, not failed, as of its window's end, with what that log
 * would have given: the tasks reached completed, the milestones crossed and the mission's reward.
 * The next log after the window does so (below), or else the scheduler (engine/mission-reached.ts).
 * The rows to complete and the count of tasks completed before; null unless every task is reached.
 */
export function reachedTasks(
  definition: MissionRow,
  tasks: readonly TaskProgressRow[],
): { before: number; toComplete: { row: TaskProgressRow; target: number }[] } | null {
  if (definition.status !== 'live') return null;
  const rowOf = new Map(tasks.filter((r) => r.task_id !== null).map((r) => [r.task_id!, r]));
  let before = 0;
  const toComplete: { row: TaskProgressRow; target: number }[] = [];
  for (const task of definition.tasks) {
    const row = rowOf.get(task.id);
    if (row?.task_progress_status === 'completed') before += 1;
    else if (row && Number(row.current_progress_value) >= task.targetValue) toComplete.push({ row, target: task.targetValue });
    else return null;
  }
  return { before, toComplete };
}

/**
 * Completes a reached run (`reachedTasks`) as of its window's end: each task to complete through
 * `completeTask`, then the milestones crossed and the mission's reward issued through `tx`. The run's
 * change and its events, for the caller to write, and the reward logs issued, which no log carries,
 * for it to announce (`reward_log_issued`).
 */
export async function completeReached(
  tx: Tx,
  definition: MissionRow,
  progress: MissionProgressRow,
  { before, toComplete }: NonNullable<ReturnType<typeof reachedTasks>>,
  milestones: MilestoneRow[],
  completeTask: (row: TaskProgressRow, patch: Partial<TaskProgressRow>) => unknown,
): Promise<{ patch: Partial<MissionProgressRow>; events: ProgressEvent<MissionProgressRow>[]; issued: RewardLogRow[] }> {
  const at = progress.mission_to_be_failed_at!;
  for (const { row, target } of toComplete)
    await completeTask(row, { task_progress_status: 'completed', completed_at: at, target_value: target, updated_at: tx.now });
  const base = rewardBase(definition, progress.owned_by_id, progress.id);
  const { achieved, logs } = await issueMilestoneRewards(tx, crossed(milestones, before, definition.tasks.length), base);
  const rewardLog = await issueReward(tx, { ...base, rewardId: definition.reward_id, milestoneId: null });
  const patch: Partial<MissionProgressRow> = { mission_progress_status: 'completed', mission_completed_at: at, updated_at: tx.now };
  const codes: EventCode[] = [
    ...(achieved.length ? (['mission_progress_milestone_completed'] as const) : []),
    'mission_progress_completed',
  ];
  return {
    patch,
    events: codes.map((code) => ({ code, progress: { ...progress, ...patch }, rewardLogs: { milestones: logs, reward: rewardLog } })),
    issued: [...logs, ...(rewardLog ? [rewardLog] : [])].filter((l) => l.reward_log_status === 'issued'),
  };
}

/** What a mission run's reward logs name: the mission, its member and the run. */
const rewardBase = (definition: MissionRow, memberId: string, progressId: string) => ({
  linkedSchemaSlug: 'mission',
  linkedSchemaRecordId: definition.id,
  ownedById: memberId,
  periodKey: null,
  progressId,
  holdDays: definition.reward_hold_days,
});

/** Mission semantics of CONTRACT §8: tasks by activityId within a window from the member's start. */
export async function aggregateMission(tx: Tx, input: MissionInput): Promise<Outcome> {
  const { definition, memberId, activityAt, activityId, value, zone, milestones } = input;
  const tasks = definition.tasks;
  const task = tasks.find((t) => t.activityId === activityId);
  if (!task) return notAggregated('no_matching_task');
  const where = { account_id: tx.account.id, mission_id: definition.id, owned_by_id: memberId };
  const closed: ProgressEvent<MissionProgressRow>[] = [];

  const state = input.state as { run: { progress: unknown; tasks: unknown } | null; completedOnce: boolean; latest: unknown };
  let progress = rowFromJson<Versioned<MissionProgressRow>>(state.run?.progress);
  let taskRows = rowsFromJson<Versioned<TaskProgressRow>>(state.run?.tasks);
  if (progress && isEmptiedMission(taskRows)) {
    tx.writes.update('mission_progress', progress, emptiedMissionClosed(progress, tx.now));
    progress = undefined;
  }
  let completedNow = false;
  if (progress && activityAt >= progress.mission_to_be_failed_at!) {
    // Before the scheduler came to it, a run an edit left with every task reached: completed as it would have.
    const reached = reachedTasks(definition, taskRows);
    if (reached) {
      const done = await completeReached(tx, definition, progress, reached, milestones, (row, patch) =>
        tx.writes.update('task_progress', row as Versioned<TaskProgressRow>, patch),
      );
      tx.writes.update('mission_progress', progress, done.patch);
      closed.push(...done.events);
      // Issued only under the lock (a reward needs it), so in the attempt's transaction; a replay issues none.
      if (done.issued.length && isTransaction(tx.trx)) await announceIssued(tx.trx, tx.records, tx.ctx, tx.account.id, done.issued);
      completedNow = true;
    } else
      closed.push({
        code: 'mission_progress_failed',
        progress: tx.writes.update('mission_progress', progress, failedMissionPatch(progress, tx.now)),
      });
    progress = undefined;
  }
  if (progress && activityAt < progress.mission_started_at) return notAggregated('period_closed');
  if (!progress) {
    if ((state.completedOnce || completedNow) && !definition.is_repeatable) return notAggregated('mission_completed', closed);
    const latest = closed[0]?.progress ?? rowFromJson<MissionProgressRow>(state.latest);
    const latestEnd = latest?.mission_failed_at ?? latest?.mission_completed_at;
    if (latestEnd && activityAt < latestEnd) return notAggregated('period_closed', closed);
    [progress] = tx.writes.insert<MissionProgressRow>('mission_progress', [
      {
        ...where,
        unique_identifier: runIdentifier(definition.id, memberId),
        mission_progress_status: 'in_progress',
        is_mission_to_be_failed_processed: false,
        mission_started_at: activityAt,
        mission_to_be_failed_at: windowEnd(activityAt, definition.aggregation_period, zone),
      },
    ]);
    taskRows = newTaskRows(tx, tasks, progress!.id, memberId);
  }

  // A run started before its mission's tasks were edited: a task added since starts here, at 0, a
  // task removed since no longer counts and a target changed counts as it is now, so the run
  // completes on the mission's tasks as they are.
  const missing = tasks.filter((t) => !taskRows.some((r) => r.task_id === t.id));
  if (missing.length) taskRows = [...taskRows, ...newTaskRows(tx, missing, progress!.id, memberId)];
  const current = new Map(tasks.map((t) => [t.id, t]));
  const completedTasks = () =>
    taskRows.filter((r) => r.task_id !== null && current.has(r.task_id) && r.task_progress_status === 'completed').length;
  const before = completedTasks();
  // Another task whose target changed since its last log takes the target now, and one lowered to
  // what it already reached completes with this log, as the logged task would.
  taskRows = taskRows.map((r) => {
    const target = r.task_id && r.task_id !== task.id ? current.get(r.task_id)?.targetValue : undefined;
    if (target === undefined || r.target_value === target) return r;
    const reachedNow = r.task_progress_status !== 'completed' && r.current_progress_value >= target;
    return tx.writes.update('task_progress', r, {
      target_value: target,
      updated_at: tx.now,
      ...(reachedNow ? { task_progress_status: 'completed' as const, completed_at: activityAt } : {}),
    });
  });
  const row = taskRows.find((r) => r.task_id === task.id)!;
  const reached = decimalSum(row.current_progress_value, value);
  // The task's target as the mission has it now: one changed since the run started counts from the next log.
  const justCompleted = row.task_progress_status !== 'completed' && reached >= task.targetValue;
  const fields: Partial<TaskProgressRow> = { current_progress_value: reached, target_value: task.targetValue, updated_at: tx.now };
  // As the run's own completion: at the log's time, never the wall clock's.
  if (justCompleted) Object.assign(fields, { task_progress_status: 'completed', completed_at: activityAt });
  const touched = tx.writes.update('task_progress', row, fields);
  taskRows = taskRows.map((r) => (r.id === touched.id ? touched : r));
  const after = completedTasks();

  // The run is in progress here: every task of the mission completed (a task removed may leave that already so) completes it.
  const completes = after === tasks.length;
  // The progress row changes with every log, so its version guards the whole set of tasks.
  const updated = tx.writes.update<MissionProgressRow>(
    'mission_progress',
    progress!,
    completes ? { mission_progress_status: 'completed', mission_completed_at: activityAt, updated_at: tx.now } : { updated_at: tx.now },
  );

  const base = rewardBase(definition, memberId, updated.id);
  const { achieved, logs: milestoneRewardLogs } = await issueMilestoneRewards(tx, crossed(milestones, before, after), base);
  const rewardLog = completes ? await issueReward(tx, { ...base, rewardId: definition.reward_id, milestoneId: null }) : null;
  const codes: EventCode[] = [];
  if (achieved.length) codes.push('mission_progress_milestone_completed');
  if (completes) codes.push('mission_progress_completed');
  if (!codes.length) codes.push('mission_progress_in_progress');
  return {
    aggregated: true,
    reason: null,
    progress: updated,
    taskProgress: [touched],
    progressTasks: taskRows,
    achieved,
    nextMilestone: nextMilestone(milestones, after),
    milestoneRewardLogs,
    rewardLog,
    codes,
    before: closed,
    after: [],
  };
}
