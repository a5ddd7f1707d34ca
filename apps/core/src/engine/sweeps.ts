import type { Knex } from 'knex';
import type { AccountInfo } from '../auth/authenticate.js';
import type { EventCode } from '../events/codes.js';
import type { LanguageCode } from '../formats.js';
import type { RequestContext } from '../records/context.js';
import type { Records } from '../records/resource.js';
import type { ChallengeProgressRow, MissionProgressRow, StreakProgressRow } from '../schema/progress.js';
import { failedChallengePatch } from './challenge.js';
import { emptiedMissionClosed, failedMissionPatch } from './mission.js';
import { completeReachedRun, REACHED_SQL } from './mission-reached.js';
import { type Period, periodBounds } from './periods.js';
import { writeSettled } from './settle.js';
import { settleOverdue } from './streak.js';
import type { LogKind, ProgressEvent, ProgressRow } from './types.js';

/*
 * The sweeps: what is due at an instant (a warning, a break, a failure) and how it is settled, with
 * its events. The scheduler runs them over every account (scheduler/sweeps.ts); a reversal runs the
 * closing ones for one member first (reverse.ts).
 */

/**
 * A progress row as a sweep reads it: with its member's time zone and, where selected, its
 * definition's period and freezes.
 */
export type Swept<P extends ProgressRow> = P & {
  member_timezone: string | null;
  member_language: LanguageCode | null;
  aggregation_period?: Period;
  max_freezes?: number;
};

export interface Sweep<R = Swept<ProgressRow>> {
  name: string;
  kind: LogKind;
  /** Whether it closes what is past its deadline (a break, a freeze spent, a failure), not a warning. */
  closes: boolean;
  /** Due rows, locked so that concurrent sweepers each take different ones. */
  due(trx: Knex.Transaction, now: Date, graceSeconds: number): Knex.QueryBuilder;
  /** The change that closes or marks the row, and its events in order. */
  settle(row: R, zone: string, now: Date, graceSeconds: number): Settled<R>;
  /** A change that needs more than the row (other rows written first), where it applies; null leaves the row to `settle`. */
  settleWithWrites?(
    records: Records,
    trx: Knex.Transaction,
    ctx: RequestContext,
    account: AccountInfo,
    row: R,
    now: Date,
  ): Promise<Settled<R> | null>;
}

type Settled<R> = { patch: Partial<R>; events: ProgressEvent[] };

/** A change that makes one event, about the row as it leaves it. */
function one<R extends ProgressRow>(code: EventCode, row: R, patch: Partial<R>, extra?: Record<string, unknown>) {
  return { patch, events: [{ code, progress: { ...row, ...patch }, extra }] };
}

const progressColumns = (table: string) => [
  `${table}.*`,
  'account_user.timezone as member_timezone',
  'account_user.language_code as member_language',
];
const joinMember = (table: string) => (q: Knex.QueryBuilder) =>
  q.join('account_user', function () {
    this.on('account_user.account_id', '=', `${table}.account_id`).andOn('account_user.id', '=', `${table}.owned_by_id`);
  });
const joinDefinition = (table: string, definition: string) => (q: Knex.QueryBuilder) =>
  q.join(definition, function () {
    this.on(`${definition}.account_id`, '=', `${table}.account_id`).andOn(`${definition}.id`, '=', `${table}.${definition}_id`);
  });

/**
 * Whether the row's member is in the definition's program: a member held out since the run began
 * keeps it as it was (CONTRACT §18), so no sweep warns, breaks, freezes or fails it, and no event of
 * the program reaches the group it is measured against. `loyalty_holdout_position` is `isHeldOut`'s SQL.
 */
const notHeldOut = (definition: string) =>
  `(${definition}.holdout_percent = 0 or loyalty_holdout_position(${definition}.id, account_user.external_id) >= ${definition}.holdout_percent / 100.0)`;

