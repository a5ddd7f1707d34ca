import type { Knex } from 'knex';
import { z } from 'zod';
import { rowFromJson, rowsFromJson } from '../db/json.js';
import { ident, numbered, run } from '../db/prepared.js';
import { overwriteRows } from '../db/rows.js';
import { tableColumns } from '../db/table-columns.js';
import { duplicateUniqueIdentifier, conflict, invalidInput, notFound, nothingToReverse } from '../errors.js';
import { emit, wakeAtCommit } from '../events/outbox.js';
import { IssueTally } from '../observability/metrics.js';
import type { RequestContext } from '../records/context.js';
import { DEFAULT_NUMBER_MAX } from '../records/fields.js';
import type { Records, Row } from '../records/resource.js';
import { bodyOrEmpty, issueDetails } from '../records/validate.js';
import { settleDueOf } from './sweeps.js';
import type { MilestoneRow } from '../schema/definitions.js';
import type { AccountUserRow } from '../schema/members.js';
import type { ChallengeProgressRow, MissionProgressRow, StreakProgressRow, TaskProgressRow } from '../schema/progress.js';
import type { RewardLogRow } from '../schema/rewards.js';
import { aggregateChallenge, failedChallengePatch } from './challenge.js';
import { type Definition, definitionOf, lockAggregation, methodOf } from './ingest.js';
import { nextMilestone } from './milestones.js';
import { aggregateMission, emptiedMissionClosed, failedMissionPatch } from './mission.js';
import { storedFields } from './payloads.js';
import { isTransaction, reverseRewardLogPoints } from './points.js';
import { issueReward } from './rewards.js';
import { closedUpTo, emptiedRunClosed, settleOverdue } from './streak.js';
import {
  isChallengeWindow,
  isMissionRun,
  isStreakRun,
  type LogKind,
  type LogRow,
  NeedsLock,
  type NotAggregatedReason,
  type Outcome,
  type ProgressRow,
  progressStatus,
  type RewardSource,
  startedAt,
  type Tx,
} from './types.js';
import { aggregateStreak } from './streak.js';
import { WriteSet } from './writes.js';
import { announceIssued } from './announce.js';
import { decimalSum } from './decimals.js';
import { periodBounds, periodKey } from './periods.js';

/** A reversal's body (CONTRACT §17). */
export const reverseBody = z.strictObject({
  activityValue: z.number().gt(0).max(DEFAULT_NUMBER_MAX).optional(),
  uniqueIdentifier: z.string().min(1).max(256).optional(),
  reason: z.string().max(256).optional(),
});

const STARTED_AT = { streak: 'streak_started_at', challenge: 'challenge_started_at', mission: 'mission_started_at' } as const;

/** What a log adds to its progress: 1 for a count method, else its value; less what was reversed. */
function remaining(definition: Definition, log: LogRow): { method: 'count' | 'sum'; left: number } {
  const method = methodOf(definition, String(log.activity_id));
  const whole = method === 'sum' ? Number(log.activity_value) : 1;
  return { method, left: decimalSum(whole, -Number(log.reversed_value)) };
}

/**
 * Takes back a log's value, whole or in part, and recomputes the member's progress on its
 * definition as a replay of the surviving logs in activityAt order (CONTRACT §17): the progress
 * records keep their ids where a run survives, reward logs of milestones no longer reached are
 * revoked, and one `_reversed` event tells of the change. Runs in the action's transaction, under
 * the lock that orders the member's logs on the definition, so it races nothing.
 */
export async function reverseLog(
  records: Records,
  trx: Knex.Transaction,
  ctx: RequestContext,
  kind: LogKind,
  read: LogRow,
  body: unknown,
): Promise<Record<string, unknown>> {
  const parsed = reverseBody.safeParse(bodyOrEmpty(body));
  if (!parsed.success) throw invalidInput('The reversal is invalid.', issueDetails('', parsed.error));
  const { activityValue, uniqueIdentifier, reason } = parsed.data;
  const account = ctx.account!;
  // A log's definition and member never change: the read before the lock names the right lock,
  // and under it the log is read again (with what the reversal works on) for what earlier reversals took.
  const definitionId = String(read[`${kind}_id`]);
  const memberId = read.owned_by_id as string;
  await lockAggregation(trx, kind, definitionId, memberId);

  const found = await gather(trx, kind, account.id, read.id, definitionId, memberId, uniqueIdentifier ?? null);
  const log = found.log;
  if (!log) throw notFound(`No ${kind}_log with id ${read.id}.`);
  if (found.duplicate) throw duplicateReversal(found.duplicate);
  const definition = found.definition;
  if (!definition) throw conflict(`The ${kind} of this log is deleted: there is no progress left to change.`);
  const { method, left } = remaining(definition, log);
  if (method === 'count' && activityValue !== undefined && activityValue !== 1) {
    throw invalidInput('A count log is reversed whole.', [
      { field: 'activityValue', code: 'invalid', message: 'Omit activityValue, or send 1: a count log is reversed whole.' },
    ]);
  }
  const taken = activityValue ?? left;
  if (left <= 0 || taken > left)
    throw nothingToReverse(left <= 0 ? 'Nothing of this log is left to reverse.' : `Only ${left} of this log is left to reverse.`, [
      { field: 'activityValue', code: 'too_large', message: `At most ${Math.max(0, left)}.` },
    ]);
  // A part too small to change the value as a double holds it would be a reversal that takes nothing.
  if (decimalSum(left, -taken) === left)
    throw invalidInput('The reversal is too small to change this log.', [
      { field: 'activityValue', code: 'too_small', message: `Too small to change the ${left} left of this log.` },
    ]);

  const now = records.now();
  const reversedValue = decimalSum(Number(log.reversed_value), taken);
  const [reversedLog] = await run<LogRow>(trx, {
    text: WRITE_REVERSAL[kind]!,
    values: [account.id, kind, definitionId, log.id, memberId, taken, uniqueIdentifier ?? null, reason ?? null, now, reversedValue],
  });
  // No reversal and no log: the log was erased with its member after the read above.
  if (!reversedLog && uniqueIdentifier === undefined) throw notFound(`No ${kind}_log with id ${read.id}.`);
  if (!reversedLog) {
    const first = await trx('log_reversal')
      .where({ account_id: account.id, log_kind: kind, definition_id: definitionId, unique_identifier: uniqueIdentifier ?? null })
      .first('id');
    throw duplicateReversal(first?.id ?? null);
  }
  // The replay reads the log as this reversal leaves it.
  const logs = found.logs.map((l) => (l.id === log.id ? { ...l, reversed_value: reversedValue } : l));

  // A log that never counted changes no progress (CONTRACT §17).
  const change = log.is_aggregated
    ? await recompute(records, trx, ctx, { ...found, definition, logs }, memberId, now, reason ?? 'reversal')
    : await unchanged(trx, definition, account.id, memberId);
  return respond(records, trx, ctx, kind, reversedLog!, found.milestones, change);
}

