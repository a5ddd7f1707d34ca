import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { overwriteRows } from '../db/rows.js';
import { announceIssued } from './announce.js';
import { rowFromJson } from '../db/json.js';
import { ident, numbered, run } from '../db/prepared.js';
import { z } from 'zod';
import { duplicateUniqueIdentifier, insufficientPoints, invalidInput, notReversible } from '../errors.js';
import { emit, EVENTS_INSERT_SQL, eventsInsert, type NewEvent, NOTIFY_BINDINGS, NOTIFY_SQL } from '../events/outbox.js';
import type { RequestContext } from '../records/context.js';
import type { Records, Row } from '../records/resource.js';
import { bodyOrEmpty, issueDetails } from '../records/validate.js';
import type { AccountUserRow } from '../schema/members.js';
import type { MemberPointsColumns, PointEntryRow, PointReason, PointsSettingRow, TierRow } from '../schema/points.js';
import type { RewardLogRow, RewardRow } from '../schema/rewards.js';
import { issuedFields, takeCodes } from './codes.js';
import { heldOutOfSql } from './holdout.js';
import type { HeldRows } from './types.js';
import { withVersion, type WriteSet } from './writes.js';
import { IssueTally } from '../observability/metrics.js';
import { utcDate } from './periods.js';

/** Point entries are written only in a transaction, which holds the member's row lock from the entry's read to its commit. */
export const isTransaction = (db: Knex): db is Knex.Transaction => db.isTransaction === true;

export interface NewEntry {
  ownedById: string;
  points: number;
  reason: PointReason;
  note?: string | null;
  uniqueIdentifier?: string | null;
  linkedSchemaSlug?: string | null;
  linkedSchemaRecordId?: string | null;
  /** A `reversed` entry's: when the `earned` entry it takes back was made (the tier window counts it only while that one is in it). */
  takesBackEarnedAt?: Date;
}

export type Tier = TierRow & Row;
export type Member = AccountUserRow & MemberPointsColumns & Row;

/** A member's move from one tier (null: none) to another (null: none, only by the daily pass). */
export interface TierChange {
  before: Tier | null;
  after: Tier | null;
}

export interface Entered {
  entry: PointEntryRow & Row;
  /** The member as the entry leaves it (its event shows this). */
  member: Member;
  tierChange: TierChange | null;
  /** The balance once the entry and what it set off (a tier's entry reward of points) are written: what the request answers. */
  pointsBalance: number;
}

/** Whether the account has turned points on; an account without a setting row has not. */
export async function pointsLive(db: Knex, accountId: string): Promise<boolean> {
  const setting = await db<PointsSettingRow>('points_setting').where({ account_id: accountId }).first('status');
  return setting?.status === 'live';
}

/** The account's live tiers, highest threshold first (the first created first among equals): the order the rule reads them in. */
export const liveTiers = (db: Knex, accountId: string) =>
  db<Tier>('tier')
    .where({ account_id: accountId, status: 'live' })
    .orderBy([{ column: 'points_threshold', order: 'desc' }, { column: 'created_at' }, { column: 'id' }]);

