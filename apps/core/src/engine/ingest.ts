import type { Knex } from 'knex';
import { isPlainObject, rowFromJson, rowsFromJson } from '../db/json.js';
import { ident, numbered, run } from '../db/prepared.js';
import { ApiError, databaseError, duplicateUniqueIdentifier, type ErrorDetail, invalidInput } from '../errors.js';
import type { NewEvent } from '../events/outbox.js';
import { notifyEventsCommitted } from '../events/wakeup.js';
import { count, IssueTally } from '../observability/metrics.js';
import { inSpan } from '../observability/trace.js';
import type { RequestContext } from '../records/context.js';
import type { Records, Row, Values } from '../records/resource.js';
import type { ChallengeRow, MilestoneRow, MissionRow, StreakRow } from '../schema/definitions.js';
import type { AccountUserRow, InlineMember } from '../schema/members.js';
import { aggregateChallenge, CHALLENGE_STATE } from './challenge.js';
import { memberLock, placeNewMember, upsertInlineMember } from './members.js';
import { aggregateMission, MISSION_STATE } from './mission.js';
import { progressEventPayload, storedFields } from './payloads.js';
import { periodKey } from './periods.js';
import { aggregateStreak, STREAK_STATE } from './streak.js';
import { heldOutOfSql, isHeldOut } from './holdout.js';
import {
  HeldRows,
  type LogKind,
  type LogRow,
  NeedsLock,
  notAggregated,
  type NotAggregatedReason,
  type Outcome,
  type ProgressEvent,
  type StateRead,
  type Tx,
} from './types.js';
import { isChangedSinceRead, WriteSet } from './writes.js';
import { transaction } from '../db/transaction.js';

const FUTURE_TOLERANCE_MS = 5 * 60_000;

/** The fields of a log body the engine reads, narrowed: the generic validation checked them before. */
interface LogInputValues {
  definitionId: string;
  ownedById: string | null;
  ownedBy: InlineMember | null;
  activityId: string;
  activityAt: Date;
  uniqueIdentifier: string;
  activityValue: number | null;
  status: string;
}

function logValues(kind: LogKind, values: Values): LogInputValues {
  const text = (name: string): string => {
    const v = values[name];
    if (typeof v !== 'string') throw new Error(`${name} of a ${kind} log reached the engine unvalidated`);
    return v;
  };
  const { ownedBy, activityValue, status } = values;
  return {
    definitionId: text(`${kind}Id`),
    ownedById: values.ownedById == null ? null : text('ownedById'),
    ownedBy: isPlainObject(ownedBy) && typeof ownedBy.externalId === 'string' ? { ...ownedBy, externalId: ownedBy.externalId } : null,
    activityId: text('activityId'),
    activityAt: new Date(text('activityAt')),
    uniqueIdentifier: text('uniqueIdentifier'),
    activityValue: typeof activityValue === 'number' ? activityValue : null,
    status: typeof status === 'string' ? status : 'live',
  };
}

function checkShape(values: LogInputValues, now: Date): void {
  const details: ErrorDetail[] = [];
  if ((values.ownedById === null) === (values.ownedBy === null)) {
    details.push({ field: 'ownedById', code: 'required', message: 'Send exactly one of ownedById and ownedBy.' });
  }
  if (values.activityAt.getTime() > now.getTime() + FUTURE_TOLERANCE_MS) {
    details.push({ field: 'activityAt', code: 'in_future', message: 'activityAt may be at most 5 minutes in the future.' });
  }
  if (details.length) throw invalidInput('The log is invalid.', details);
}

/** Attempts after the first, optimistic one; each runs under the lock, so one suffices but for sweeps. */
const MAX_ATTEMPTS = 8;

/**
 * Creates a streak, challenge or mission log and aggregates it (CONTRACT §8): the log, the member
 * upsert, the progress change, reward logs and event logs commit together. The first attempt reads
 * without locks and writes everything in one statement that fails if a row it read has changed
 * since. A log that issues a reward goes on from its reads in a transaction holding the member's
 * lock on the definition; one that lost a race or names its member inline is aggregated in such a
 * transaction from the start.
 */