/**
 * Why a log may have been refused only because of progress a reversal can undo: the day of a
 * completed streak already counted, the mission already completed. A replay decides such logs
 * again, since §17 makes every progress what the surviving logs give, in activityAt order. Logs
 * refused for anything else (late, outside the window, not live, held out) stay refused.
 */
const REDECIDED: readonly NotAggregatedReason[] = ['period_completed', 'mission_completed'];

/** A freeze grant: ordered among logs by `created_at` (the wall clock), settled against at `granted_at` (the scheduler's). */
interface Grant {
  id: string;
  created_at: Date;
  granted_at: Date;
  count: number;
  streak_progress_id: string;
}

/** What a reversal works with, read in one statement once the lock is held. */
interface Gathered {
  /** The log reversed, as earlier reversals left it. */
  log: LogRow | undefined;
  definition: Definition | undefined;
  /** The reversal that already used the uniqueIdentifier. */
  duplicate: string | null;
  member: AccountUserRow | undefined;
  /** The definition's milestones, live or not, ascending by target. */
  milestones: MilestoneRow[];
  /** The member's logs that counted or that progress alone refused (REDECIDED), in activityAt order. */
  logs: LogRow[];
  /** Freeze grants of the member on the streak, oldest first. */
  grants: Grant[];
}

const GATHER = Object.fromEntries(
  (['streak', 'challenge', 'mission'] as const).map((kind) => [
    kind,
    numbered(
      `select
         (select row_to_json(x) from ${ident(`${kind}_log`)} x where x.account_id = ? and x.id = ?) as log,
         (select row_to_json(d) from ${ident(kind)} d where d.account_id = ? and d.id = ?) as definition,
         (select r.id from log_reversal r
           where r.account_id = ? and r.log_kind = ? and r.definition_id = ? and r.unique_identifier = ?) as duplicate,
         (select row_to_json(u) from account_user u where u.account_id = ? and u.id = ?) as member,
         (select coalesce(json_agg(m order by m.milestone_target_value), '[]'::json) from milestone m
           where m.account_id = ? and m.linked_schema_record_id = ?) as milestones,
         (select coalesce(json_agg(l order by l.activity_at, l.created_at, l.id), '[]'::json) from ${ident(`${kind}_log`)} l
           where l.account_id = ? and l.${ident(`${kind}_id`)} = ? and l.owned_by_id = ? and l.status = 'live'
             and (l.is_aggregated or l.not_aggregated_reason in (${REDECIDED.map((r) => `'${r}'`).join(', ')}))) as logs,
         (select coalesce(json_agg(g order by g.created_at), '[]'::json) from freeze_grant g
           where g.account_id = ? and g.streak_id = ? and g.owned_by_id = ?) as grants`,
    ),
  ]),
);

/**
 * The reversal and the log's new total, in one statement; no row when a racing reversal of another
 * log (another member's, so not behind this one's lock) took the uniqueIdentifier first: the
 * insert waits for it and skips.
 */
const WRITE_REVERSAL = Object.fromEntries(
  (['streak', 'challenge', 'mission'] as const).map((kind) => [
    kind,
    `with reversal as (
       insert into log_reversal (account_id, log_kind, definition_id, log_id, owned_by_id, activity_value, unique_identifier, reason, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)
       on conflict (account_id, log_kind, definition_id, unique_identifier) where unique_identifier is not null do nothing
       returning 1)
     update ${ident(`${kind}_log`)} set reversed_value = $10, updated_at = $9
      where account_id = $1 and id = $4 and exists (select 1 from reversal) returning *`,
  ]),
);

const duplicateReversal = (existingRecordId: string | null) =>
  duplicateUniqueIdentifier('A reversal with this uniqueIdentifier already exists; nothing was reversed again.', [
    { field: 'uniqueIdentifier', code: 'duplicate', message: 'Already used for this definition.', existingRecordId },
  ]);

async function gather(
  trx: Knex,
  kind: LogKind,
  accountId: string,
  logId: string,
  definitionId: string,
  memberId: string,
  uniqueIdentifier: string | null,
): Promise<Gathered> {
  const [row] = await run<{
    log: unknown;
    definition: unknown;
    duplicate: string | null;
    member: unknown;
    milestones: unknown;
    logs: unknown;
    grants: unknown;
  }>(trx, {
    text: GATHER[kind]!,
    values: [
      accountId,
      logId,
      accountId,
      definitionId,
      accountId,
      kind,
      definitionId,
      uniqueIdentifier,
      accountId,
      memberId,
      accountId,
      definitionId,
      accountId,
      definitionId,
      memberId,
      accountId,
      definitionId,
      memberId,
    ],
  });
  return {
    log: rowFromJson<LogRow>(row!.log),
    definition: definitionOf(kind, row!.definition),
    duplicate: row!.duplicate,
    member: rowFromJson<AccountUserRow>(row!.member),
    milestones: rowsFromJson<MilestoneRow>(row!.milestones),
    logs: rowsFromJson<LogRow>(row!.logs),
    grants: rowsFromJson<Grant>(row!.grants),
  };
}

