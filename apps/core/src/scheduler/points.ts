import type { Knex } from 'knex';
import { loadAccount } from '../auth/authenticate.js';
import { changedTiers, expireBalances, liveTiers, type Member, plusMonths, type Tier, tierFor } from '../engine/points.js';
import { emit } from '../events/outbox.js';
import type { RequestContext } from '../records/context.js';
import type { RecordService } from '../records/service.js';
import type { PointsSettingColumns, PointsSettingRow } from '../schema/points.js';
import { transaction } from '../db/transaction.js';

const BATCH = 1000;
/** A sweep gives the pass this long, then leaves the rest to the next one: a sweep job expires after a minute. */
const BUDGET_MS = 30_000;
const WARN_MS = 14 * 86_400_000;

type Setting = PointsSettingRow & PointsSettingColumns & { account_id: string };

export interface DailyPass {
  /** Members passed: each once a day, whichever worker took them. */
  members: number;
  /** Windows summed again from the entries (entries left the window, or the window's length changed). */
  windows: number;
  tierChanges: number;
  warnings: number;
  expiries: number;
  /** Whether every due account was gone through (false: the budget ran out first). */
  complete: boolean;
}

/**
 * The expiry step of a member (CONTRACT §19): warn once per inactivity period (an entry clears the
 * warning) from 14 days before `expiryMonthsOfInactivity` months without an entry, announcing an
 * expiry at least 14 days ahead; expire the whole positive balance once that moment has come.
 */
function expiryStep(m: Member, months: number, now: Date): { warnFor: Date } | 'expire' | null {
  if (!months || Number(m.points_balance) <= 0 || !m.last_point_entry_at) return null;
  const natural = plusMonths(m.last_point_entry_at, months);
  const warned = m.points_expiry_warned_for;
  if (warned) return now >= warned && now >= natural ? 'expire' : null;
  if (now.getTime() < natural.getTime() - WARN_MS) return null;
  return { warnFor: new Date(Math.max(natural.getTime(), now.getTime() + WARN_MS)) };
}

/**
 * The daily points pass (CONTRACT §19), for accounts whose points are live: each member with
 * something to do, once a UTC day. It sums the tier window again from the entries for members with
 * an entry leaving it (or all of an account's members with entries after its tierWindowMonths
 * changed), applies the tier rule to every member, downwards too (the only place a member goes
 * down, and where tiers created, changed or deleted since take effect), and warns of and carries out
 * the expiry of inactive members' points. Members with work are found by one condition in SQL (so
 * the others are read, never locked or written) and taken in bounded batches with FOR UPDATE SKIP
 * LOCKED, each batch in one transaction with its events, so any number of workers share the pass
 * and none passes a member twice in a day; a member held by an entry at that moment is taken by a
 * later batch.
 */
export async function runPointsDaily(records: RecordService, now: Date, budgetMs = BUDGET_MS): Promise<DailyPass> {
  const deadline = Date.now() + budgetMs;
  const today = now.toISOString().slice(0, 10);
  const pass: DailyPass = { members: 0, windows: 0, tierChanges: 0, warnings: 0, expiries: 0, complete: true };
  const settings = await records
    .db<Setting>('points_setting')
    .where('status', 'live')
    .andWhere((q) => q.whereNull('daily_pass_on').orWhere('daily_pass_on', '<', today));
  const failures: unknown[] = [];
  for (const setting of settings) {
    let done: boolean;
    try {
      done = await passAccount(records, setting, now, today, deadline, pass);
    } catch (err) {
      // One account's failing batch (kept for the step's error) leaves the other accounts their pass.
      failures.push(err);
      continue;
    }
    if (!done) {
      pass.complete = false;
      break;
    }
  }
  if (failures.length) throw new AggregateError(failures, `the points pass failed for ${failures.length} account(s)`);
  return pass;
}

/**
 * The account's members not passed today with something to do: an entry left the window or its
 * length changed since the last sum, the rule gives another tier, or an expiry is to be warned of or
 * carried out. `passMembers` decides the same in detail; this must only never leave one out.
 */
