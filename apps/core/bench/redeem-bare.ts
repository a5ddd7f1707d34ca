import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { randomString } from '../src/auth/crypto.js';
import type { BareRoute } from './bare-http.js';
import { numbered } from '../src/db/prepared.js';
import { GENERATED_INSERT, POOLED_UPDATE } from '../src/engine/codes.js';
import { entryReadParams, entryReadSql } from '../src/engine/points.js';
import { REDEEMED_LOG_INSERT } from '../src/engine/redeem.js';

/** The statements of `bench:redeem`'s baseline, and the bare HTTP server's route that runs them (see bare-http.ts). */

export const redeemPath = (rewardId: string) => `/api/v1.0/schema/reward/record/${rewardId}/action/redeem`;

/** What the baseline knows without reading: the account, the reward and its cost, and the event payload to write. */
export interface RedeemContext {
  accountId: string;
  rewardId: string;
  pointsCost: number;
  codeLength: number;
  /** The `points_redeemed` event's payload, sized as the service writes it (read back from a sample redemption). */
  payload: string;
}

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/**
 * One redemption as the service's statements run it (records' action path, engine/redeem.ts,
 * engine/points.ts, engine/codes.ts, events/outbox.ts), as plain SQL in one transaction: the
 * reward's read, the member's row lock with points live, the tiers and its holdouts (the service's
 * own SQL text), the entry and the balance in one statement (a replayed identifier inserting
 * nothing), the pool (empty) then a generated code, the reward log with its code, the event with
 * its wake-up (the answer's reward is the one read first, as the service's is). No checks beyond the
 * balance, no serialization, no validation.
 */
export async function baselineRedeem(pool: pg.Pool, s: RedeemContext, memberId: string) {
  const client = await pool.connect();
  try {
    await client.query('begin');
    // The statements the service prepares (the record's read, the entry's read and write) are named here too.
    const reward = await client.query({
      name: 'bare-reward',
      text: `select * from reward where account_id = $1 and status = $2 and id = $3 limit $4`,
      values: [s.accountId, 'live', s.rewardId, 1],
    });
    if (!reward.rows[0]) throw new Error('no reward');
    const member = await client.query<{ read: { member: { points_balance: number; points_earned_in_tier_window: number } } }>({
      name: 'bare-entry-read',
      text: numbered(`select ${entryReadSql()} as read`),
      values: entryReadParams(s.accountId, memberId),
    });
    const m = member.rows[0]?.read.member;
    if (!m) throw new Error('no member');
    const rewardLogId = randomUUID();
    const balance = Number(m.points_balance) - s.pointsCost;
    if (balance < 0) throw new Error('insufficient points');
    const entryId = randomUUID();
    const now = new Date();
    await client.query({
      name: 'bare-entry-write',
      text: `with e as (
         insert into point_entry (id, account_id, owned_by_id, points, reason, note, unique_identifier, linked_schema_slug, linked_schema_record_id, created_at, updated_at)
         values ($1, $2, $3, $4, 'redeemed', null, null, 'reward_log', $5, $6, $6)
         on conflict (account_id, unique_identifier) where unique_identifier is not null do nothing returning id
       ), m as (
         update account_user set points_balance = $7, points_earned_in_tier_window = $8, last_point_entry_at = $6, points_expiry_warned_for = null
          where account_id = $2 and id = $3 and exists (select 1 from e) returning 1
       ) select 1 from e`,
      values: [entryId, s.accountId, memberId, -s.pointsCost, rewardLogId, now, balance, Number(m.points_earned_in_tier_window)],
    });
    // The pool first (empty here, as the service finds it), then a generated code.
    await client.query(POOLED_UPDATE, [s.accountId, s.rewardId, 1, [rewardLogId]]);
    const code = await client.query<{ coupon_code: string }>(GENERATED_INSERT, [
      s.accountId,
      s.rewardId,
      [randomString(s.codeLength, CODE_ALPHABET)],
      [rewardLogId],
    ]);
    const log = await client.query(REDEEMED_LOG_INSERT, [
      rewardLogId,
      s.accountId,
      s.rewardId,
      entryId,
      memberId,
      code.rows[0]?.coupon_code ?? null,
      now,
      null,
    ]);
    await client.query(
      `with inserted as (
         insert into event_log (account_id, event_code, owned_by_id, linked_schema_slug, linked_schema_record_id, payload, trace_parent, created_at, updated_at)
         select $1::uuid, e.code, e.owned_by_id, e.slug, e.record_id, e.payload, $2::text, clock_timestamp() + make_interval(secs => e.ord / 1000.0), clock_timestamp()
           from jsonb_to_recordset($3::jsonb) as e(code text, owned_by_id uuid, slug text, record_id uuid, payload jsonb, ord int))
       select pg_notify($4, $5)`,
      [
        s.accountId,
        null,
        JSON.stringify([
          {
            code: 'points_redeemed',
            owned_by_id: memberId,
            slug: 'point_entry',
            record_id: entryId,
            payload: JSON.parse(s.payload),
            ord: 0,
          },
        ]),
        'loyalty_events',
        '',
      ],
    );
    await client.query('commit');
    return { rewardLog: log.rows[0], pointsBalance: balance };
  } catch (err) {
    await client.query('rollback');
    throw err;
  } finally {
    client.release();
  }
}

// The API's path and body, so one load generator setup serves both; the body is trusted as is.
export const routes: BareRoute<RedeemContext>[] = [
  {
    method: 'POST',
    path: '/api/v1.0/schema/reward/record/:id/action/redeem',
    async handle(pool, { context, body }) {
      const { ownedById } = body as { ownedById: string };
      return { body: { data: await baselineRedeem(pool, context, ownedById) } };
    },
  },
];