/** What a reversal changed: the member's current progress after it, the record it changed, and what it took back. */
interface Change {
  /** The member's current progress, which the answer shows. */
  progress: ProgressRow | null;
  /** The record the reversal changed, which its event names; null when it changed nothing. */
  changed: ProgressRow | null;
  /** For a streak run a reversal split, the record it split from (it keeps its id and ends broken). */
  splitFrom: ProgressRow | null;
  tasks: TaskProgressRow[];
  revoked: RewardLogRow[];
}

/** The member's progress records on the definition, oldest first. */
async function progressesOf(trx: Knex, definition: Definition, accountId: string, memberId: string) {
  const { kind } = definition;
  return trx<ProgressRow>(`${kind}_progress`)
    .where({ account_id: accountId, [`${kind}_id`]: definition.row.id, owned_by_id: memberId })
    .orderBy(kind === 'challenge' ? 'period_key' : STARTED_AT[kind], 'asc')
    .orderBy('created_at', 'asc');
}

/** The record a reversal emptied (a streak run or mission closed as of its start, see `emptied`), which no log makes current. */
function isEmptied(row: ProgressRow): boolean {
  const closedAt = isStreakRun(row) ? row.streak_broken_at : isMissionRun(row) ? row.mission_failed_at : null;
  return closedAt instanceof Date && closedAt <= startedAt(row);
}

/** The run in progress, else the latest one with logs, else the latest. */
function pickCurrent<P extends ProgressRow>(rows: P[]): P | null {
  return rows.filter((r) => progressStatus(r) === 'in_progress').at(-1) ?? rows.filter((r) => !isEmptied(r)).at(-1) ?? rows.at(-1) ?? null;
}

async function unchanged(trx: Knex, definition: Definition, accountId: string, memberId: string): Promise<Change> {
  const progress = pickCurrent(await progressesOf(trx, definition, accountId, memberId));
  return { progress, changed: null, splitFrom: null, tasks: await shownTasks(trx, accountId, progress), revoked: [] };
}

/** The tasks a reversal answers with: a mission's, in order; a streak's current period's only. */
async function shownTasks(trx: Knex, accountId: string, progress: ProgressRow | null): Promise<TaskProgressRow[]> {
  if (!progress || isChallengeWindow(progress)) return [];
  const query = trx<TaskProgressRow>('task_progress').where({ account_id: accountId, linked_schema_record_id: progress.id });
  if (isStreakRun(progress)) query.where('period_key', progress.current_period_key);
  return query.orderBy('created_at');
}

/** A replayed row with every column, as the database would return it (absent columns are null). */
function complete<R extends Row>(row: R, columns: string[]): R {
  const out: Row = { ...row };
  for (const c of columns) if (out[c] === undefined) out[c] = null;
  // Every column of the row's table, so still an R.
  return out as R;
}

const IGNORED = new Set(['id', 'account_id', 'created_at', 'updated_at', 'row_version']);
/** Equal as stored: a column a replayed row leaves out is null. */
const same = (a: unknown, b: unknown) =>
  a instanceof Date || b instanceof Date
    ? (a instanceof Date ? a.getTime() : a) === (b instanceof Date ? b.getTime() : b)
    : JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The columns of `next` that differ from `stored`. */
function differences(stored: Row, next: Row, columns: string[]): Row {
  const patch: Row = {};
  for (const c of columns) if (!IGNORED.has(c) && !same(stored[c], next[c])) patch[c] = next[c];
  return patch;
}

/**
 * Replays the member's surviving logs on the definition through the same aggregation that
 * ingests them, on rows held in memory, with the freeze grants at the points they were made;
 * then settles what the scheduler would have, and writes the difference to the stored records.
 */