function withWork(q: Knex.QueryBuilder, { setting, live }: AccountPass, now: Date, today: string): Knex.QueryBuilder {
  const months = setting.tier_window_months;
  const expiry = setting.expiry_months_of_inactivity;
  const natural = `(last_point_entry_at at time zone 'UTC' + make_interval(months => ?)) at time zone 'UTC'`;
  const rule = live.length ? `case ${live.map(() => 'when points_earned_in_tier_window >= ? then ?::uuid').join(' ')} end` : 'null::uuid';
  return q
    .where('account_id', setting.account_id)
    .andWhere((w) => w.whereNull('points_passed_on').orWhere('points_passed_on', '<', today))
    .andWhere((w) => {
      w.whereRaw(
        `tier_id is distinct from ${rule}`,
        live.flatMap((t) => [t.points_threshold, t.id]),
      );
      if (months) w.orWhere('points_window_oldest_at', '<=', plusMonths(now, -months));
      if (setting.tier_window_changed_at)
        w.orWhereRaw('coalesce(points_window_at, points_window_oldest_at) < ?', [setting.tier_window_changed_at]);
      if (expiry)
        w.orWhereRaw(
          `points_balance > 0 and last_point_entry_at is not null and case when points_expiry_warned_for is null
             then ${natural} - interval '14 days' <= ? else points_expiry_warned_for <= ? and ${natural} <= ? end`,
          [expiry, now, now, expiry, now],
        );
    });
}

/** One account's members with work, batch after batch in id order; false when the budget ran out. */
async function passAccount(records: RecordService, setting: Setting, now: Date, today: string, deadline: number, pass: DailyPass) {
  const accountId = setting.account_id;
  const account = await loadAccount(records.db, accountId);
  if (!account) return true;
  const ctx: RequestContext = { flow: 'apikey', account, languageCode: undefined, requestId: 'sweep:points daily' };
  const tiers = await records.db<Tier>('tier').where({ account_id: accountId });
  const live = await liveTiers(records.db, accountId);
  const scope: AccountPass = { setting, ctx, tiers: new Map(tiers.map((t) => [t.id, t])), live };
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    if (Date.now() > deadline) return false;
    const last = await transaction(records.db, async (trx) => {
      const rows: Member[] = await withWork(trx<Member>('account_user'), scope, now, today)
        .andWhere('id', '>', after)
        .orderBy('id')
        .limit(BATCH)
        .forUpdate()
        .skipLocked();
      if (rows.length) await passMembers(trx, records, scope, rows, now, today, pass);
      return rows.at(-1)?.id;
    });
    if (!last) break;
    after = last;
  }
  // Members another transaction held may still have work: the account's day is over only when none has.
  if (!(await withWork(records.db('account_user'), scope, now, today).first('id')))
    await records.db('points_setting').where({ account_id: accountId }).update({ daily_pass_on: today });
  return true;
}

interface AccountPass {
  setting: Setting;
  ctx: RequestContext;
  /** Every tier of the account by id, paused ones too (a member's tier before a change). */
  tiers: Map<string, Tier>;
  /** Live tiers in the rule's order. */
  live: Tier[];
}

/** An entry of the window's sum: `earned`, or `reversed` taking back an `earned` entry made after the cutoff (the placeholder). */
const TAKES_BACK_WITHIN = `(point_entry.reason = 'earned' or exists (
    select 1 from point_entry o
     where o.account_id = point_entry.account_id and o.owned_by_id = point_entry.owned_by_id and o.reason = 'earned' and o.created_at > ?
       and ((point_entry.linked_schema_slug = 'point_entry' and o.id::text = point_entry.linked_schema_record_id)
         or (point_entry.linked_schema_slug = 'reward_log' and o.linked_schema_slug = 'reward_log'
             and o.linked_schema_record_id = point_entry.linked_schema_record_id))))`;

