import type { Knex } from 'knex';
import { rowFromJson, rowsFromJson } from '../db/json.js';
import { updateRow } from '../db/rows.js';
import { conflict, duplicateUniqueIdentifier } from '../errors.js';
import type { StreakRow } from '../schema/definitions.js';
import type { StreakProgressRow, TaskProgressRow } from '../schema/progress.js';
import type { EventCode } from '../events/codes.js';
import type { LanguageCode } from '../formats.js';
import type { RequestContext } from '../records/context.js';
import type { Records } from '../records/resource.js';
import { memberLock } from './members.js';
import { crossed, nextMilestone } from './milestones.js';
import { nextPeriodKey, type Period, periodBounds, periodKey } from './periods.js';
import { issueMilestoneRewards } from './rewards.js';
import { writeSettled } from './settle.js';
import { type LogInput, notAggregated, type Outcome, type ProgressEvent, runIdentifier, type StateRead, type Tx } from './types.js';
import { type Versioned, versioned } from './writes.js';
import { decimalSum } from './decimals.js';

/** The latest period a progress has settled: its last completed or frozen one (keys of one kind sort as strings). */
function lastSettled(progress: StreakProgressRow): string | null {
  const completed = progress.last_completed_period_key;
  const frozen = progress.frozen_period_keys.at(-1) ?? null;
  return frozen !== null && (completed === null || frozen > completed) ? frozen : completed;
}

/** The period a progress must complete next: after its last completed or frozen one, else its first. */
export function requiredPeriod(progress: StreakProgressRow, period: Period, zone: string): string {
  const last = lastSettled(progress);
  return last ? nextPeriodKey(last, period, zone) : periodKey(progress.streak_started_at, period, zone);
}

/** A change to a progress and its events in order, each event with the progress as its step left it. */
export interface Settled {
  patch: Partial<StreakProgressRow>;
  events: ProgressEvent<StreakProgressRow>[];
}

/**
 * Settles the required periods of an in-progress progress that ended uncompleted (`missed`), oldest
 * first (CONTRACT §8, §14): each is frozen while freezes last, the following period becoming the
 * required one, and the first left uncovered breaks the progress at its end. Freezes above
 * `maxFreezes` (a write racing the update that lowered it) are never spent. Null when the
 * required period is not missed. Logs and sweeps both decide here, so they decide alike.
 */
export function settleMissed(
  progress: StreakProgressRow,
  definition: Pick<StreakRow, 'aggregation_period' | 'max_freezes'>,
  zone: string,
  now: Date,
  missed: (key: string, end: Date) => boolean,
): Settled | null {
  const period = definition.aggregation_period;
  let key = requiredPeriod(progress, period, zone);
  let end = periodBounds(key, period, zone).end;
  if (!missed(key, end)) return null;
  const patch: Partial<StreakProgressRow> = {};
  const events: ProgressEvent<StreakProgressRow>[] = [];
  let row = progress;
  const step = (change: Partial<StreakProgressRow>) => {
    Object.assign(patch, change, { updated_at: now });
    row = { ...row, ...patch };
  };
  let available = Math.min(progress.freezes_available, definition.max_freezes);
  do {
    if (available === 0) {
      // The deadline reads the break's own end: after a move east it was set later, in the zone left.
      step({ streak_progress_status: 'broken', streak_broken_at: end, streak_to_be_broken_at: end });
      events.push({ code: 'streak_progress_broken', progress: row });
      break;
    }
    const frozen = key;
    available -= 1;
    key = nextPeriodKey(key, period, zone);
    end = periodBounds(key, period, zone).end;
    step({
      freezes_available: available,
      freezes_used: row.freezes_used + 1,
      frozen_period_keys: [...row.frozen_period_keys, frozen],
      streak_to_be_broken_at: end,
    });
    events.push({ code: 'streak_progress_freeze_used', progress: row, extra: { frozenPeriodKey: frozen } });
  } while (missed(key, end));
  return { patch, events };
}

/**
 * A run a reversal emptied (CONTRACT §17) stays in progress at 0, with no period of its own, while
 * its first period is open; it has no latest period with a log.
 */
export function isEmptiedRun(progress: StreakProgressRow): boolean {
  return progress.streak_progress_status === 'in_progress' && progress.current_period_key === null;
}

/**
 * The change that closes a run none of whose logs survives: broken as of its first period's start,
 * before it began, so that it closes nothing to later logs (a replay never had it). It is not
 * news to the member, so no event goes with it.
 */
export function emptiedRunClosed(progress: StreakProgressRow, period: Period, zone: string, now: Date): Partial<StreakProgressRow> {
  return {
    streak_progress_status: 'broken',
    streak_broken_at: periodBounds(periodKey(progress.streak_started_at, period, zone), period, zone).start,
    streak_completed_at: null,
    last_completed_period_key: null,
    updated_at: now,
  };
}