async function recompute(
  records: Records,
  trx: Knex.Transaction,
  ctx: RequestContext,
  { definition, member, milestones, logs, grants }: Gathered & { definition: Definition },
  memberId: string,
  now: Date,
  reason: string,
): Promise<Change> {
  const { kind } = definition;
  const account = ctx.account!;
  const progressTable = `${kind}_progress`;
  const where = { account_id: account.id, [`${kind}_id`]: definition.row.id, owned_by_id: memberId };
  const zone = member?.timezone ?? account.timezone ?? 'UTC';
  const progressColumns = await tableColumns(trx, progressTable);
  const taskColumns = await tableColumns(trx, 'task_progress');

  const writes = new WriteSet(account.id);
  const achieved: RewardSource[] = [];
  const tx: Tx = { trx, ctx, records, account, now, writes, locked: true, issued: new IssueTally(), replay: achieved };
  // The replay's rows as inserted (absent columns undefined); each is completed where it is read.
  const rawRuns = () => writes.insertedInto<ProgressRow>(progressTable);
  const rawTasks = () => writes.insertedInto<TaskProgressRow>('task_progress');
  const fill: Fill = { run: (r) => complete(r, progressColumns), task: (t) => complete(t, taskColumns) };
  const runs = () => rawRuns().map(fill.run);

  // What the scheduler settles by now is the sweep's, with its events, though the sweep has not run
  // yet: settled first, so that the replay re-decides only what the reversal changes.
  await settleDueOf(records, trx, account, kind, definition.row.id, memberId, now, ctx.requestId);
  // Stored records, locked: a sweep that took one first finishes before the comparison.
  const stored = await trx<ProgressRow>(progressTable)
    .where(where)
    .orderBy(kind === 'challenge' ? 'period_key' : STARTED_AT[kind], 'asc')
    .orderBy('created_at', 'asc')
    .forUpdate();

  // A grant counts from the moment it was made, once the logs that had arrived by then are
  // replayed (in activityAt order a log that came after it may be replayed first, but none that
  // came before it after it) and what the scheduler had settled by then is settled: it goes to the
  // run the replay has in progress then, as a grant made at that moment would. That is an earlier
  // run than the one it went to when a reversed log had broken the earlier one on arrival (and
  // opened the other); a run the replay breaks before the grant was made (its missing period was a
  // reversed log's) gets none, as the run the scheduler had closed by then.
  let nextGrant = 0;
  /** Each grant given, by the replayed run it went to. */
  const given = new Map<Grant, string>();
  const logsDone = new Set<string>();
  const arrivedReplayed = (grant: Grant) => logs.every((l) => l.created_at > grant.created_at || logsDone.has(l.id));
  const grantReady = (all = false) => {
    for (; nextGrant < grants.length && (all || arrivedReplayed(grants[nextGrant]!)); nextGrant++) {
      const grant = grants[nextGrant]!;
      if (definition.kind !== 'streak') continue;
      settleDue(records, definition, writes, runs(), zone, grant.granted_at);
      const run = rawRuns()
        .filter(isStreakRun)
        .findLast((r) => r.streak_progress_status === 'in_progress');
      if (!run) continue;
      writes.update<StreakProgressRow>(progressTable, run, {
        freezes_available: Math.min(definition.row.max_freezes, run.freezes_available + grant.count),
      });
      given.set(grant, run.id);
    }
  };
  const storedTasks = stored.length
    ? await trx<TaskProgressRow>('task_progress')
        .where({ account_id: account.id })
        .whereIn(
          'linked_schema_record_id',
          stored.map((r) => r.id),
        )
        .forUpdate()
    : [];
  // The member's standing reward logs of the definition, which the reconciliation judges.
  const standing = await trx<RewardLogRow>('reward_log')
    .where({ account_id: account.id, linked_schema_record_id: definition.row.id, owned_by_id: memberId })
    .whereNot('reward_log_status', 'revoked')
    .orderBy('created_at')
    .forUpdate();
  // A milestone judges the reward it gave this member by the target it had then: a raise since applies
  // to those who reach it after (a run a reversal splits off may so reach it at that target again).
  const judging = milestones
    .map((m) => {
      const given = standing.filter((l) => l.milestone_id === m.id && l.milestone_target_value != null);
      const lowest = Math.min(...given.map((l) => Number(l.milestone_target_value)));
      return lowest < Number(m.milestone_target_value) ? { ...m, milestone_target_value: lowest } : m;
    })
    .sort((a, b) => Number(a.milestone_target_value) - Number(b.milestone_target_value));
  // A streak period or challenge window completed before keeps the target it was completed under (a raise since applies to the periods after).
  const completedPeriods = new Map(
    kind === 'challenge'
      ? stored
          .filter(isChallengeWindow)
          .filter((r) => r.challenge_progress_status === 'completed' && r.completed_target_value != null)
          .map((r) => [r.period_key, Number(r.completed_target_value)])
      : storedTasks
          .filter((t) => t.task_progress_status === 'completed' && t.period_key !== null)
          .map((t) => [t.period_key!, Number(t.target_value)]),
  );
  /** The logs the replay decided otherwise than their ingestion had. */
  const redecided: { log: LogRow; outcome: Outcome }[] = [];
  grantReady();
  for (const log of logs) {
    logsDone.add(log.id);
    const { left } = remaining(definition, log);
    if (left <= 0) {
      grantReady();
      continue;
    }
    const input = { memberId, activityAt: log.activity_at as Date, value: left, zone, milestones: judging };
    let outcome: Outcome;
    if (definition.kind === 'streak')
      outcome = await aggregateStreak(tx, {
        ...input,
        definition: definition.row,
        state: streakState(rawRuns(), rawTasks(), fill),
        completedPeriods,
      });
    else if (definition.kind === 'challenge')
      outcome = await aggregateChallenge(tx, {
        ...input,
        // A log that counted keeps counting: startAt or endAt moved since does not take it out.
        definition: log.is_aggregated ? { ...definition.row, start_at: null, end_at: null } : definition.row,
        state: challengeState(rawRuns().filter(isChallengeWindow), fill),
        completedPeriods,
      });
    else
      outcome = await aggregateMission(tx, {
        ...input,
        definition: definition.row,
        activityId: log.activity_id as string,
        state: missionState(rawRuns().filter(isMissionRun), rawTasks(), fill),
      });
    if (outcome.aggregated !== log.is_aggregated || outcome.reason !== (log.not_aggregated_reason ?? null))
      redecided.push({ log, outcome });
    grantReady();
  }
  grantReady(true);
  settleDue(records, definition, writes, runs(), zone, now);

  const replayed = runs();
  const ids = matchRuns(kind, stored, replayed);
  const finalIds = new Set(ids.values());
  // A grant stays with the run it went to, whose record may now be a new one (a split), so that a
  // later recompute finds it there.
  for (const [grant, runId] of given) {
    const recordId = ids.get(runId)!;
    if (recordId !== grant.streak_progress_id)
      await trx('freeze_grant').where({ account_id: account.id, id: grant.id }).update({ streak_progress_id: recordId });
  }
  const byId = new Map(stored.map((r) => [r.id, r]));
  const updates: { row: Row; leaves: boolean }[] = [];
  const inserts: Row[] = [];
  for (const run of replayed) {
    const id = ids.get(run.id)!;
    const existing = byId.get(id);
    const next: Row = { ...run, id };
    if (!existing) {
      inserts.push({ ...next, created_at: now, updated_at: now });
      continue;
    }
    // Warnings already sent for a deadline are not sent again.
    if (isStreakRun(existing)) next.warned_to_be_broken_at = existing.warned_to_be_broken_at;
    if (isChallengeWindow(existing)) next.is_warned = existing.is_warned;
    if (Object.keys(differences(existing, next, progressColumns)).length)
      updates.push({ row: { ...next, updated_at: now }, leaves: progressStatus(existing) === 'in_progress' });
  }
  // A record none of whose logs survives stays, at 0 (CONTRACT §17).
  for (const existing of stored.filter((r) => !finalIds.has(r.id))) {
    const reopens = nextLogGoesTo(definition, existing, stored, replayed, zone);
    const patch = emptied(definition, existing, zone, now, now.getTime() - records.lateLogGraceSeconds * 1000, reopens);
    if (Object.keys(patch).length)
      updates.push({
        row: { ...existing, ...patch, updated_at: now },
        leaves: (patch[`${kind}_progress_status`] ?? progressStatus(existing)) !== 'in_progress',
      });
  }
  // Rows leaving the partial unique index of in-progress runs first, so a successor may enter it.
  await overwriteRows(
    trx,
    progressTable,
    updates.filter((u) => u.leaves).map((u) => u.row),
    progressColumns,
  );
  await overwriteRows(
    trx,
    progressTable,
    updates.filter((u) => !u.leaves).map((u) => u.row),
    progressColumns,
  );
  if (inserts.length) await trx(progressTable).insert(inserts);
  // The records written, their own columns or their tasks.
  const touched = new Set([...updates.map((u) => u.row.id as string), ...inserts.map((r) => r.id as string)]);
  for (const id of await reconcileTasks(trx, kind, storedTasks, rawTasks(), ids, taskColumns, now)) touched.add(id);
  let changed = touched.size > 0;
  // Each log says whether it counts as the replay has it, so that reversing it later changes what it should.
  for (const { log, outcome } of redecided)
    await trx(`${kind}_log`)
      .where({ account_id: account.id, id: log.id })
      .update({ is_aggregated: outcome.aggregated, not_aggregated_reason: outcome.reason, updated_at: now });
  if (redecided.length) changed = true;
  if (changed) await resetGrowthStandings(trx, kind, account.id, definition.row.id, memberId, now);
  const revoked = await reconcileRewards(
    tx,
    definition,
    memberId,
    judging,
    { achieved, ids, stored, storedTasks, runs: replayed, tasks: rawTasks(), standing },
    reason,
  );
  if (revoked.length) changed = true;

  const after = await progressesOf(trx, definition, account.id, memberId);
  const current = pickCurrent(after);
  const currentTasks = await shownTasks(trx, account.id, current);
  // A split leaves the original record broken and the later periods in another record, which is
  // not the one under way when its run started: that run is the change, the original where it split from.
  const split =
    kind === 'streak'
      ? replayed
          .map((run) => ({ id: ids.get(run.id)!, origin: continuedBy(stored, run) }))
          .find(({ id, origin }) => origin && origin.id !== id && touched.has(id))
      : undefined;
  // Else the oldest record written, the one the reversed log counted in: a later one changes only
  // through it (a mission it reopens takes a later run's logs). Where only logs or reward logs
  // changed, the current progress.
  const record = (id: string | undefined) => after.find((r) => r.id === id) ?? null;
  const changedRecord = split ? record(split.id) : (after.find((r) => touched.has(r.id)) ?? current);
  return {
    progress: current,
    changed: changed ? changedRecord : null,
    splitFrom: record(split?.origin?.id),
    tasks: currentTasks,
    revoked,
  };
}