async function passMembers(
  trx: Knex.Transaction,
  records: RecordService,
  { setting, ctx, tiers, live }: AccountPass,
  rows: Member[],
  now: Date,
  today: string,
  pass: DailyPass,
): Promise<void> {
  const accountId = setting.account_id;
  const months = setting.tier_window_months;
  const windowChanged = setting.tier_window_changed_at;
  const cutoff = months ? plusMonths(now, -months) : null;
  const stale = new Set(
    rows
      .filter(
        (m) =>
          m.last_point_entry_at &&
          ((cutoff && m.points_window_oldest_at && m.points_window_oldest_at <= cutoff) ||
            // Summed, or counting entries, from before the window's length changed.
            (windowChanged && (m.points_window_at ?? m.points_window_oldest_at ?? windowChanged) < windowChanged)),
      )
      .map((m) => m.id),
  );
  const sums = new Map<string, { points: number; oldest: Date | null }>();
  if (stale.size) {
    const summed: { owned_by_id: string; points: string | number; oldest: Date | null }[] = await trx('point_entry')
      .select('owned_by_id')
      .sum({ points: 'points' })
      .min({ oldest: 'created_at' })
      .where('account_id', accountId)
      .whereIn('owned_by_id', [...stale])
      .whereIn('reason', ['earned', 'reversed'])
      .modify((q) => {
        // Within the window, less the reversals of what is within it: one taking back an older entry took it from nothing here.
        if (cutoff) q.where('created_at', '>', cutoff).whereRaw(TAKES_BACK_WITHIN, [cutoff]);
      })
      .groupBy('owned_by_id');
    for (const s of summed) sums.set(s.owned_by_id, { points: Number(s.points), oldest: s.oldest });
  }
  const unchanged: string[] = [];
  const changed: Record<string, unknown>[] = [];
  const moves = new Map<string, { before: Tier | null; after: Tier | null }>();
  const warned = new Set<string>();
  const expiring: Member[] = [];
  for (const m of rows) {
    const summed = stale.has(m.id);
    const window = summed ? Math.max(0, sums.get(m.id)?.points ?? 0) : Number(m.points_earned_in_tier_window);
    const target = tierFor(live, window);
    const step = expiryStep(m, setting.expiry_months_of_inactivity, now);
    if (step === 'expire') expiring.push(m);
    const warnFor = step && step !== 'expire' ? step.warnFor : null;
    const moved = (target?.id ?? null) !== m.tier_id;
    if (!summed && !moved && !warnFor) {
      unchanged.push(m.id);
      continue;
    }
    if (moved) moves.set(m.id, { before: (m.tier_id && tiers.get(m.tier_id)) || null, after: target });
    if (warnFor) warned.add(m.id);
    changed.push({
      id: m.id,
      window,
      oldest: summed ? (sums.get(m.id)?.oldest ?? null) : m.points_window_oldest_at,
      summed_at: summed ? now : m.points_window_at,
      tier_id: target?.id ?? null,
      warned_for: warnFor ?? m.points_expiry_warned_for,
    });
  }
  if (unchanged.length)
    await trx('account_user')
      .where('account_id', accountId)
      .whereRaw('id = any(?::uuid[])', [unchanged])
      .update({ points_passed_on: today });
  const updated: Member[] = changed.length
    ? (
        await trx.raw<{ rows: Member[] }>(
          `update account_user u set points_passed_on = ?, points_earned_in_tier_window = v.window,
                  points_window_oldest_at = v.oldest, points_window_at = v.summed_at, tier_id = v.tier_id,
                  points_expiry_warned_for = v.warned_for
             from json_to_recordset(?::json)
                  as v(id uuid, "window" bigint, oldest timestamptz, summed_at timestamptz, tier_id uuid, warned_for timestamptz)
            where u.account_id = ? and u.id = v.id
           returning u.*`,
          [today, JSON.stringify(changed), accountId],
        )
      ).rows
    : [];
  await changedTiers(
    trx,
    records,
    ctx,
    updated.flatMap((member) => {
      const change = moves.get(member.id);
      return change ? [{ member, change }] : [];
    }),
  );
  const warnedRows = updated.filter((m) => warned.has(m.id));
  if (warnedRows.length) {
    const resource = records.registry.require('account_user');
    const members = await records.serialize(resource, warnedRows, ctx, { db: trx, fields: records.storedFields(resource) });
    await emit(
      trx,
      accountId,
      warnedRows.map((m, i) => ({
        code: 'points_to_expire',
        ownedById: m.id,
        linkedSchemaSlug: 'account_user',
        linkedSchemaRecordId: m.id,
        payload: { member: members[i]!, expiringPoints: Number(m.points_balance), expiresAt: m.points_expiry_warned_for!.toISOString() },
      })),
    );
  }
  await expireBalances(
    trx,
    accountId,
    expiring.map((m) => m.id),
    `No entry for ${setting.expiry_months_of_inactivity} months.`,
  );
  pass.members += rows.length;
  pass.windows += stale.size;
  pass.tierChanges += moves.size;
  pass.warnings += warned.size;
  pass.expiries += expiring.length;
}