/** The sweeps of CONTRACT §8–9: warnings before deadlines, then breaks and failures after the grace. */
export const SWEEPS: Sweep[] = [
  {
    name: 'streak warnings',
    kind: 'streak',
    closes: false,
    due: (trx, now) =>
      joinMember('streak_progress')(joinDefinition('streak_progress', 'streak')(trx('streak_progress')))
        .select([...progressColumns('streak_progress'), 'streak.max_freezes'])
        // Only where a log can still save the run: a paused streak's logs do not count (CONTRACT §8).
        .where('streak.status', 'live')
        .where('streak_progress.streak_progress_status', 'in_progress')
        .whereRaw(notHeldOut('streak'))
        // A run a reversal emptied has nothing to lose (CONTRACT §17).
        .whereNotNull('streak_progress.current_period_key')
        .where('streak_progress.streak_to_be_broken_at', '>', now)
        .whereRaw(`streak_progress.streak_to_be_broken_at - make_interval(secs => streak.to_be_broken_warning_hours * 3600) <= ?`, [now])
        .whereRaw('streak_progress.warned_to_be_broken_at is distinct from streak_progress.streak_to_be_broken_at'),
    // The warning still fires when a freeze will cover the period: its payload says so (CONTRACT §14).
    settle: (row, _zone, now) =>
      one(
        'streak_progress_to_be_broken',
        row,
        { warned_to_be_broken_at: row.streak_to_be_broken_at, updated_at: now },
        { freezesAvailable: Math.min(row.freezes_available, row.max_freezes!) },
      ),
  } satisfies Sweep<Swept<StreakProgressRow>>,
  {
    name: 'streak breaks',
    kind: 'streak',
    closes: true,
    due: (trx, now, grace) =>
      joinMember('streak_progress')(joinDefinition('streak_progress', 'streak')(trx('streak_progress')))
        .select([...progressColumns('streak_progress'), 'streak.aggregation_period', 'streak.max_freezes'])
        .where('streak_progress.streak_progress_status', 'in_progress')
        .whereRaw(notHeldOut('streak'))
        .where('streak_progress.streak_to_be_broken_at', '<=', new Date(now.getTime() - grace * 1000)),
    settle: (row, zone, now, grace) =>
      settleOverdue(row, { aggregation_period: row.aggregation_period!, max_freezes: row.max_freezes! }, zone, now, grace)!,
  } satisfies Sweep<Swept<StreakProgressRow>>,
  {
    name: 'challenge warnings',
    kind: 'challenge',
    closes: false,
    due: (trx, now) =>
      joinMember('challenge_progress')(joinDefinition('challenge_progress', 'challenge')(trx('challenge_progress')))
        .select(progressColumns('challenge_progress'))
        .where('challenge.status', 'live')
        .where('challenge_progress.challenge_progress_status', 'in_progress')
        .whereRaw(notHeldOut('challenge'))
        .where('challenge_progress.is_warned', false)
        .where('challenge_progress.challenge_to_be_failed_at', '>', now)
        .whereRaw(
          `challenge_progress.challenge_to_be_failed_at - make_interval(secs => challenge.to_be_failed_warning_hours * 3600) <= ?`,
          [now],
        ),
    settle: (row, _zone, now) => one('challenge_progress_to_be_failed', row, { is_warned: true, updated_at: now }),
  } satisfies Sweep<Swept<ChallengeProgressRow>>,
  {
    name: 'challenge failures',
    kind: 'challenge',
    closes: true,
    due: (trx, now, grace) =>
      joinMember('challenge_progress')(joinDefinition('challenge_progress', 'challenge')(trx('challenge_progress')))
        .select([...progressColumns('challenge_progress'), 'challenge.aggregation_period'])
        .where('challenge_progress.challenge_progress_status', 'in_progress')
        .whereRaw(notHeldOut('challenge'))
        .where('challenge_progress.challenge_to_be_failed_at', '<=', new Date(now.getTime() - grace * 1000)),
    settle: (row, zone, now, grace) => {
      // A deadline set in a time zone the member has left: the window is still open in theirs.
      const end = periodBounds(row.period_key, row.aggregation_period!, zone).end;
      if (end.getTime() > now.getTime() - grace * 1000) return { patch: { challenge_to_be_failed_at: end, updated_at: now }, events: [] };
      return one('challenge_progress_failed', row, failedChallengePatch(row, zone, row.aggregation_period!, now));
    },
  } satisfies Sweep<Swept<ChallengeProgressRow>>,
  {
    name: 'mission failures',
    kind: 'mission',
    closes: true,
    due: (trx, now, grace) =>
      // Joined as the other sweeps join theirs: a deleted definition's runs stay as they were (CONTRACT §6, history).
      joinMember('mission_progress')(joinDefinition('mission_progress', 'mission')(trx('mission_progress')))
        .select([
          ...progressColumns('mission_progress'),
          trx.raw(
            `not exists (select 1 from task_progress t
                          where t.account_id = mission_progress.account_id and t.linked_schema_record_id = mission_progress.id
                            and t.current_progress_value <> 0) as emptied`,
          ),
          trx.raw(`${REACHED_SQL} as reached`),
        ])
        .where('mission_progress.mission_progress_status', 'in_progress')
        .whereRaw(notHeldOut('mission'))
        .where('mission_progress.mission_to_be_failed_at', '<=', new Date(now.getTime() - grace * 1000)),
    settle: (row, _zone, now) =>
      row.emptied
        ? { patch: emptiedMissionClosed(row, now), events: [] }
        : one('mission_progress_failed', row, failedMissionPatch(row, now)),
    // Every task reached, as the mission is now (edited since the member's last log): completed, not failed.
    settleWithWrites: async (records, trx, ctx, account, row, now) =>
      row.reached && !row.emptied ? completeReachedRun(records, trx, ctx, account, row, now) : null,
  } satisfies Sweep<Swept<MissionProgressRow> & { emptied: boolean; reached: boolean }>,
];

