import { rowsFromJson } from '../db/json.js';
import type { EventCode } from '../events/codes.js';
import type { ChallengeRow } from '../schema/definitions.js';
import type { ChallengeProgressRow } from '../schema/progress.js';
import { crossed, nextMilestone } from './milestones.js';
import { type Period, periodBounds, periodKey } from './periods.js';
import { issueMilestoneRewards } from './rewards.js';
import { type ProgressEvent, type LogInput, notAggregated, type Outcome, type StateRead, type Tx } from './types.js';
import { type Versioned, versioned } from './writes.js';
import { decimalSum } from './decimals.js';

/**
 * The change that fails a window that ended uncompleted, at the window's end in the member's zone,
 * never before the run began: after a move east the window may have ended there before its first
 * log. The deadline then reads the same instant, not the later one set in the zone left.
 */
export function failedChallengePatch(
  progress: ChallengeProgressRow,
  zone: string,
  period: Period,
  now: Date,
): Partial<ChallengeProgressRow> {
  const windowEnd = periodBounds(progress.period_key, period, zone).end;
  const end = progress.challenge_started_at > windowEnd ? progress.challenge_started_at : windowEnd;
  return { challenge_progress_status: 'failed', challenge_failed_at: end, challenge_to_be_failed_at: end, updated_at: now };
}

/**
 * The member's windows on the challenge that matter to a new log: those still in progress
 * (earlier ones fail) and the latest (the log's own, or a later one that makes it late).
 */
export const CHALLENGE_STATE: StateRead = {
  sql: `(select coalesce(jsonb_agg(${versioned('c')} order by c.period_key), '[]'::jsonb)
           from challenge_progress c
          where c.account_id = ? and c.challenge_id = ? and c.owned_by_id = ?
            and (c.challenge_progress_status = 'in_progress'
                 or c.period_key = (select max(l.period_key) from challenge_progress l
                                     where l.account_id = c.account_id and l.challenge_id = c.challenge_id and l.owned_by_id = c.owned_by_id)))`,
  bindings: (accountId, definitionId, memberId) => [accountId, definitionId, memberId],
};

/** The member's window `key` when it is completed: the state read leaves earlier windows out, and only a late log asks. */
async function completedWindow(
  tx: Tx,
  where: { account_id: string; challenge_id: string; owned_by_id: string },
  key: string,
): Promise<Versioned<ChallengeProgressRow> | undefined> {
  const { rows } = await tx.trx.raw<{ rows: { found: unknown }[] }>(
    `select coalesce(jsonb_agg(${versioned('c')}), '[]'::jsonb) as found from challenge_progress c
      where c.account_id = ? and c.challenge_id = ? and c.owned_by_id = ? and c.period_key = ? and c.challenge_progress_status = 'completed'`,
    [where.account_id, where.challenge_id, where.owned_by_id, key],
  );
  return rowsFromJson<Versioned<ChallengeProgressRow>>(rows[0]?.found)[0];
}

/** Challenge semantics of CONTRACT §8: values accumulate per calendar window. */
export async function aggregateChallenge(tx: Tx, input: LogInput<ChallengeRow>): Promise<Outcome> {
  const { definition, memberId, activityAt, value, zone, milestones } = input;
  const startAt = definition.start_at;
  const endAt = definition.end_at;
  if ((startAt && activityAt < startAt) || (endAt && activityAt >= endAt)) return notAggregated('outside_window');
  const period = definition.aggregation_period;
  const window = periodKey(activityAt, period, zone);
  const where = { account_id: tx.account.id, challenge_id: definition.id, owned_by_id: memberId };

  const rows = rowsFromJson<Versioned<ChallengeProgressRow>>(input.state);
  const closed: ProgressEvent[] = [];
  for (const progress of rows.filter((r) => r.period_key < window && r.challenge_progress_status === 'in_progress')) {
    closed.push({
      code: 'challenge_progress_failed',
      progress: tx.writes.update('challenge_progress', progress, failedChallengePatch(progress, zone, period, tx.now)),
    });
  }
  let progress = rows.find((r) => r.period_key === window);
  if (rows.some((r) => r.period_key > window)) {
    // A later window is open: the log's own is closed, unless it was completed, which keeps counting (§8 Challenge).
    progress ??= await completedWindow(tx, where, window);
    if (progress?.challenge_progress_status !== 'completed') return notAggregated('period_closed', closed);
  }
  if (!progress) {
    [progress] = tx.writes.insert<ChallengeProgressRow>('challenge_progress', [
      {
        ...where,
        period_key: window,
        challenge_progress_status: 'in_progress',
        current_progress_value: 0,
        challenge_started_at: activityAt,
        challenge_to_be_failed_at: periodBounds(window, period, zone).end,
        is_warned: false,
      },
    ]);
  }
  if (progress!.challenge_progress_status === 'failed') return notAggregated('period_closed', closed);

  const before = progress!.current_progress_value;
  const after = decimalSum(before, value);
  const patch: Partial<ChallengeProgressRow> = { current_progress_value: after, updated_at: tx.now };
  // After completion, a window keeps counting but changes no status and emits nothing.
  const wasCompleted = progress!.challenge_progress_status === 'completed';
  const target = input.completedPeriods?.get(window) ?? definition.completion_target_value;
  const completes = !wasCompleted && after >= target;
  if (completes)
    Object.assign(patch, { challenge_progress_status: 'completed', challenge_completed_at: activityAt, completed_target_value: target });
  const updated = tx.writes.update('challenge_progress', progress!, patch);

  const { achieved, logs: milestoneRewardLogs } = await issueMilestoneRewards(tx, wasCompleted ? [] : crossed(milestones, before, after), {
    linkedSchemaSlug: 'challenge',
    linkedSchemaRecordId: definition.id,
    ownedById: memberId,
    periodKey: window,
    progressId: updated.id,
    holdDays: definition.reward_hold_days,
  });
  const codes: EventCode[] = [];
  if (!wasCompleted) {
    if (achieved.length) codes.push('challenge_progress_milestone_completed');
    if (completes) codes.push('challenge_progress_completed');
    if (!codes.length) codes.push('challenge_progress_in_progress');
  }
  return {
    aggregated: true,
    reason: null,
    progress: updated,
    taskProgress: [],
    progressTasks: [],
    achieved,
    nextMilestone: nextMilestone(milestones, after),
    milestoneRewardLogs,
    rewardLog: null,
    codes,
    before: closed,
    after: [],
  };
}