/**
 * What the scheduler settles once the grace after an in-progress progress's deadline has passed:
 * its due period, then each later one over by the grace (freezes while they last, then the
 * break). Null when nothing is due at `now`. The sweep, a recompute and a grant all settle here.
 * A deadline set in a time zone the member has left, whose due period is not over in their zone
 * now, only moves to that period's end there.
 */
export function settleOverdue(
  progress: StreakProgressRow,
  definition: Pick<StreakRow, 'aggregation_period' | 'max_freezes'>,
  zone: string,
  now: Date,
  graceSeconds: number,
): Settled | null {
  const cutoff = now.getTime() - graceSeconds * 1000;
  const deadline = progress.streak_to_be_broken_at;
  if (progress.streak_progress_status !== 'in_progress' || !deadline || deadline.getTime() > cutoff) return null;
  if (isEmptiedRun(progress)) return { patch: emptiedRunClosed(progress, definition.aggregation_period, zone, now), events: [] };
  const due = requiredPeriod(progress, definition.aggregation_period, zone);
  const dueEnd = periodBounds(due, definition.aggregation_period, zone).end;
  if (dueEnd.getTime() > cutoff) return { patch: { streak_to_be_broken_at: dueEnd, updated_at: now }, events: [] };
  return settleMissed(progress, definition, zone, now, (key, end) => key === due || end.getTime() <= cutoff);
}

/** The refusal of a grant whose uniqueIdentifier an earlier grant used, naming its progress; null when none did. */
async function replayOf(trx: Knex.Transaction, accountId: string, uniqueIdentifier: string) {
  const earlier = await trx('freeze_grant')
    .where({ account_id: accountId, unique_identifier: uniqueIdentifier })
    .first('streak_progress_id');
  if (!earlier) return null;
  return duplicateUniqueIdentifier('These freezes were granted already.', [
    {
      field: 'uniqueIdentifier',
      code: 'duplicate',
      message: 'Already used for a grant of freezes.',
      existingRecordId: earlier.streak_progress_id,
    },
  ]);
}

/**
 * Adds granted freezes to an in-progress progress, up to its streak's `maxFreezes` (CONTRACT §14).
 * `now` is the wall clock the grant is ordered by among logs, `grantedAt` the scheduler's.
 * The caller holds the progress row's lock, which an update lowering `maxFreezes` waits for (see
 * `capFreezes`), so the cap read here is never one that update has replaced.
 */
export async function grantFreezes(
  { trx, records, ctx }: { trx: Knex.Transaction; records: Records; ctx: RequestContext },
  progressId: string,
  count: number,
  now: Date,
  grantedAt: Date,
  uniqueIdentifier?: string,
): Promise<StreakProgressRow> {
  const accountId = ctx.account!.id;
  // A replay answers as one whatever has become of the run since (CONTRACT §14).
  const replay = uniqueIdentifier === undefined ? null : await replayOf(trx, accountId, uniqueIdentifier);
  if (replay) throw replay;
  let progress = await trx<StreakProgressRow>('streak_progress').where({ account_id: accountId, id: progressId }).first();
  if (progress?.streak_progress_status !== 'in_progress') throw conflict('Only an in-progress streak progress can be granted freezes.');
  // A replay gives no run to grant to (CONTRACT §17), and the member's next log starts another.
  if (isEmptiedRun(progress)) throw conflict('Every log of this streak progress was reversed: it cannot be granted freezes.');
  // The action holds the progress's row lock, so it may not wait for the member's erasure (which waits for that row).
  const { rows: shared } = await trx.raw<{ rows: [{ free: boolean }] }>(
    'select pg_try_advisory_xact_lock_shared(hashtextextended(?, 0)) as free',
    [memberLock(progress.owned_by_id)],
  );
  if (!shared[0].free) throw conflict("This progress's member is being deleted.");
  const streak = await trx<StreakRow>('streak')
    .where({ account_id: accountId, id: progress.streak_id })
    .first('max_freezes', 'aggregation_period');
  if (!streak?.max_freezes) throw conflict('Freezes are off for this streak (maxFreezes is 0).');
  // A run past its deadline's grace is settled first, as the scheduler's sweep would have by now:
  // the grant finds the run as it stands at `grantedAt` however late the sweep is, which is where
  // a recompute after a reversal replays it (CONTRACT §17).
  const member = await trx('account_user')
    .where({ account_id: accountId, id: progress.owned_by_id })
    .first<{ timezone: string | null; language_code: LanguageCode | null }>('timezone', 'language_code');
  const settled = settleOverdue(progress, streak, member?.timezone ?? ctx.account!.timezone, grantedAt, records.lateLogGraceSeconds);
  if (settled) {
    // Its events read as the sweep's would: as an API key does, in the member's language.
    const asSweep = { ...ctx, flow: 'apikey' as const, languageCode: member?.language_code ?? undefined };
    progress = await writeSettled(records, trx, asSweep, 'streak', progress, settled);
    if (progress.streak_progress_status !== 'in_progress')
      throw conflict('This streak progress missed a period no freeze covered: it is broken, so it cannot be granted freezes.');
  }
  // Kept so that a recompute after a reversal grants them again at the same point (CONTRACT §17).
  // A replayed uniqueIdentifier inserts nothing (waiting for a racing grant of it to end) and changes nothing.
  const { rows } = await trx.raw<{ rows: unknown[] }>(
    `insert into freeze_grant (account_id, streak_id, owned_by_id, streak_progress_id, count, granted_at, unique_identifier, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?)
     on conflict (account_id, unique_identifier) where unique_identifier is not null do nothing
     returning id`,
    [accountId, progress.streak_id, progress.owned_by_id, progress.id, count, grantedAt, uniqueIdentifier ?? null, now, now],
  );
  // The racing grant that inserted it has committed by now.
  if (!rows.length) throw (await replayOf(trx, accountId, uniqueIdentifier!))!;
  return updateRow(trx, 'streak_progress', progress, {
    freezes_available: Math.min(streak.max_freezes, progress.freezes_available + count),
    updated_at: now,
  });
}