export async function ingestLog(records: Records, ctx: RequestContext, kind: LogKind, values: Values): Promise<Record<string, unknown>> {
  return inSpan(`ingest ${kind}_log`, { 'loyalty.account_id': ctx.account!.id }, async () => {
    try {
      const response = await aggregateLog(records, ctx, kind, values);
      count.log(kind, response.isAggregated ? 'aggregated' : 'not_aggregated');
      return response;
    } catch (err) {
      if (err instanceof ApiError && err.status < 500)
        count.log(kind, err.code === 'duplicate_unique_identifier' ? 'duplicate' : 'refused');
      throw err;
    }
  });
}

async function aggregateLog(records: Records, ctx: RequestContext, kind: LogKind, body: Values): Promise<Record<string, unknown>> {
  const now = records.now();
  const values = logValues(kind, body);
  checkShape(values, now);
  // An inline member is upserted in the log's transaction, so a refused log leaves none behind.
  let locked = values.ownedBy !== null;
  for (let attempt = 1; ; attempt++) {
    const issued = new IssueTally();
    try {
      const { response, emitted } = locked
        ? await transaction(records.db, (trx) => attemptLog(records, trx, true, ctx, kind, values, now, issued))
        : await attemptLog(records, records.db, false, ctx, kind, values, now, issued);
      issued.commit();
      if (emitted) void notifyEventsCommitted(records.db);
      return response;
    } catch (err) {
      if (isDuplicateLog(err, kind)) throw await duplicate(records.db, kind, ctx.account!.id, values.definitionId, values.uniqueIdentifier);
      if (!isLostRace(err) || attempt > MAX_ATTEMPTS) throw err;
      count.writeRetry(kind);
      locked = true;
    }
  }
}

const isDuplicateLog = (err: unknown, kind: LogKind) => {
  const e = databaseError(err);
  return e?.code === '23505' && e.constraint === `${kind}_log_unique_identifier_unique`;
};

/** A row read changed, or a concurrent attempt created the same progress first. */
const isLostRace = (err: unknown) => isChangedSinceRead(err) || databaseError(err)?.code === '23505';

/** An attempt's outcome: the answer, and whether it wrote events (the workers are woken once it commits). */
type Attempt = { response: Record<string, unknown>; emitted: boolean };

/**
 * One attempt at a log. A locked one runs in the caller's transaction and reads under the lock. An
 * optimistic one reads without it and writes in one statement; when it reaches a reward, which
 * takes coupons and enters points in a transaction, it goes on from what it read in a transaction
 * under the lock instead of starting over: the write still fails as changed since read (and the
 * log is attempted again, locked throughout) when a row it read changed before the lock was taken.
 */
async function attemptLog(
  records: Records,
  trx: Knex,
  locked: boolean,
  ctx: RequestContext,
  kind: LogKind,
  values: LogInputValues,
  now: Date,
  issued: IssueTally,
): Promise<Attempt> {
  const accountId = ctx.account!.id;
  const inline = values.ownedBy
    ? await upsertInlineMember(trx, accountId, values.ownedBy, (id) => placeNewMember(trx, records, ctx, id))
    : undefined;
  const memberId = inline?.id ?? values.ownedById!;
  const read = await lookup(trx, kind, accountId, values.definitionId, memberId, locked);
  const decideIn = (db: Knex, underLock: boolean) =>
    decideLog({ records, trx: db, locked: underLock, ctx, kind, values, now, issued, memberId }, parseLookup(kind, read));
  if (locked) return decideIn(trx, true);
  try {
    return await decideIn(trx, false);
  } catch (err) {
    if (!(err instanceof NeedsLock)) throw err;
  }
  return transaction(records.db, async (t) => {
    await lockAggregation(t, kind, values.definitionId, memberId);
    return decideIn(t, true);
  });
}

interface DecideArgs {
  records: Records;
  trx: Knex;
  locked: boolean;
  ctx: RequestContext;
  kind: LogKind;
  values: LogInputValues;
  now: Date;
  issued: IssueTally;
  memberId: string;
}