/** What a replay produced, and which stored record each of its runs continues. */
interface Replay {
  achieved: RewardSource[];
  /** Replayed run id → the stored record it continues, or itself when it is new. */
  ids: Map<string, string>;
  stored: ProgressRow[];
  /** The stored records' tasks as they were before the recompute. */
  storedTasks: readonly TaskProgressRow[];
  runs: ProgressRow[];
  tasks: readonly TaskProgressRow[];
  /** The member's reward logs of the definition that are not revoked, oldest first, locked. */
  standing: readonly RewardLogRow[];
}

/** Completes a replayed row with every column of its table, as a read from the database would. */
interface Fill {
  run<P extends ProgressRow>(row: P): P;
  task(row: TaskProgressRow): TaskProgressRow;
}

/**
 * The standings the progress triggers keep by growth only (a streak's best run, a mission's
 * completions), set from the member's records as the reversal left them, so leaderboards follow
 * (CONTRACT §15, §17). The others follow the progress rows' own updates.
 */
async function resetGrowthStandings(trx: Knex, kind: LogKind, accountId: string, definitionId: string, memberId: string, now: Date) {
  if (kind === 'challenge') return;
  const [rankBy, value] =
    kind === 'streak'
      ? [
          'longest_run',
          `select coalesce(max(current_progress_value), 0) from streak_progress where account_id = ? and streak_id = ? and owned_by_id = ?`,
        ]
      : [
          'completions',
          `select count(*) from mission_progress where account_id = ? and mission_id = ? and owned_by_id = ? and mission_progress_status = 'completed'`,
        ];
  await trx.raw(`select loyalty_standing_change(?, ?, ?, '', ?, 'set', (${value}), ?)`, [
    accountId,
    definitionId,
    rankBy,
    memberId,
    accountId,
    definitionId,
    memberId,
    now,
  ]);
}

/** The streak state the ingest's read would return, from the replay's rows. */
function streakState(runs: readonly ProgressRow[], tasks: readonly TaskProgressRow[], fill: Fill) {
  const all = runs.filter(isStreakRun);
  // From the end: the run in progress is the newest row; a replay leaves no task after its latest period.
  const progress = all.findLast((r) => r.streak_progress_status === 'in_progress');
  if (progress) {
    const task = tasks.findLast((t) => t.linked_schema_record_id === progress.id && t.period_key === progress.current_period_key);
    return { progress: fill.run(progress), tasks: task ? [fill.task(task)] : [] };
  }
  const latest = all.at(-1);
  return latest ? { latest: fill.run(latest) } : null;
}

/** The challenge windows the ingest's read would return: those in progress and the latest. */
function challengeState(runs: readonly ChallengeProgressRow[], fill: Fill) {
  const latest = runs.reduce<string | null>((max, r) => (max === null || r.period_key > max ? r.period_key : max), null);
  return runs
    .filter((r) => r.challenge_progress_status === 'in_progress' || r.period_key === latest)
    .sort((a, b) => (a.period_key < b.period_key ? -1 : a.period_key > b.period_key ? 1 : 0))
    .map((r) => fill.run(r));
}

/** The mission state the ingest's read would return, from the replay's rows. */
function missionState(runs: readonly MissionProgressRow[], tasks: readonly TaskProgressRow[], fill: Fill) {
  const progress = runs.find((r) => r.mission_progress_status === 'in_progress');
  const latest = runs.filter((r) => r.mission_progress_status !== 'in_progress').at(-1);
  return {
    run: progress
      ? { progress: fill.run(progress), tasks: tasks.filter((t) => t.linked_schema_record_id === progress.id).map(fill.task) }
      : null,
    completedOnce: runs.some((r) => r.mission_progress_status === 'completed'),
    latest: latest ? fill.run(latest) : null,
  };
}

