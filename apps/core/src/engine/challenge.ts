import type { EventCode } from '../events/codes.js';
import { updateRow } from '../db/rows.js';
import type { Row } from '../records/resource.js';
import { crossed, nextMilestone } from './milestones.js';
import { type Period, periodBounds, periodKey } from './periods.js';
import { issueMilestoneRewards } from './rewards.js';
import { type ClosedProgress, type LogInput, notAggregated, type Outcome, type Tx } from './types.js';

/** Fails a window that ended uncompleted, at the window's end. */
export async function failChallenge(tx: Tx, progress: Row, zone: string, period: Period): Promise<Row> {
  const end = periodBounds(progress.period_key as string, period, zone).end;
  return updateRow(tx.trx, 'challenge_progress', progress, { challenge_progress_status: 'failed', challenge_failed_at: end, updated_at: tx.now });
}

/** Challenge semantics of CONTRACT §8: values accumulate per calendar window. */
export async function aggregateChallenge(tx: Tx, input: LogInput): Promise<Outcome> {
  const { definition, memberId, activityAt, value, zone, milestones } = input;
  const startAt = definition.start_at as Date | null;
  const endAt = definition.end_at as Date | null;
  if ((startAt && activityAt < startAt) || (endAt && activityAt >= endAt)) return notAggregated();
  const period = definition.aggregation_period as Period;
  const window = periodKey(activityAt, period, zone);
  const where = { account_id: tx.account.id, challenge_id: definition.id, owned_by_id: memberId };

  // One locked read: earlier windows still in progress (to fail), this window, and any later one.
  const rows = (await tx.trx('challenge_progress')
    .where(where)
    .where((q) => q.where('period_key', '>=', window).orWhere('challenge_progress_status', 'in_progress'))
    .orderBy('period_key')
    .forUpdate()) as Row[];
  const closed: ClosedProgress[] = [];
  for (const progress of rows.filter((r) => (r.period_key as string) < window)) {
    closed.push({ code: 'challenge_progress_failed', progress: await failChallenge(tx, progress, zone, period) });
  }
  if (rows.some((r) => (r.period_key as string) > window)) return notAggregated(closed);

  let progress = rows.find((r) => r.period_key === window);
  if (!progress) {
    [progress] = (await tx.trx('challenge_progress')
      .insert({
        ...where,
        period_key: window,
        challenge_started_at: activityAt,
        challenge_to_be_failed_at: periodBounds(window, period, zone).end,
      })
      .returning('*')) as Row[];
  }
  if (progress!.challenge_progress_status === 'failed') return notAggregated(closed);

  const before = progress!.current_progress_value as number;
  const after = before + value;
  const patch: Row = { current_progress_value: after, updated_at: tx.now };
  // After completion, a window keeps counting but changes no status and emits nothing.
  const wasCompleted = progress!.challenge_progress_status === 'completed';
  const target = definition.completion_target_value as number;
  const completes = !wasCompleted && after >= target;
  if (completes) Object.assign(patch, { challenge_progress_status: 'completed', challenge_completed_at: activityAt });
  const updated = await updateRow(tx.trx, 'challenge_progress', progress!, patch);

  const achieved = wasCompleted ? [] : crossed(milestones, before, after);
  const milestoneRewardLogs = await issueMilestoneRewards(tx, achieved, {
    linkedSchemaSlug: 'challenge',
    linkedSchemaRecordId: definition.id as string,
    ownedById: memberId,
    periodKey: window,
  });
  const codes: EventCode[] = [];
  if (!wasCompleted) {
    if (achieved.length) codes.push('challenge_progress_milestone_completed');
    if (completes) codes.push('challenge_progress_completed');
    if (!codes.length) codes.push('challenge_progress_in_progress');
  }
  return {
    aggregated: true,
    progress: updated!,
    taskProgress: [],
    achieved,
    nextMilestone: nextMilestone(milestones, after),
    milestoneRewardLogs,
    rewardLog: null,
    codes,
    closed,
  };
}