/** What a log does with what the lookup read: its aggregation, answer, events and write. */
async function decideLog(
  { records, trx, locked, ctx, kind, values, now, issued, memberId }: DecideArgs,
  { found, milestones, member, state }: ReturnType<typeof parseLookup>,
): Promise<Attempt> {
  const account = ctx.account!;
  const tx: Tx = { trx, ctx, records, account, now, writes: new WriteSet(account.id), locked, issued, held: new HeldRows() };
  const { definitionId, activityId, activityAt } = values;
  if (!locked) tx.writes.yieldTo(aggregationLock(kind, definitionId, memberId));
  tx.writes.shareWith(memberLock(memberId));
  if (!found)
    throw invalidInput(`No ${kind} with this id.`, [
      { field: `${kind}Id`, code: 'not_found', message: `No ${kind} record with id ${definitionId}.` },
    ]);
  if (!member)
    throw invalidInput('No member with this id.', [
      { field: 'ownedById', code: 'not_found', message: `No account_user record with id ${memberId}.` },
    ]);
  tx.held!.add('milestone', milestones);
  tx.held!.add('account_user', [member]);
  const definition = found.row;
  const method = methodOf(found, activityId);
  if (method === 'sum' && values.activityValue == null) {
    throw invalidInput('activityValue is required for sum aggregation.', [
      { field: 'activityValue', code: 'required', message: 'Required when the aggregation method is sum.' },
    ]);
  }

  const zone = member.timezone ?? account.timezone ?? 'UTC';
  const status = values.status;
  const value = method === 'sum' ? values.activityValue! : 1;
  const input = { memberId, activityAt, value, zone, milestones, state };
  let outcome: Outcome;
  const refused = refusal(status, definition, member);
  if (refused) outcome = notAggregated(refused);
  else if (found.kind === 'streak') outcome = await aggregateStreak(tx, { ...input, definition: found.row });
  else if (found.kind === 'challenge') outcome = await aggregateChallenge(tx, { ...input, definition: found.row });
  else outcome = await aggregateMission(tx, { ...input, definition: found.row, activityId });

  const [logRow] = tx.writes.insert<LogRow>(`${kind}_log`, [
    {
      [`${kind}_id`]: definitionId,
      owned_by_id: memberId,
      activity_id: activityId,
      activity_at: activityAt,
      unique_identifier: values.uniqueIdentifier,
      activity_value: values.activityValue ?? null,
      status,
      is_aggregated: outcome.aggregated,
      not_aggregated_reason: outcome.reason,
      period_key: kind === 'mission' ? null : periodKey(activityAt, definition.aggregation_period, zone),
    },
  ]);

  const response = await buildResponse(tx, kind, logRow!, definition, member, milestones, outcome);
  // Events feed the member's notifications: their texts are in the member's language.
  const memberLanguage = member.language_code;
  const payloadLog =
    memberLanguage && memberLanguage !== (ctx.languageCode ?? account.defaultLanguageCode)
      ? await buildResponse(
          { ...tx, ctx: { ...ctx, languageCode: memberLanguage } },
          kind,
          logRow!,
          definition,
          member,
          milestones,
          outcome,
        )
      : response;
  const eventCtx = memberLanguage ? { ...ctx, languageCode: memberLanguage } : ctx;
  const aboutProgress = async (e: ProgressEvent): Promise<NewEvent> => ({
    code: e.code,
    ownedById: memberId,
    linkedSchemaSlug: `${kind}_progress`,
    linkedSchemaRecordId: e.progress.id,
    payload: await progressEventPayload(records, trx, eventCtx, kind, e),
  });
  const events: NewEvent[] = [];
  for (const e of outcome.before) events.push(await aboutProgress(e));
  for (const code of outcome.codes) {
    events.push({
      code,
      ownedById: memberId,
      linkedSchemaSlug: `${kind}_progress`,
      linkedSchemaRecordId: outcome.progress!.id,
      payload: { [`${kind}Log`]: payloadLog },
    });
  }
  for (const e of outcome.after) events.push(await aboutProgress(e));
  tx.writes.emit(events);
  await tx.writes.write(trx);
  return { response, emitted: tx.writes.emitsEvents };
}

/** Why a log does not reach its definition's rules at all (CONTRACT §18), in the contract's order; null when it does. */
function refusal(
  status: string,
  definition: { id: string; status: string; holdout_percent: number },
  member: AccountUserRow,
): NotAggregatedReason | null {
  if (status !== 'live') return 'log_not_live';
  if (definition.status !== 'live') return 'definition_not_live';
  if (member.status !== 'live') return 'member_not_live';
  if (isHeldOut(definition, member.external_id)) return 'holdout';
  return null;
}