/** Settles, on the replay, what the scheduler settles once the grace after a deadline has passed. */
function settleDue(records: Records, definition: Definition, writes: WriteSet, runs: ProgressRow[], zone: string, now: Date) {
  const cutoff = now.getTime() - records.lateLogGraceSeconds * 1000;
  const table = `${definition.kind}_progress`;
  if (definition.kind === 'streak')
    for (const row of runs.filter(isStreakRun)) {
      const settled = settleOverdue(row, definition.row, zone, now, records.lateLogGraceSeconds);
      if (settled) writes.update(table, row, settled.patch);
    }
  else if (definition.kind === 'challenge')
    for (const row of runs.filter(isChallengeWindow)) {
      if (
        row.challenge_progress_status === 'in_progress' &&
        row.challenge_to_be_failed_at &&
        row.challenge_to_be_failed_at.getTime() <= cutoff
      )
        writes.update(table, row, failedChallengePatch(row, zone, definition.row.aggregation_period, now));
    }
  else
    for (const row of runs.filter(isMissionRun))
      if (row.mission_progress_status === 'in_progress' && row.mission_to_be_failed_at && row.mission_to_be_failed_at.getTime() <= cutoff)
        writes.update(table, row, failedMissionPatch(row, now));
}

/** The stored record a replayed run continues: a challenge's window, or the latest run started at or before it. */
function continuedBy(stored: readonly ProgressRow[], run: ProgressRow): ProgressRow | undefined {
  if (isChallengeWindow(run)) return stored.find((s) => isChallengeWindow(s) && s.period_key === run.period_key);
  const start = startedAt(run).getTime();
  return stored.filter((s) => startedAt(s).getTime() <= start).at(-1);
}

/**
 * Which stored record each replayed run continues: a challenge's by its window; a streak's or a
 * mission's run the stored record that was under way when the run started (the latest one
 * started at or before it), unless an earlier run took it (a split). A split run takes a stored
 * record that started within it, before the next run, rather than leave that record empty while
 * its logs count in the run; without one it is new.
 */
function matchRuns(kind: LogKind, stored: ProgressRow[], replayed: ProgressRow[]): Map<string, string> {
  const ids = new Map<string, string>();
  const taken = new Set<string>();
  const startOf = (run: ProgressRow) => startedAt(run).getTime();
  const starts = kind === 'challenge' ? [] : replayed.map(startOf).sort((a, b) => a - b);
  for (const run of replayed) {
    let match = continuedBy(stored, run);
    if (match && taken.has(match.id) && kind !== 'challenge') {
      const start = startOf(run);
      const next = starts.find((t) => t > start) ?? Infinity;
      match = stored.find((s) => !taken.has(s.id) && startOf(s) >= start && startOf(s) < next);
    }
    if (match && !taken.has(match.id)) {
      taken.add(match.id);
      ids.set(run.id, match.id);
    } else ids.set(run.id, run.id);
  }
  return ids;
}

/**
 * Whether a stored streak run or mission none of whose logs survives is where the member's next
 * log would go: the latest record (of those not closed as of their start), under way or completed
 * before, and in the replay no run is under way or reaches its start (a log there would be refused
 * or would continue that run).
 */
function nextLogGoesTo(
  definition: Definition,
  row: ProgressRow,
  stored: readonly ProgressRow[],
  replayed: readonly ProgressRow[],
  zone: string,
) {
  // Records closed as of their start come before nothing: one emptied earlier may have started later.
  if (row !== stored.filter((r) => r === row || !isEmptied(r)).at(-1)) return false;
  if (definition.kind === 'streak') {
    if (!isStreakRun(row) || row.streak_progress_status === 'broken') return false;
    const period = definition.row.aggregation_period;
    const start = periodKey(row.streak_started_at, period, zone);
    return replayed.filter(isStreakRun).every((r) => r.streak_progress_status !== 'in_progress' && closedUpTo(r, period, zone) < start);
  }
  if (definition.kind !== 'mission' || !isMissionRun(row) || row.mission_progress_status === 'failed') return false;
  const repeatable = definition.row.is_repeatable;
  return replayed
    .filter(isMissionRun)
    .every(
      (r) =>
        r.mission_progress_status !== 'in_progress' &&
        (repeatable || r.mission_progress_status !== 'completed') &&
        (r.mission_failed_at ?? r.mission_completed_at)!.getTime() <= row.mission_started_at.getTime(),
    );
}

/**
 * The change that leaves a record none of whose logs survives at 0 (CONTRACT §17). A streak run or
 * mission where the member's next log would go (`reopens`, see `nextLogGoesTo`) stays in progress,
 * at 0, while its window is open (a streak's first period, a mission's window, until `cutoff`, the
 * scheduler's); otherwise it is closed as of its start (see `emptiedRunClosed`), as the scheduler or
 * the member's next log close it once its window has passed. A challenge window is keyed by its
 * period: it stays open while its period does, and fails once that has passed.
 */
