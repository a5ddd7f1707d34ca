import { rowFromJson } from '../db/json.js';
import type { StreakRow } from '../schema/definitions.js';
import type { StreakProgressRow, TaskProgressRow } from '../schema/progress.js';
import type { EventCode } from '../events/codes.js';
import { crossed, nextMilestone } from './milestones.js';
import { nextPeriodKey, type Period, periodBounds, periodKey } from './periods.js';
import { issueMilestoneRewards } from './rewards.js';
import { type ClosedProgress, type LogInput, notAggregated, type Outcome, runIdentifier, type StateRead, type Tx } from './types.js';
import { type Versioned, versioned } from './writes.js';

/** The period a progress must complete next: after its last completed one, else its first. */
export function requiredPeriod(progress: StreakProgressRow, period: Period, zone: string): string {
  const last = progress.last_completed_period_key;
  return last ? nextPeriodKey(last, period, zone) : periodKey(progress.streak_started_at, period, zone);
}

/** The change that breaks a progress whose required period ended uncompleted, at that period's end. */
export function brokenPatch(progress: StreakProgressRow, period: Period, zone: string, now: Date): Partial<StreakProgressRow> {
  const end = periodBounds(requiredPeriod(progress, period, zone), period, zone).end;
  return { streak_progress_status: 'broken', streak_broken_at: end, updated_at: now };
}

/**
 * The member's in-progress run on the streak with the task of its latest period or, when there
 * is none, the latest closed run (a log in a period it covered does not count).
 */
export const STREAK_STATE: StateRead = {
  sql: `coalesce(
          (select jsonb_build_object('progress', ${versioned('sp')}, 'task',
              (select ${versioned('t')} from task_progress t
                where t.account_id = sp.account_id and t.linked_schema_record_id = sp.id and t.period_key = sp.current_period_key))
             from streak_progress sp
            where sp.account_id = ? and sp.unique_identifier = ? and sp.streak_progress_status = 'in_progress'),
          (select jsonb_build_object('latest', to_jsonb(l))
             from streak_progress l
            where l.account_id = ? and l.owned_by_id = ? and l.streak_id = ? and l.streak_progress_status <> 'in_progress'
            order by l.created_at desc limit 1))`,
  bindings: (accountId, definitionId, memberId) => [accountId, runIdentifier(definitionId, memberId), accountId, memberId, definitionId],
};