/**
 * Caps the freezes of a streak's in-progress progresses at a lowered `maxFreezes`, in the streak
 * update's transaction. It writes every in-progress row, not only those above the cap: a grant
 * holding a row's lock has read the old cap and is capped here once it commits, and a log that
 * read the old cap finds its row changed and aggregates again under the new one.
 */
export async function capFreezes(trx: Knex.Transaction, accountId: string, streakId: string, maxFreezes: number, now: Date): Promise<void> {
  await trx('streak_progress')
    .where({ account_id: accountId, streak_id: streakId, streak_progress_status: 'in_progress' })
    .update({ freezes_available: trx.raw('least(freezes_available, ?)', [maxFreezes]), updated_at: now });
}

/** The FROM of the member's closed run with logs that started last, the account, member and streak named by `account`, `member`, `streak`. */
const latestClosed = (account: string, member: string, streak: string) =>
  `from streak_progress l
    where l.account_id = ${account} and l.owned_by_id = ${member} and l.streak_id = ${streak} and l.streak_progress_status <> 'in_progress'
      and (l.streak_broken_at is null or l.streak_broken_at > l.streak_started_at)
    order by l.streak_started_at desc, l.created_at desc limit 1`;

/**
 * The member's in-progress run on the streak with its tasks from its latest period on or, when there
 * is none, the closed run with logs that started last (a log in a period it covered does not count).
 * A run a reversal emptied has no latest period and comes with that closed run too: the log closes
 * it as of its start and goes on as if it were not there (CONTRACT §17: a replay never had it).
 */
export const STREAK_STATE: StateRead = {
  sql: `coalesce(
          (select jsonb_build_object('progress', ${versioned('sp')}, 'tasks',
              (select coalesce(jsonb_agg(${versioned('t')}), '[]'::jsonb) from task_progress t
                where t.account_id = sp.account_id and t.linked_schema_record_id = sp.id and t.period_key >= sp.current_period_key),
              'latest', case when sp.current_period_key is null then (select to_jsonb(l) ${latestClosed('sp.account_id', 'sp.owned_by_id', 'sp.streak_id')}) end)
             from streak_progress sp
            where sp.account_id = ? and sp.unique_identifier = ? and sp.streak_progress_status = 'in_progress'),
          (select jsonb_build_object('latest', to_jsonb(l)) ${latestClosed('?', '?', '?')}))`,
  bindings: (accountId, definitionId, memberId) => [accountId, runIdentifier(definitionId, memberId), accountId, memberId, definitionId],
};