const STATE: Record<LogKind, StateRead> = { streak: STREAK_STATE, challenge: CHALLENGE_STATE, mission: MISSION_STATE };

/** The advisory lock under which one member's logs on one definition aggregate one at a time. */
const aggregationLock = (kind: LogKind, definitionId: string, memberId: string) => `${kind}:${definitionId}:${memberId}`;

/**
 * Takes, for the transaction, the lock under which one member's logs on one definition change one
 * at a time, and shares the member against its erasure; callers take it before any row lock.
 */
export async function lockAggregation(trx: Knex, kind: LogKind, definitionId: string, memberId: string): Promise<void> {
  await run(trx, {
    text: 'select pg_advisory_xact_lock(hashtextextended($1, 0)), pg_advisory_xact_lock_shared(hashtextextended($2, 0))',
    values: [aggregationLock(kind, definitionId, memberId), memberLock(memberId)],
  });
}

/**
 * Tries the locks `lockAggregation` takes, for a caller that holds row locks already and so may not
 * wait for them (a log or an erasure under way would wait for its rows): false when either is held.
 */
export async function tryLockAggregation(trx: Knex, kind: LogKind, definitionId: string, memberId: string): Promise<boolean> {
  const [row] = await run<{ mine: boolean; shared: boolean }>(trx, {
    text: 'select pg_try_advisory_xact_lock(hashtextextended($1, 0)) as mine, pg_try_advisory_xact_lock_shared(hashtextextended($2, 0)) as shared',
    values: [aggregationLock(kind, definitionId, memberId), memberLock(memberId)],
  });
  return row!.mine && row!.shared;
}

/**
 * The member's `heldOutOf` (CONTRACT §18), read with the lookup so that the log's answer does not
 * ask for it again (the account_user load hook takes it from the row).
 */
const HELD_OUT_OF = `(select ${heldOutOfSql('?', 'u.external_id')} from account_user u where u.account_id = ? and u.id = ?)`;

/** The lookup statement of each kind, numbered once. */
const LOOKUP = Object.fromEntries(
  (Object.keys(STATE) as LogKind[]).map((kind) => [
    kind,
    numbered(
      `select
         (select row_to_json(d) from ${ident(kind)} d where d.account_id = ? and d.id = ?) as definition,
         (select coalesce(json_agg(m order by m.milestone_target_value), '[]'::json) from milestone m
           where m.account_id = ? and m.linked_schema_record_id = ? and m.status = 'live') as milestones,
         (select row_to_json(u) from account_user u where u.account_id = ? and u.id = ?) as member,
         ${HELD_OUT_OF} as held_out_of,
         ${STATE[kind].sql} as state`,
    ),
  ]),
) as Record<LogKind, string>;

/**
 * The definition, its live milestones (ascending), the member and the member's progress on the
 * definition, in one statement. A locked attempt first takes the lock under which one member's
 * logs on one definition aggregate one at a time, so that its reads see every earlier log.
 */
async function lookup(trx: Knex, kind: LogKind, accountId: string, definitionId: string, memberId: string, lock: boolean) {
  if (lock) await lockAggregation(trx, kind, definitionId, memberId);
  const values = [
    accountId,
    definitionId,
    accountId,
    definitionId,
    accountId,
    memberId,
    accountId,
    accountId,
    accountId,
    accountId,
    memberId,
    ...STATE[kind].bindings(accountId, definitionId, memberId),
  ];
  const [row] = await run<LookupRow>(trx, { text: LOOKUP[kind], values });
  return row!;
}

interface LookupRow {
  definition: unknown;
  milestones: unknown;
  member: unknown;
  held_out_of: string[];
  state: unknown;
}

/** The lookup's rows, made anew for each use: an aggregation may change those it is given (the state's, it copies as it reads them). */
function parseLookup(kind: LogKind, row: LookupRow) {
  return {
    found: definitionOf(kind, row.definition),
    milestones: rowsFromJson<MilestoneRow>(row.milestones),
    member: withHeldOutOf(rowFromJson<AccountUserRow>(row.member), row.held_out_of),
    state: row.state,
  };
}

const withHeldOutOf = (member: AccountUserRow | undefined, heldOutOf: string[]) => member && { ...member, heldOutOf };

/** A definition with its kind, so that each kind's aggregation receives its own row type. */
export type Definition =
  { kind: 'streak'; row: StreakRow } | { kind: 'challenge'; row: ChallengeRow } | { kind: 'mission'; row: MissionRow };