function emptied(definition: Definition, row: ProgressRow, zone: string, now: Date, cutoff: number, reopens: boolean): Row {
  const r: Row = row;
  const patch: Row = {};
  if (!isMissionRun(row) && Number(row.current_progress_value ?? 0) !== 0) patch.current_progress_value = 0;
  // What the record is once emptied, whatever it was before (an earlier reversal, the scheduler may have closed it).
  const becomes = (values: Row) => {
    for (const [column, value] of Object.entries(values)) if (!same(r[column], value)) patch[column] = value;
  };
  if (definition.kind === 'streak' && isStreakRun(row)) {
    const period = definition.row.aggregation_period;
    const end = periodBounds(periodKey(row.streak_started_at, period, zone), period, zone).end;
    if (reopens && end.getTime() > cutoff)
      becomes({
        streak_progress_status: 'in_progress',
        current_period_key: null,
        last_completed_period_key: null,
        streak_to_be_broken_at: end,
        streak_broken_at: null,
        streak_completed_at: null,
        freezes_available: 0,
        freezes_used: 0,
        frozen_period_keys: [],
      });
    else {
      const { updated_at: _, ...closed } = emptiedRunClosed(row, period, zone, now);
      becomes(closed);
    }
  } else if (definition.kind === 'challenge' && isChallengeWindow(row)) {
    // A window already past, as the scheduler would settle it, fails at once; an open one is under way again.
    if (row.challenge_to_be_failed_at && row.challenge_to_be_failed_at.getTime() <= cutoff) {
      if (row.challenge_progress_status !== 'failed')
        Object.assign(patch, failedChallengePatch(row, zone, definition.row.aggregation_period, now), { challenge_completed_at: null });
    } else if (row.challenge_progress_status === 'completed')
      Object.assign(patch, { challenge_progress_status: 'in_progress', challenge_completed_at: null });
  } else if (isMissionRun(row)) {
    if (reopens && row.mission_to_be_failed_at!.getTime() > cutoff)
      becomes({
        mission_progress_status: 'in_progress',
        mission_failed_at: null,
        mission_completed_at: null,
        is_mission_to_be_failed_processed: false,
      });
    else {
      const { updated_at: _, ...closed } = emptiedMissionClosed(row, now);
      becomes(closed);
    }
  }
  return patch;
}

/**
 * Writes the replay's task rows over the stored ones: a streak's by period (a period belongs to
 * one run with logs, so a split moves it to the new record), a mission's by run and task. Stored
 * tasks the replay does not reach are left at 0. Returns the records whose tasks were written.
 */
async function reconcileTasks(
  trx: Knex,
  kind: LogKind,
  stored: TaskProgressRow[],
  replayed: readonly TaskProgressRow[],
  ids: Map<string, string>,
  columns: string[],
  now: Date,
): Promise<Set<string>> {
  if (kind === 'challenge') return new Set();
  const key = (t: TaskProgressRow, parent: string) => (kind === 'streak' ? String(t.period_key) : `${parent}/${String(t.task_id)}`);
  const byKey = new Map<string, TaskProgressRow>();
  for (const t of stored) {
    const k = key(t, t.linked_schema_record_id);
    // An emptied run's task, at 0, shares its period with the run a later log of it started: that one continues.
    if (Number(byKey.get(k)?.current_progress_value ?? 0) === 0) byKey.set(k, t);
  }
  const reached = new Set<string>();
  const inserts: Row[] = [];
  const updates: Row[] = [];
  for (const task of replayed) {
    const parent = ids.get(task.linked_schema_record_id)!;
    const k = key(task, parent);
    reached.add(k);
    const existing = byKey.get(k);
    if (!existing) {
      inserts.push({ ...task, linked_schema_record_id: parent, created_at: task.created_at ?? now, updated_at: now });
      continue;
    }
    const next: Row = { ...task, id: existing.id, created_at: existing.created_at, linked_schema_record_id: parent };
    if (Object.keys(differences(existing, next, columns)).length) updates.push({ ...next, updated_at: now });
  }
  for (const task of stored) {
    if (
      reached.has(key(task, task.linked_schema_record_id)) ||
      (task.current_progress_value === 0 && task.task_progress_status !== 'completed')
    )
      continue;
    updates.push({ ...task, current_progress_value: 0, task_progress_status: 'in_progress', completed_at: null, updated_at: now });
  }
  await overwriteRows(trx, 'task_progress', updates, columns);
  if (inserts.length) await trx('task_progress').insert(inserts);
  return new Set([...updates, ...inserts].map((t) => t.linked_schema_record_id as string));
}

/** Which of `runs` (by `idOf`) spans a streak period with its tasks' periods and its frozen ones. */
function runOfPeriod(runs: readonly ProgressRow[], tasks: readonly TaskProgressRow[], idOf: (run: ProgressRow) => string) {
  const spans = runs.map((run) => {
    const keys = [
      ...tasks.filter((t) => t.linked_schema_record_id === run.id).map((t) => String(t.period_key)),
      ...((isStreakRun(run) && run.frozen_period_keys) || []),
    ].sort();
    return { id: idOf(run), first: keys[0], last: keys.at(-1) };
  });
  return (key: string | null) => spans.find((s) => key !== null && s.first !== undefined && s.first <= key && key <= s.last!)?.id;
}

/**
 * Keeps the reward logs whose milestone the recomputed progress still reaches and revokes the
 * others (a code stays on its record; a pooled coupon is not returned). A run a split made anew
 * that reaches a milestone is given its own reward log, as a replay would.
 */