/** Streak semantics of CONTRACT §8: consecutive completed periods, broken by a missed one. */
export async function aggregateStreak(tx: Tx, input: LogInput<StreakRow>): Promise<Outcome> {
  const { definition, memberId, activityAt, value, zone, milestones } = input;
  const period = definition.aggregation_period;
  const logPeriod = periodKey(activityAt, period, zone);
  const where = { account_id: tx.account.id, streak_id: definition.id, owned_by_id: memberId };
  const settledEvents: ProgressEvent<StreakProgressRow>[] = [];

  const state = input.state as { progress?: unknown; tasks?: unknown; latest?: unknown } | null;
  let progress = rowFromJson<Versioned<StreakProgressRow>>(state?.progress);
  // The run's tasks from its latest period with a log on: that period's, and those a reversal
  // left at 0 after it (CONTRACT §17), which a log in their period takes up again.
  let periodTask = rowsFromJson<Versioned<TaskProgressRow>>(state?.tasks).find((t) => t.period_key === logPeriod);
  if (progress && isEmptiedRun(progress)) {
    tx.writes.update('streak_progress', progress, emptiedRunClosed(progress, period, zone, tx.now));
    progress = undefined;
  }
  if (progress) {
    // A log for a later period than the required one settles the periods missed before it.
    const settled = settleMissed(progress, definition, zone, tx.now, (key) => key < logPeriod);
    if (settled) {
      const row = tx.writes.update('streak_progress', progress, settled.patch);
      settledEvents.push(...settled.events);
      progress = row.streak_progress_status === 'broken' ? undefined : row;
    }
  }
  if (progress) {
    const current = progress.current_period_key;
    const frozen = progress.frozen_period_keys.at(-1);
    // Before the latest period with a log, or in (or before) a frozen one: too late to count.
    if ((current !== null && logPeriod < current) || (frozen !== undefined && logPeriod <= frozen))
      return notAggregated('period_closed', settledEvents);
  }
  if (!progress) {
    periodTask = undefined;
    const latest = settledEvents.at(-1)?.progress ?? rowFromJson<StreakProgressRow>(state?.latest);
    if (latest && logPeriod <= closedUpTo(latest, period, zone))
      return notAggregated(
        latest.streak_progress_status === 'completed' && logPeriod === latest.last_completed_period_key
          ? 'period_completed'
          : 'period_closed',
        settledEvents,
      );
    [progress] = tx.writes.insert<StreakProgressRow>('streak_progress', [
      {
        ...where,
        unique_identifier: runIdentifier(definition.id, memberId),
        streak_progress_status: 'in_progress',
        current_progress_value: 0,
        streak_started_at: activityAt,
        streak_to_be_broken_at: periodBounds(logPeriod, period, zone).end,
        current_period_key: logPeriod,
        freezes_available: 0,
        freezes_used: 0,
        frozen_period_keys: [],
      },
    ]);
  }

  const target = input.completedPeriods?.get(logPeriod) ?? definition.aggregation_target_value;
  const task = addToPeriod(tx, progress!, periodTask, logPeriod, value, target, activityAt);
  const periodCompleted = task.justCompleted;
  const before = progress!.current_progress_value;
  const after = periodCompleted ? before + 1 : before;
  const length = definition.completion_target_value;
  // A target lowered below the run's value since: the run completes with its next completed period.
  const completed = length !== null && after >= length && (before < length || periodCompleted);
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
  // A run that reaches a multiple of freezeEarnEveryPeriods earns a freeze, up to maxFreezes; a completed one has no use for it.
  const every = definition.freeze_earn_every_periods;
  const earned =
    periodCompleted && !completed && every !== null && after % every === 0 && progress!.freezes_available < definition.max_freezes;
  if (earned) patch.freezes_available = progress!.freezes_available + 1;
  const updated = tx.writes.update('streak_progress', progress!, patch);

  const { achieved, logs: milestoneRewardLogs } = await issueMilestoneRewards(tx, crossed(milestones, before, after), {
    linkedSchemaSlug: 'streak',
    linkedSchemaRecordId: definition.id,
    ownedById: memberId,
    periodKey: logPeriod,
    progressId: updated.id,
    holdDays: definition.reward_hold_days,
  });
  const codes: EventCode[] = [];
  if (achieved.length) codes.push('streak_progress_milestone_completed');
  if (completed) codes.push('streak_progress_completed');
  if (!codes.length) codes.push(periodCompleted ? 'streak_progress_non_milestone_completed' : 'streak_progress_in_progress');
  return {
    aggregated: true,
    reason: null,
    progress: updated,
    taskProgress: [task.row],
    progressTasks: [],
    achieved,
    nextMilestone: nextMilestone(milestones, after),
    milestoneRewardLogs,
    rewardLog: null,
    codes,
    before: settledEvents,
    after: earned ? [{ code: 'streak_progress_freeze_earned', progress: updated }] : [],
  };
}

/** The last period a closed progress covers: its last completed one, or the one it broke in. */
export function closedUpTo(progress: StreakProgressRow, period: Period, zone: string): string {
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
  activityAt: Date,
): { row: TaskProgressRow; justCompleted: boolean } {
  const before = existing?.current_progress_value ?? 0;
  const after = decimalSum(before, value);
  // A period counts once: one completed before its target was raised stays completed and is not counted again.
  const justCompleted = existing?.task_progress_status !== 'completed' && before < target && after >= target;
  const fields: Partial<TaskProgressRow> = { current_progress_value: after, updated_at: tx.now };
  // As the run's own completion: at the log's time, never the wall clock's (a back-fill completes the period it describes),
  // under the target it reached, which a recompute keeps for the period (a raise applies to the periods after).
  if (justCompleted) Object.assign(fields, { task_progress_status: 'completed', completed_at: activityAt, target_value: target });
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