/** How a log of the definition counts: its aggregation method, a mission's by the log's task (none matching: count). */
export function methodOf(definition: Definition, activityId: string): 'count' | 'sum' {
  if (definition.kind !== 'mission') return definition.row.aggregation_method;
  return definition.row.tasks.find((t) => t.activityId === activityId)?.aggregationMethod ?? 'count';
}

export function definitionOf(kind: LogKind, json: unknown): Definition | undefined {
  if (kind === 'streak') {
    const row = rowFromJson<StreakRow>(json);
    return row && { kind, row };
  }
  if (kind === 'challenge') {
    const row = rowFromJson<ChallengeRow>(json);
    return row && { kind, row };
  }
  const row = rowFromJson<MissionRow>(json);
  return row && { kind, row };
}

async function duplicate(db: Knex, kind: LogKind, accountId: string, definitionId: string, uniqueIdentifier: string): Promise<ApiError> {
  const existing = await db<LogRow>(`${kind}_log`)
    .where({ account_id: accountId, [`${kind}_id`]: definitionId, unique_identifier: uniqueIdentifier })
    .first('id');
  return duplicateUniqueIdentifier(undefined, [
    { field: 'uniqueIdentifier', code: 'duplicate', message: 'Already used for this definition.', existingRecordId: existing?.id },
  ]);
}

/** The log create response of CONTRACT §8, serialised inside the transaction from rows at hand. */
export async function buildResponse(tx: Tx, kind: LogKind, log: Row, definition: Row, member: Row, milestones: Row[], outcome: Outcome) {
  const { records, ctx, trx } = tx;
  const known = tx.held?.known;
  const stored = (slug: string) => storedFields(records, slug);
  const progressSlug = `${kind}_progress`;
  const part =
    (slug: string, rows: (Row | null)[], fields?: readonly string[]): Part =>
    () => {
      const present = rows.filter((row): row is Row => row !== null);
      return present.length ? records.serializeSoon(records.registry.require(slug), present, ctx, { db: trx, fields, known }) : [];
    };
  const [
    milestoneObjects,
    [definitionObject],
    [progress],
    progressTasks,
    achieved,
    rewardLogs,
    taskProgress,
    [logObject],
    [ownedBy],
    [next],
    [rewardLog],
  ] = await inTurn([
    part('milestone', milestones),
    part(kind, [definition], stored(kind)),
    part(progressSlug, [outcome.progress], stored(progressSlug)),
    // A mission's tasks as this log leaves them: they are not written yet, so not read back.
    part('task_progress', kind === 'mission' && outcome.progress ? outcome.progressTasks : []),
    part('milestone', outcome.achieved),
    part('reward_log', outcome.milestoneRewardLogs),
    part('task_progress', outcome.taskProgress),
    part(`${kind}_log`, [log], stored(`${kind}_log`)),
    part('account_user', [member]),
    part('milestone', [outcome.nextMilestone]),
    part('reward_log', [outcome.rewardLog]),
  ]);
  if (progress && kind === 'mission') progress.taskProgresses = progressTasks;
  return {
    ...logObject,
    [kind]: { ...definitionObject, milestones: milestoneObjects },
    ownedBy: ownedBy ?? null,
    [`${kind}Progress`]: progress ?? null,
    taskProgress: kind === 'mission' ? taskProgress : kind === 'streak' ? (taskProgress[0] ?? null) : null,
    achievedMilestone: achieved.at(-1) ?? null,
    achievedMilestones: achieved,
    nextMilestone: next ?? null,
    achievedMilestoneRewardLog: rewardLogs.at(-1) ?? null,
    achievedMilestoneRewardLogs: rewardLogs,
    rewardLog: rewardLog ?? null,
  };
}

type Objects = Record<string, unknown>[];
type Part = () => Objects | Promise<Objects>;

/** Serializes the parts one after the other (a load may read on the transaction's one connection), awaiting only those that load. */
async function inTurn<T extends Part[]>(parts: [...T]): Promise<{ [K in keyof T]: Objects }> {
  const done: Objects[] = [];
  for (const part of parts) {
    const objects = part();
    done.push(objects instanceof Promise ? await objects : objects);
  }
  return done as { [K in keyof T]: Objects };
}