/** `at` plus calendar months in UTC, the day kept within the month (Jan 31 + 1 month: Feb 28), as luxon counts; luxon per member cost more than the rest of the pass. The storefront's `pointsExpiry` (view model) counts the same way. */
export function plusMonths(at: Date, months: number): Date {
  const d = new Date(at);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  d.setUTCDate(Math.min(day, new Date(utcDate(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate()));
  return d;
}

/** The tier rule (CONTRACT §19): the highest live tier whose threshold `earnedInWindow` reaches; null when none does. */
export const tierFor = <T extends Pick<Tier, 'points_threshold'>>(tiers: readonly T[], earnedInWindow: number): T | null =>
  tiers.find((t) => t.points_threshold <= earnedInWindow) ?? null;

/** A tier as the entry's read carries it (JSON): what the rule and the multiplier need. */
type TierFacts = Pick<Tier, 'id' | 'status' | 'points_threshold' | 'earn_multiplier'>;

/** An earned entry times the tier's multiplier, rounded down (one decimal multipliers: no float drift below the integer). */
const multiplied = (points: number, tier: TierFacts | null) =>
  tier?.status === 'live' ? Math.floor(points * Number(tier.earn_multiplier) + 1e-9) : points;

const TIER_FACTS = `json_build_object('id', t.id, 'status', t.status, 'points_threshold', t.points_threshold, 'earn_multiplier', t.earn_multiplier)`;

/** What deciding an entry needs: the member, locked, whether points are live, its tier as stored and the live tiers. */
export interface EntryRead {
  member: Member;
  live: boolean;
  /** The member's tier as stored, live or not (a paused tier multiplies nothing). */
  current: TierFacts | null;
  /** Highest threshold first (the first created first among equals): the order the rule reads them in. */
  tiers: TierFacts[];
}

const HELD_OUT_OF = `
      'held_out_of', ${heldOutOfSql('?', 'u.external_id')},`;

/**
 * The entry's read of a member as one JSON value, locking the member for the rest of the
 * transaction (every entry of one member waits for the one before it), with the member's
 * `heldOutOf` (§18) unless the caller has it already, so an answer naming the member reads nothing
 * more. Its placeholders take `entryReadParams` of the same `heldOutOf`; `condition` may hold
 * another SQL condition on the outer query, so a larger statement reads and locks the member only
 * when it needs to.
 */
export const entryReadSql = (condition = 'true', heldOutOf = true) =>
  `(select json_build_object(
      'member', row_to_json(u), 'version', u.xmin::text,${heldOutOf ? HELD_OUT_OF : ''}
      'live', (select s.status = 'live' from points_setting s where s.account_id = u.account_id),
      'tiers', (select coalesce(json_agg(${TIER_FACTS} order by t.points_threshold desc, t.created_at, t.id), '[]')
                  from tier t where t.account_id = u.account_id and (t.status = 'live' or t.id = u.tier_id)))
     from account_user u where u.account_id = ? and u.id = ? and ${condition} for update of u)`;

/** The values of `entryReadSql`'s placeholders, in order. */
export const entryReadParams = (accountId: string, memberId: string, heldOutOf = true) => [
  ...(heldOutOf ? [accountId, accountId, accountId] : []),
  accountId,
  memberId,
];

/** The read from `entryReadSql`'s JSON; undefined when the member does not exist. */
export function entryRead(json: unknown): EntryRead | undefined {
  if (!json || typeof json !== 'object') return undefined;
  const read = json as { member: unknown; version: string; held_out_of?: string[]; live: boolean | null; tiers: TierFacts[] };
  const member = withVersion(
    { ...rowFromJson<Member>(read.member)!, ...(read.held_out_of ? { heldOutOf: read.held_out_of } : {}) },
    read.version,
  );
  // The live tiers, and the member's own tier whatever its status.
  const current = read.tiers.find((t) => t.id === member.tier_id) ?? null;
  return { member, live: read.live === true, current, tiers: read.tiers.filter((t) => t.status === 'live') };
}

const LOCK_MEMBER_SQL = numbered(`select ${entryReadSql()} as read`);

/** 400 for an entry's member that is not in the account (CONTRACT §3: a body referencing a record that does not exist). */
export const unknownMember = (id: string) =>
  invalidInput('The body references records that do not exist.', [
    { field: 'ownedById', code: 'not_found', message: `No account_user record with id ${id}.` },
  ]);

/**
 * The member a member's action is for: an end user's own (they may not name another), an API key's
 * `ownedById` (required). `what` says the action for the refusal ("An end user redeems for themselves").
 */
export function actingMember(ctx: RequestContext, ownedById: string | undefined, what: string): string {
  if (ctx.flow === 'enduser' && ownedById !== undefined)
    throw invalidInput(`An end user ${what} for themselves.`, [
      { field: 'ownedById', code: 'not_allowed', message: 'Leave ownedById out: the token names the member.' },
    ]);
  const memberId = ctx.flow === 'enduser' ? ctx.memberId : ownedById;
  if (memberId === undefined)
    throw invalidInput('ownedById is required.', [{ field: 'ownedById', code: 'required', message: '"ownedById" is required.' }]);
  return memberId;
}

/** The member's entry read (`entryReadSql`), locked; undefined when the member is not in the account. */
export async function lockMember(trx: Knex.Transaction, accountId: string, memberId: string): Promise<EntryRead | undefined> {
  const [row] = await run<{ read: unknown }>(trx, {
    text: LOCK_MEMBER_SQL,
    values: entryReadParams(accountId, memberId),
  });
  return entryRead(row?.read);
}

/** Tiers by id, whole, for a tier change's event and entry reward (rare: the entry's read carries only their facts). */
async function tiersById(trx: Knex.Transaction, accountId: string, ids: string[]): Promise<Map<string, Tier>> {
  const rows = await trx<Tier>('tier').where({ account_id: accountId }).whereIn('id', ids);
  return new Map(rows.map((t) => [t.id, t]));
}

/** Who writes an entry, so its event is written as an API key reads it. */
export interface Announce {
  records: Records;
  ctx: RequestContext;
}

/** Whether an entry may be written while points are not live, or what happens when they are not. */
export type WhenNotLive = 'write' | 'skip' | (() => Error);

interface EntryOptions {
  whenNotLive?: WhenNotLive;
  announce?: Announce;
  /** The member's read, when the caller's statement already took it (`entryReadSql`). */
  read?: EntryRead;
  /**
   * The caller's write set (a log's aggregation), written by one statement at its end: the entry,
   * the member's row and the entry's event go into it instead of a statement of their own, and
   * delivery is woken after the commit (a wake-up inside the transaction would make every commit
   * with one wait for the others'). The read's row lock keeps the member as read until then; a
   * later entry of the member in the same set starts from what the set will write. Not for an
   * entry with a uniqueIdentifier, whose replay needs a statement of its own to answer 409.
   */
  writes?: WriteSet;
}

/**
 * Writes one point entry and moves the member's balance with it, in the caller's transaction, under
 * the member's row lock: so no two entries of a member decide on the same balance, and nothing but
 * a `reversed` entry takes it below 0 (→ 409 `insufficient_points`; a member below 0 still gets
 * what adds points). `pointsEarnedInTierWindow` moves with `earned` entries and the `reversed` ones
 * taking back an earned one still in the window. An `earned` entry is
 * multiplied by the member's live tier. After every entry the tier rule is applied, upwards only
 * (lowering is the daily pass's), which may reach a tier created since. An unknown member is 400.
 * O(1) in the member's entries: what the daily pass needs is kept on the member's row.
 *
 * Two round trips: the member's locked read, then one statement that inserts the entry, updates
 * the member and, when `announce` is given, writes the entry's event (a tier change follows in its
 * own statements). A replayed uniqueIdentifier inserts nothing (ON CONFLICT on the partial unique
 * index, which waits for a racing insert of the same identifier) and changes nothing: 409.
 * `whenNotLive` 'skip' writes nothing (null) while points are not live; a function names the error.
 */
export async function addEntry(
  trx: Knex.Transaction,
  accountId: string,
  entry: NewEntry,
  options: EntryOptions & { whenNotLive: 'skip' },
): Promise<Entered | null>;
export async function addEntry(
  trx: Knex.Transaction,
  accountId: string,
  entry: NewEntry,
  options?: EntryOptions & { whenNotLive?: Exclude<WhenNotLive, 'skip'> },
): Promise<Entered>;
export async function addEntry(
  trx: Knex.Transaction,
  accountId: string,
  entry: NewEntry,
  options: EntryOptions = {},
): Promise<Entered | null> {
  const read = options.read ?? (await lockMember(trx, accountId, entry.ownedById));
  if (!read) throw unknownMember(entry.ownedById);
  const { tiers } = read;
  const member = options.writes ? options.writes.current('account_user', read.member) : read.member;
  // An earlier entry of the set may have lifted the member: its tier (a live one) multiplies this entry.
  const current = member.tier_id === read.member.tier_id ? read.current : (tiers.find((t) => t.id === member.tier_id) ?? null);
  const whenNotLive = options.whenNotLive ?? 'write';
  if (!read.live && whenNotLive !== 'write') {
    if (whenNotLive === 'skip') return null;
    // A replay is told it is one, whatever the points are now.
    await refuseReplay(trx, accountId, entry);
    throw whenNotLive();
  }
  // The member's tier at the time: the one its window reaches already when that is higher than the
  // stored one, as a member new since the tiers were set up is in the tier at 0 before any entry.
  const ruled = tierFor(tiers, Number(member.points_earned_in_tier_window));
  const at = ruled && (!current || ruled.points_threshold > current.points_threshold) ? ruled : current;
  if (entry.reason === 'earned') entry = { ...entry, points: multiplied(entry.points, at) };
  const balance = Number(member.points_balance) + entry.points;
  // Only a taking away can be refused: a member below 0 (after a reversal) still earns and is given points.
  if (balance < 0 && entry.points < 0 && entry.reason !== 'reversed') {
    // A replay is told it is one, whatever the balance is now.
    await refuseReplay(trx, accountId, entry);
    throw insufficientPoints(`The member has ${member.points_balance} points; this needs ${-entry.points}.`, [
      {
        field: 'points',
        code: 'insufficient_points',
        message: `The balance is ${member.points_balance}.`,
        pointsBalance: member.points_balance,
      },
    ]);
  }
  const windowed =
    entry.reason === 'earned' || (entry.reason === 'reversed' && (await inTierWindow(trx, accountId, entry.takesBackEarnedAt)));
  const inWindow = Math.max(0, Number(member.points_earned_in_tier_window) + (windowed ? entry.points : 0));
  const reached = tierFor(tiers, inWindow);
  const rises = reached && reached.id !== member.tier_id && (!current || reached.points_threshold > current.points_threshold);
  // The database's clock would be the transaction's start: the entry is as new as the member's write says it is.
  const now = new Date();
  const row: PointEntryRow & Row = {
    id: randomUUID(),
    account_id: accountId,
    owned_by_id: entry.ownedById,
    points: entry.points,
    reason: entry.reason,
    note: entry.note ?? null,
    unique_identifier: entry.uniqueIdentifier ?? null,
    linked_schema_slug: entry.linkedSchemaSlug ?? null,
    linked_schema_record_id: entry.linkedSchemaRecordId ?? null,
    created_at: now,
    updated_at: now,
  };
  const updated: Member = {
    ...member,
    points_balance: balance,
    points_earned_in_tier_window: inWindow,
    last_point_entry_at: now,
    // A new inactivity period: its expiry is announced anew.
    points_expiry_warned_for: null,
    points_window_oldest_at: windowed && !member.points_window_oldest_at ? now : member.points_window_oldest_at,
    tier_id: rises ? reached.id : member.tier_id,
  };
  let tierChange: TierChange | null = null;
  if (rises) {
    const whole = await tiersById(trx, accountId, [reached.id, ...(current ? [current.id] : [])]);
    tierChange = { before: current ? whole.get(current.id)! : null, after: whole.get(reached.id)! };
  }
  const entered: Entered = { entry: row, member: updated, tierChange, pointsBalance: balance };
  const event = options.announce ? await entryEvent(trx, options.announce, entered) : null;
  const { writes } = options;
  if (writes) {
    if (row.unique_identifier !== null) throw new Error('An entry with a uniqueIdentifier is written by a statement of its own.');
    writes.insert('point_entry', [row]);
    writes.update<Member>('account_user', member, memberPatch(updated));
    if (event) writes.emit([event]);
  } else if (!(await writeEntry(trx, entered, event))) throw replayed(await entryWith(trx, accountId, entry), entry.ownedById);
  if (options.announce) await followTierChange(trx, options.announce, entered, writes && { writes, read: read.member });
  return entered;
}

/**
 * Whether an `earned` entry made at `earnedAt` is within the account's tier window now (CONTRACT
 * §19: the window holds `earned` entries less the `reversed` ones taking them back), so taking it
 * back lowers the window; one that left the window took its points out of it already.
 */
async function inTierWindow(trx: Knex.Transaction, accountId: string, earnedAt: Date | undefined): Promise<boolean> {
  if (!earnedAt) return true;
  const setting = await trx<PointsSettingRow>('points_setting').where({ account_id: accountId }).first('tier_window_months');
  const months = setting?.tier_window_months ?? 0;
  return months === 0 || earnedAt > plusMonths(new Date(), -months);
}

/** An entry's columns, as `addEntry` makes its row. */
const ENTRY_COLUMNS = [
  'id',
  'account_id',
  'owned_by_id',
  'points',
  'reason',
  'note',
  'unique_identifier',
  'linked_schema_slug',
  'linked_schema_record_id',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof (PointEntryRow & Row))[];

/** What an entry changes on its member's row. */
const MEMBER_COLUMNS = [
  'points_balance',
  'points_earned_in_tier_window',
  'last_point_entry_at',
  'points_expiry_warned_for',
  'points_window_oldest_at',
  'tier_id',
] as const satisfies readonly (keyof Member)[];

const memberPatch = (member: Member): Partial<Member> => Object.fromEntries(MEMBER_COLUMNS.map((c) => [c, member[c]]));

/**
 * The entry, the member's new balance, window and tier, and the entry's event (`withEvent`): one
 * statement, its text made once. A replayed uniqueIdentifier inserts nothing, and no row comes back.
 */
const WRITE_ENTRY_SQL = (() => {
  let n = 0;
  const next = () => `$${++n}`;
  const base = `with e as (
      insert into point_entry (${ENTRY_COLUMNS.map(ident).join(', ')}) values (${ENTRY_COLUMNS.map(next).join(', ')})
      on conflict (account_id, (reason = 'redeemed'), unique_identifier) where unique_identifier is not null do nothing returning id
    ), m as (
      update account_user set ${MEMBER_COLUMNS.map((c) => `${ident(c)} = ${next()}`).join(', ')}
      where account_id = ${next()} and id = ${next()} and exists (select 1 from e) returning 1
    )`;
  const event = numbered(EVENTS_INSERT_SQL, n);
  const notify = numbered(NOTIFY_SQL, n + EVENTS_INSERT_SQL.split('?').length - 1);
  return {
    plain: `${base} select 1 as written from e`,
    withEvent: `${base}, ev as (${event} where exists (select 1 from e)) select ${notify} as woken from e`,
  };
})();

/** Writes an entry by WRITE_ENTRY_SQL. False when a replay inserted nothing. */
async function writeEntry(trx: Knex.Transaction, { entry, member }: Entered, event: NewEvent | null): Promise<boolean> {
  const values: unknown[] = [...ENTRY_COLUMNS.map((c) => entry[c]), ...MEMBER_COLUMNS.map((c) => member[c]), member.account_id, member.id];
  if (event) values.push(...eventsInsert(entry.account_id, [event]).bindings, ...NOTIFY_BINDINGS);
  return (await run(trx, { text: event ? WRITE_ENTRY_SQL.withEvent : WRITE_ENTRY_SQL.plain, values })).length > 0;
}

type Holder = Pick<PointEntryRow, 'id' | 'owned_by_id' | 'reason' | 'linked_schema_record_id'>;

/** The entry holding the entry's uniqueIdentifier, if any: among redemptions for a redemption, else among the others (CONTRACT §19). */
async function entryWith(
  trx: Knex.Transaction,
  accountId: string,
  entry: Pick<NewEntry, 'reason' | 'uniqueIdentifier'>,
): Promise<Holder | undefined> {
  const redemption = entry.reason === 'redeemed';
  return trx<PointEntryRow & Row>('point_entry')
    .where({ account_id: accountId, unique_identifier: entry.uniqueIdentifier! })
    .where((q) => (redemption ? q.where('reason', 'redeemed') : q.whereNot('reason', 'redeemed')))
    .first('id', 'owned_by_id', 'reason', 'linked_schema_record_id');
}

/**
 * 409 for a replayed uniqueIdentifier, naming what the first request made when it is the same
 * member's (keys are unique in the account, and one member is not told the id of another's record):
 * a redemption's reward log, which its answer carried, else the entry.
 */
const replayed = (holder: Holder | undefined, ownedById: string) =>
  duplicateUniqueIdentifier(
    `${holder?.reason === 'redeemed' ? 'A redemption' : 'A point entry'} with this uniqueIdentifier already exists; nothing was changed.`,
    [
      {
        field: 'uniqueIdentifier',
        code: 'duplicate',
        message: 'Already used in this account.',
        existingRecordId:
          holder?.owned_by_id !== ownedById
            ? undefined
            : holder.reason === 'redeemed'
              ? (holder.linked_schema_record_id ?? undefined)
              : holder.id,
      },
    ],
  );

/**
 * Refuses, as a replay, an entry whose uniqueIdentifier an entry of its kind holds: asked before what
 * could refuse it otherwise (a balance, a reward no longer live), a retry is told it was made.
 */
export async function refuseReplay(
  trx: Knex.Transaction,
  accountId: string,
  entry: Pick<NewEntry, 'reason' | 'uniqueIdentifier' | 'ownedById'>,
): Promise<void> {
  if (!entry.uniqueIdentifier) return;
  const holder = await entryWith(trx, accountId, entry);
  if (holder) throw replayed(holder, entry.ownedById);
}

/**
 * One `expired` entry for each member's whole positive balance (CONTRACT §19), for members the
 * caller has locked: what `addEntry` does for each, in two statements for the daily pass. An expired
 * entry takes the balance to 0, never below, moves no window (so it reaches no tier) and has no
 * event; like every entry it starts a new inactivity period.
 */
export async function expireBalances(trx: Knex.Transaction, accountId: string, memberIds: readonly string[], note: string): Promise<void> {
  if (!memberIds.length) return;
  await trx.raw(
    `with e as (insert into point_entry (account_id, owned_by_id, points, reason, note)
                select account_id, id, -points_balance, 'expired', ? from account_user
                 where account_id = ? and id = any(?::uuid[]) and points_balance > 0
                returning owned_by_id, points, created_at)
     update account_user u set points_balance = u.points_balance + e.points, last_point_entry_at = e.created_at,
            points_expiry_warned_for = null
       from e where u.account_id = ? and u.id = e.owned_by_id`,
    [note, accountId, [...memberIds], accountId],
  );
}

/** Rows as an API key reads them, in stored fields (no joins), as event payloads carry them. */
async function asAdmin(
  trx: Knex.Transaction,
  records: Records,
  ctx: RequestContext,
  slug: string,
  rows: readonly Row[],
): Promise<Record<string, unknown>[]> {
  if (!rows.length) return [];
  const resource = records.registry.require(slug);
  return records.serialize(resource, [...rows], { ...ctx, flow: 'apikey' }, { db: trx, fields: records.storedFields(resource) });
}

const EVENT_OF: Partial<Record<PointReason, NewEvent['code']>> = { earned: 'points_earned', redeemed: 'points_redeemed' };

/** The entry's event (`points_earned`, `points_redeemed`; other reasons have none), as an API key reads its entry and member. */
async function entryEvent(
  trx: Knex.Transaction,
  { records, ctx }: Announce,
  { entry, member }: Entered,
  extra: Record<string, unknown> = {},
): Promise<NewEvent | null> {
  const code = EVENT_OF[entry.reason];
  if (!code) return null;
  const payload = {
    pointEntry: (await asAdmin(trx, records, ctx, 'point_entry', [entry]))[0]!,
    member: (await asAdmin(trx, records, ctx, 'account_user', [member]))[0]!,
    ...extra,
  };
  return { code, ownedById: entry.owned_by_id, linkedSchemaSlug: 'point_entry', linkedSchemaRecordId: entry.id, payload };
}

/**
 * The event and tier change of an entry written without `announce`, in the entry's transaction:
 * for a writer whose event names what it made after the entry (a redemption's reward log).
 */
export async function emitEntryEvent(
  trx: Knex.Transaction,
  announce: Announce,
  entered: Entered,
  extra: Record<string, unknown> = {},
): Promise<void> {
  const event = await entryEvent(trx, announce, entered, extra);
  if (event) await emit(trx, entered.entry.account_id, [event]);
  await followTierChange(trx, announce, entered);
}

/**
 * What an entry's tier change sets off (`changedTiers`), and the balance after it: the tier's entry
 * reward may be points of its own. With a write set, the member is as the set will write it
 * (`read`: the row it was read as).
 */
async function followTierChange(
  trx: Knex.Transaction,
  announce: Announce,
  entered: Entered,
  pending?: { writes: WriteSet; read: Member },
): Promise<void> {
  const { member, tierChange } = entered;
  if (!tierChange) return;
  await changedTiers(trx, announce.records, announce.ctx, [{ member, change: tierChange }], pending?.writes);
  const after = pending
    ? pending.writes.current('account_user', pending.read)
    : (await trx<Member>('account_user').where({ account_id: member.account_id, id: member.id }).first('points_balance'))!;
  entered.pointsBalance = Number(after.points_balance);
}

export interface TierMove {
  member: Member;
  change: TierChange;
}

/**
 * What follows members' tier changes, already written to their rows (one from an entry, a batch
 * from the daily pass; one account's): `tier_changed` each, then the entry reward of the tier each
 * landed in, once per member and tier ever (`tier_entry_reward`'s key decides, so coming back after
 * a downgrade gives nothing again; a tier skipped gives nothing), issued as a milestone's is: its
 * code by §8, or its points (which may lift the member further). Each is announced as
 * `reward_log_issued`, on which the Shopify app makes its discount.
 */
export async function changedTiers(
  trx: Knex.Transaction,
  records: Records,
  ctx: RequestContext,
  moves: readonly TierMove[],
  writes?: WriteSet,
) {
  if (!moves.length) return;
  const accountId = moves[0]!.member.account_id;
  const members = await asAdmin(
    trx,
    records,
    ctx,
    'account_user',
    moves.map((m) => m.member),
  );
  const tiers = [
    ...new Map(moves.flatMap((m) => [m.change.before, m.change.after]).flatMap((t) => (t ? [[t.id, t] as const] : []))).values(),
  ];
  const shown = new Map((await asAdmin(trx, records, ctx, 'tier', tiers)).map((t, i) => [tiers[i]!.id, t]));
  await emit(
    trx,
    accountId,
    moves.map(({ member, change }, i) => ({
      code: 'tier_changed',
      ownedById: member.id,
      linkedSchemaSlug: 'account_user',
      linkedSchemaRecordId: member.id,
      payload: {
        member: members[i]!,
        tierBefore: (change.before && shown.get(change.before.id)) ?? null,
        tierAfter: (change.after && shown.get(change.after.id)) ?? null,
      },
    })),
  );
  for (const tier of tiers) {
    const entering = moves.filter((m) => m.change.after?.id === tier.id).map((m) => m.member.id);
    if (!entering.length || !tier.entry_reward_id) continue;
    const reward = await trx<RewardRow & Row>('reward').where({ account_id: accountId, id: tier.entry_reward_id, status: 'live' }).first();
    if (!reward) continue;
    // The claims name their reward logs ahead, so the logs are written for the claimed alone.
    const claimed: { member_id: string; reward_log_id: string }[] = await trx('tier_entry_reward')
      .insert(entering.map((id) => ({ account_id: accountId, member_id: id, tier_id: tier.id, reward_log_id: randomUUID() })))
      .onConflict(['account_id', 'member_id', 'tier_id'])
      .ignore()
      .returning(['member_id', 'reward_log_id']);
    if (!claimed.length) continue;
    const created: (RewardLogRow & Row)[] = await trx('reward_log')
      .insert(
        claimed.map((c) => ({
          id: c.reward_log_id,
          account_id: accountId,
          reward_id: reward.id,
          milestone_id: null,
          linked_schema_slug: 'tier',
          linked_schema_record_id: tier.id,
          owned_by_id: c.member_id,
          period_key: null,
          reward_log_status: 'issued',
        })),
      )
      .returning('*');
    const issued = new IssueTally();
    for (let i = 0; i < created.length; i++) issued.reward();
    // Entry rewards' points go where the entry that lifted the members went.
    const logs = await issueNow({ trx, records, ctx, issued, now: records.now(), ...(writes ? { writes } : {}) }, reward, created);
    await announceIssued(trx, records, ctx, accountId, logs);
    // Counted here: the caller's transaction commits as soon as it returns.
    issued.commit();
  }
}

/**
 * What issuing reward logs of one reward does at once, wherever they are issued (a milestone, a
 * mission, tiers' entry rewards): a points reward's `earned` entry each, or their codes by §8.
 */
export async function issueNow<L extends RewardLogRow & Row>(
  tx: { trx: Knex.Transaction; records: Records; ctx: RequestContext; issued: IssueTally; now: Date; held?: HeldRows; writes?: WriteSet },
  reward: RewardRow,
  logs: readonly L[],
  read?: EntryRead,
): Promise<L[]> {
  for (const log of logs) {
    const entered = await earnForRewardLog(tx.trx, tx.records, tx.ctx, reward, log, {
      ...(read && logs.length === 1 ? { read } : {}),
      ...(tx.writes ? { writes: tx.writes } : {}),
    });
    if (entered) tx.held?.add('account_user', [entered.member]);
  }
  const codes = await takeCodes(
    tx,
    reward,
    logs.map((l) => l.id),
  );
  const withCodes = logs.map((l) => (codes.has(l.id) ? { ...l, ...issuedFields(reward, codes.get(l.id)!, tx.now) } : l));
  const coded = withCodes.filter((l) => codes.has(l.id));
  if (coded.length) await overwriteRows(tx.trx, 'reward_log', coded, Object.keys(coded[0]!));
  return withCodes;
}

/**
 * A points reward's `earned` entry for its reward log, once the log is issued (CONTRACT §19): at
 * creation, or when a held one is confirmed. Nothing while points are not live.
 */
export async function earnForRewardLog(
  trx: Knex.Transaction,
  records: Records,
  ctx: RequestContext,
  reward: RewardRow,
  log: RewardLogRow,
  { read, writes }: Pick<EntryOptions, 'read' | 'writes'> = {},
): Promise<Entered | null> {
  if (reward.reward_kind !== 'points' || !reward.points_value) return null;
  return addEntry(
    trx,
    log.account_id,
    {
      ownedById: log.owned_by_id,
      points: reward.points_value,
      reason: 'earned',
      linkedSchemaSlug: 'reward_log',
      linkedSchemaRecordId: log.id,
    },
    { whenNotLive: 'skip', announce: { records, ctx }, ...(read ? { read } : {}), ...(writes ? { writes } : {}) },
  );
}

/**
 * Takes back what revoked reward logs earned, with one `reversed` entry each, even below 0: the
 * points may have been spent. A log that earned nothing (held, or points off) takes nothing back,
 * nor does one whose entry was already taken back in full by its own reversal (`reverseEntry`):
 * the earned entries are locked first, as `reverseEntry` holds its entry, so the two take turns.
 */
export async function reverseRewardLogPoints(
  trx: Knex.Transaction,
  records: Records,
  ctx: RequestContext,
  accountId: string,
  revoked: readonly RewardLogRow[],
): Promise<void> {
  if (!revoked.length) return;
  const earned = await trx<PointEntryRow & Row>('point_entry')
    .where({ account_id: accountId, reason: 'earned', linked_schema_slug: 'reward_log' })
    .whereIn('owned_by_id', [...new Set(revoked.map((l) => l.owned_by_id))])
    .whereIn(
      'linked_schema_record_id',
      revoked.map((l) => l.id),
    )
    .orderBy('created_at')
    .forUpdate();
  for (const e of earned) {
    const remaining = e.points + (await takenBack(trx, e));
    if (remaining <= 0) continue;
    await addEntry(
      trx,
      accountId,
      {
        ownedById: e.owned_by_id,
        points: -remaining,
        reason: 'reversed',
        note: 'The reward that earned these points was taken back: its purchase was returned or cancelled.',
        linkedSchemaSlug: 'reward_log',
        linkedSchemaRecordId: e.linked_schema_record_id,
        takesBackEarnedAt: e.created_at,
      },
      { announce: { records, ctx } },
    );
  }
}

/**
 * What `reversed` entries have taken back of an earned one so far (0 or less): those linked to the
 * entry (`reverseEntry`) and, for a reward's points, the one its revoked reward log wrote.
 */
async function takenBack(trx: Knex.Transaction, earned: PointEntryRow & Row): Promise<number> {
  const [taken] = await trx('point_entry')
    .where({ account_id: earned.account_id, owned_by_id: earned.owned_by_id, reason: 'reversed' })
    .where((q) => {
      q.where({ linked_schema_slug: 'point_entry', linked_schema_record_id: earned.id });
      if (earned.linked_schema_slug === 'reward_log')
        q.orWhere({ linked_schema_slug: 'reward_log', linked_schema_record_id: earned.linked_schema_record_id });
    })
    .sum<{ sum: number | null }[]>('points');
  return Number(taken?.sum ?? 0);
}

export const reverseBody = z.strictObject({
  points: z.number().int().min(1).max(1_000_000).optional().meta({ description: 'How many to take back; default: all that remains.' }),
  note: z.string().max(256).optional(),
  uniqueIdentifier: z.string().min(1).max(256).optional().meta({
    description:
      'Unique per account among the point entries clients write (redemptions apart): a replay is 409 duplicate_unique_identifier.',
  }),
});

/**
 * Takes back up to what remains of an `earned` entry with one `reversed` entry linked to it, even
 * below 0 (the points may have been spent): how the Shopify app takes back an order's points on a
 * refund. What remains counts what its revoked reward log took back, if it came from one. The
 * caller holds the entry's row lock, so racing reversals of one entry take turns and never take
 * back more than it earned.
 */
export async function reverseEntry(
  trx: Knex.Transaction,
  records: Records,
  ctx: RequestContext,
  earned: PointEntryRow & Row,
  body: unknown,
): Promise<{ pointEntry: Record<string, unknown>; pointsBalance: number }> {
  const parsed = reverseBody.safeParse(bodyOrEmpty(body));
  if (!parsed.success) throw invalidInput('The reversal is invalid.', issueDetails('', parsed.error));
  // A replay is told so even once nothing remains: a client retrying a full reversal finds the one it made.
  const { uniqueIdentifier } = parsed.data;
  await refuseReplay(trx, earned.account_id, { reason: 'reversed', uniqueIdentifier, ownedById: earned.owned_by_id });
  if (earned.reason !== 'earned')
    throw notReversible('Only earned entries are taken back.', [
      { field: 'reason', code: 'not_reversible', message: `This entry is ${earned.reason}.` },
    ]);
  const remaining = earned.points + (await takenBack(trx, earned));
  if (remaining <= 0)
    throw notReversible('This entry was taken back in full.', [{ field: 'points', code: 'not_reversible', message: 'Nothing remains.' }]);
  const entered = await addEntry(
    trx,
    earned.account_id,
    {
      ownedById: earned.owned_by_id,
      points: -Math.min(parsed.data.points ?? remaining, remaining),
      reason: 'reversed',
      note: parsed.data.note ?? null,
      uniqueIdentifier: parsed.data.uniqueIdentifier ?? null,
      linkedSchemaSlug: 'point_entry',
      linkedSchemaRecordId: earned.id,
      takesBackEarnedAt: earned.created_at,
    },
    { announce: { records, ctx } },
  );
  const [pointEntry] = await records.serialize(records.registry.require('point_entry'), [entered.entry], ctx, { db: trx });
  return { pointEntry: pointEntry!, pointsBalance: entered.pointsBalance };
}