async function reconcileRewards(
  tx: Tx,
  definition: Definition,
  memberId: string,
  milestones: MilestoneRow[],
  replay: Replay,
  reason: string,
): Promise<RewardLogRow[]> {
  const { trx, account, now } = tx;
  const { achieved, ids, stored, storedTasks, runs: replayedRuns, tasks: replayedTasks, standing } = replay;
  // The replay reaches every milestone there is, live or not, with a reward or not, and a mission's
  // completion: a reward log stays only where it is still reached, also when the merchant paused
  // its milestone or changed its reward since. Only a deleted milestone's, whose target is gone,
  // stays as it is.
  const judged = new Set(milestones.map((m) => m.id));
  // What is reached anew gets a reward log only where one is given now.
  const givesNow = (a: RewardSource) =>
    a.rewardId !== null && (a.milestoneId === null || milestones.some((m) => m.id === a.milestoneId && m.status === 'live'));
  const logs = standing.filter((l) => (l.milestone_id === null ? definition.kind === 'mission' : judged.has(l.milestone_id)));
  // A streak period belongs to the run whose periods, counted or frozen, span it: a reward log to
  // the replayed run spanning the period it was issued in, or, when the reversal took that period
  // from every run, to the stored record that spanned it, as the replayed run continuing it.
  const inReplay = runOfPeriod(replayedRuns, replayedTasks, (run) => ids.get(run.id)!);
  const inStored = runOfPeriod(stored, storedTasks, (run) => run.id);
  const storedIds = new Set(stored.map((r) => r.id));
  // What a stored record had reached before the reversal: a milestone or completion it reaches
  // only now (a mission whose window starts later once its first log is reversed) is reached anew
  // and gets a reward log, as the log that reaches it would give; one it had reached without a
  // reward log (a milestone added since) gets none.
  const reachedBefore = (a: RewardSource, recordId: string) => {
    const record = stored.find((r) => r.id === recordId)!;
    if (a.milestoneId === null) return isMissionRun(record) && record.mission_progress_status === 'completed';
    const target = Number(milestones.find((m) => m.id === a.milestoneId)!.milestone_target_value);
    const value = isMissionRun(record)
      ? storedTasks.filter((t) => t.linked_schema_record_id === recordId && t.task_progress_status === 'completed').length
      : Number(record.current_progress_value);
    return value >= target;
  };
  const kept = new Set<string>();
  const fresh: RewardSource[] = [];
  for (const a of achieved) {
    const run = ids.get(a.progressId)!;
    const match = logs.find(
      (l) =>
        !kept.has(l.id) &&
        l.milestone_id === a.milestoneId &&
        (definition.kind === 'mission' ||
          (definition.kind === 'challenge' ? l.period_key === a.periodKey : (inReplay(l.period_key) ?? inStored(l.period_key)) === run)),
    );
    if (match) kept.add(match.id);
    else if (givesNow(a) && (!storedIds.has(run) || !reachedBefore(a, run))) fresh.push({ ...a, progressId: run });
  }
  const toRevoke = logs.filter((l) => !kept.has(l.id));
  // What revoked logs earned in points goes back with them (CONTRACT §19), which needs the attempt's
  // own transaction: asked for before anything is revoked, and only when something is.
  const locked = isTransaction(trx) ? trx : null;
  if (toRevoke.length && !locked) throw new NeedsLock();
  const revoked: RewardLogRow[] = [];
  for (const l of toRevoke) {
    const [row] = await trx<RewardLogRow>('reward_log')
      .where({ account_id: account.id, id: l.id })
      .update({ reward_log_status: 'revoked', revoked_at: now, revoked_reason: reason, updated_at: now })
      .returning('*');
    revoked.push(row!);
  }
  if (locked) await reverseRewardLogPoints(locked, tx.records, tx.ctx, account.id, revoked);
  // The replay's set is a scratch copy, never written: what issuing adds to a set (points entries and their events) is written here.
  const issuing: Tx = { ...tx, replay: undefined, writes: new WriteSet(account.id) };
  const issued: RewardLogRow[] = [];
  for (const source of fresh) {
    const log = await issueReward(issuing, source);
    if (log?.reward_log_status === 'issued') issued.push(log);
  }
  await issuing.writes.write(trx);
  // No log's answer or event carries these: announced as a held one is when confirmed (a pending one will be then).
  if (locked) await announceIssued(locked, tx.records, tx.ctx, account.id, issued);
  // Wakes idle workers at the commit, as the reversal's own events do.
  if (issuing.writes.emitsEvents) await wakeAtCommit(trx);
  issuing.issued.commit();
  return revoked;
}

/** The reversal's answer (CONTRACT §17), and its event when it changed a progress. */
async function respond(
  records: Records,
  trx: Knex.Transaction,
  ctx: RequestContext,
  kind: LogKind,
  log: LogRow,
  milestones: MilestoneRow[],
  change: Change,
): Promise<Record<string, unknown>> {
  const resource = (slug: string) => records.registry.require(slug);
  // Stored fields only where the answer does not join (the log's member and definition are the caller's own).
  const one = async (slug: string, row: Row | null, fields?: readonly string[]) =>
    row ? (await records.serialize(resource(slug), [row], ctx, { db: trx, fields }))[0]! : null;
  const many = async (slug: string, rows: Row[]) => (rows.length ? records.serialize(resource(slug), rows, ctx, { db: trx }) : []);
  const value = !change.progress
    ? 0
    : isMissionRun(change.progress)
      ? change.tasks.filter((t) => t.task_progress_status === 'completed').length
      : Number(change.progress.current_progress_value);
  // A mission progress carries its tasks inline, as everywhere else it is answered (CONTRACT §6).
  const progressFields = storedFields(records, `${kind}_progress`);
  const progressObject = (row: ProgressRow | null) =>
    one(`${kind}_progress`, row, kind === 'mission' ? [...progressFields, 'taskProgresses'] : progressFields);
  const progress = await progressObject(change.progress);
  const taskObjects = await many('task_progress', change.tasks);
  const revoked = await many('reward_log', change.revoked);
  const logObject = (await one(`${kind}_log`, log, [...storedFields(records, `${kind}_log`), 'reversals']))!;
  const current = change.progress;
  const streakTask = current && isStreakRun(current) ? (taskObjects.find((t) => t.periodKey === current.current_period_key) ?? null) : null;
  const data = {
    ...logObject,
    [`${kind}Progress`]: progress,
    taskProgress: kind === 'mission' ? taskObjects : kind === 'streak' ? streakTask : null,
    nextMilestone: await one(
      'milestone',
      nextMilestone(
        milestones.filter((m) => m.status === 'live'),
        value,
      ),
    ),
    revokedRewardLogs: revoked,
  };
  // The event names the record the reversal changed, which need not be the member's current one (CONTRACT §9, §17).
  if (change.changed) {
    await emit(trx, ctx.account!.id, [
      {
        code: `${kind}_progress_reversed`,
        ownedById: log.owned_by_id as string,
        linkedSchemaSlug: `${kind}_progress`,
        linkedSchemaRecordId: change.changed.id,
        payload: {
          [`${kind}Log`]: logObject,
          [`${kind}Progress`]: change.changed.id === change.progress?.id ? progress : await progressObject(change.changed),
          ...(change.splitFrom ? { splitFromProgress: await one(`${kind}_progress`, change.splitFrom, progressFields) } : {}),
          revokedRewardLogs: revoked,
        },
      },
    ]);
  }
  return data;
}