/** Settles one due row the sweep holds locked, and emits its events. */
export async function settleRow(
  records: Records,
  trx: Knex.Transaction,
  sweep: Sweep,
  account: AccountInfo,
  row: Swept<ProgressRow>,
  now: Date,
  graceSeconds: number,
  requestId: string,
): Promise<void> {
  // Payloads in the member's language, as a log's events are (CONTRACT §11's emails render from them).
  const ctx: RequestContext = { flow: 'apikey', account, languageCode: row.member_language ?? undefined, requestId };
  const zone = row.member_timezone ?? account.timezone;
  const settled = (await sweep.settleWithWrites?.(records, trx, ctx, account, row, now)) ?? sweep.settle(row, zone, now, graceSeconds);
  await writeSettled(records, trx, ctx, sweep.kind, row, settled);
}

/**
 * Settles a member's runs or windows of one definition as the closing sweeps would at `now`, with
 * their events, in the caller's transaction. A reversal does so before it re-decides anything
 * (CONTRACT §17): a deadline that passed before it is the sweep's to settle and to tell, once,
 * whether the sweep ran before the reversal or not.
 */
export async function settleDueOf(
  records: Records,
  trx: Knex.Transaction,
  account: AccountInfo,
  kind: LogKind,
  definitionId: string,
  memberId: string,
  now: Date,
  requestId: string,
): Promise<void> {
  const table = `${kind}_progress`;
  for (const sweep of SWEEPS.filter((s) => s.kind === kind && s.closes)) {
    // Waits for a sweep holding one of the rows; that row is then no longer due.
    const rows = (await sweep
      .due(trx, now, records.lateLogGraceSeconds)
      .where({ [`${table}.account_id`]: account.id, [`${table}.${kind}_id`]: definitionId, [`${table}.owned_by_id`]: memberId })
      .forUpdate(table)) as Swept<ProgressRow>[];
    for (const row of rows) await settleRow(records, trx, sweep, account, row, now, records.lateLogGraceSeconds, requestId);
  }
}