/** Streak semantics of CONTRACT §8: consecutive completed periods, broken by a missed one. */
export async function aggregateStreak(tx: Tx, input: LogInput<StreakRow>): Promise<Outcome> {
  const { definition, memberId, activityAt, value, zone, milestones } = input;
  const period = definition.aggregation_period;
  const logPeriod = periodKey(activityAt, period, zone);
  const where = { account_id: tx.account.id, streak_id: definition.id, owned_by_id: memberId };
  const closed: ClosedProgress<StreakProgressRow>[] = [];

  const state = input.state as { progress?: unknown; task?: unknown; latest?: unknown } | null;
  let progress = rowFromJson<Versioned<StreakProgressRow>>(state?.progress);
  // The run's latest task: the log's period is that one, a later one (new) or an earlier one (late).
  let periodTask = rowFromJson<Versioned<TaskProgressRow>>(state?.task);
  if (periodTask?.period_key !== logPeriod) periodTask = undefined;
  if (progress) {
    if (logPeriod > requiredPeriod(progress, period, zone)) {
      closed.push({ code: 'streak_progress_broken', progress: tx.writes.update('streak_progress', progress, brokenPatch(progress, period, zone, tx.now)) });
      progress = undefined;
    } else if (progress.current_period_key !== null && logPeriod < progress.current_period_key) {
      return notAggregated();
    }
  }
  if (!progress) {
    periodTask = undefined;
    const latest = closed[0]?.progress ?? rowFromJson<StreakProgressRow>(state?.latest);
    if (latest && logPeriod <= closedUpTo(latest, period, zone)) return notAggregated(closed);
    [progress] = tx.writes.insert<StreakProgressRow>('streak_progress', [
      {
        ...where,
        unique_identifier: runIdentifier(definition.id, memberId),
        streak_progress_status: 'in_progress',
        current_progress_value: 0,
        streak_started_at: activityAt,
        streak_to_be_broken_at: periodBounds(logPeriod, period, zone).end,
        current_period_key: logPeriod,
      },
    ]);
  }

  const task = addToPeriod(tx, progress!, periodTask, logPeriod, value, definition.aggregation_target_value);
  const periodCompleted = task.justCompleted;
  const before = progress!.current_progress_value;
  const after = periodCompleted ? before + 1 : before;
  const target = definition.completion_target_value;
  const completed = target !== null && after >= target && before < target;
  const current = progress!.current_period_key;
  const patch: Partial<StreakProgressRow> = {
    current_progress_value: after,
    current_period_key: current !== null && logPeriod > current ? logPeriod : current,
    updated_at: tx.now,
  };
  if (periodCompleted) {
    patch.last_completed_period_key = logPeriod;
    patch.streak_to_be_broken_at = periodBounds(nextPeriodKey(logPeriod, period, zone), period, zone).end;
  }
  if (completed) Object.assign(patch, { streak_progress_status: 'completed', streak_completed_at: activityAt });
  const updated = tx.writes.update('streak_progress', progress!, patch);

  const achieved = crossed(milestones, before, after);
  const milestoneRewardLogs = await issueMilestoneRewards(tx, achieved, {
    linkedSchemaSlug: 'streak',
    linkedSchemaRecordId: definition.id,
    ownedById: memberId,
    periodKey: logPeriod,
  });
  const codes: EventCode[] = [];
  if (achieved.length) codes.push('streak_progress_milestone_completed');
  if (completed) codes.push('streak_progress_completed');
  if (!codes.length) codes.push(periodCompleted ? 'streak_progress_non_milestone_completed' : 'streak_progress_in_progress');
  return {
    aggregated: true,
    progress: updated,
    taskProgress: [task.row],
    progressTasks: [],
    achieved,
    nextMilestone: nextMilestone(milestones, after),
    milestoneRewardLogs,
    rewardLog: null,
    codes,
    closed,
  };
}

/** The last period a closed progress covers: its last completed one, or the one it broke in. */
function closedUpTo(progress: StreakProgressRow, period: Period, zone: string): string {
  if (progress.streak_progress_status === 'completed') return progress.last_completed_period_key!;
  return periodKey(new Date(progress.streak_broken_at!.getTime() - 1), period, zone);
}

/**
 * Adds the log's value to its period's task progress, creating it on the period's first log. The
 * task changes only with its progress row, whose version the write checks, so the read is safe.
 */
function addToPeriod(
  tx: Tx,
  progress: StreakProgressRow,
  existing: Versioned<TaskProgressRow> | undefined,
  key: string,
  value: number,
  target: number,
): { row: TaskProgressRow; justCompleted: boolean } {
  const before = existing?.current_progress_value ?? 0;
  const after = before + value;
  const justCompleted = before < target && after >= target;
  const fields: Partial<TaskProgressRow> = { current_progress_value: after, updated_at: tx.now };
  if (justCompleted) Object.assign(fields, { task_progress_status: 'completed', completed_at: tx.now });
  const row = existing
    ? tx.writes.update('task_progress', existing, fields)
    : tx.writes.insert<TaskProgressRow>('task_progress', [
        {
          owned_by_id: progress.owned_by_id,
          linked_schema_slug: 'streak_progress',
          linked_schema_record_id: progress.id,
          period_key: key,
          target_value: target,
          task_progress_status: 'in_progress',
          ...fields,
        },
      ])[0]!;
  return { row, justCompleted };
}
