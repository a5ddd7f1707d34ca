import type { Knex } from 'knex';
import { randomString } from '../auth/crypto.js';
import { runOnce } from '../db/prepared.js';
import type { RewardLogRow, RewardRow } from '../schema/rewards.js';
import type { Tx } from './types.js';

/**
 * A reward log's code by CONTRACT §8: from the reward's pool, else generated, with the moments it
 * counts from. Shared by every way a reward log is issued (milestones, missions, redemptions, tiers).
 */

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const DAY_MS = 86_400_000;

/** The expiry a reward gives a code issued at `issuedAt`. */
export function expiryFor(reward: RewardRow | undefined, issuedAt: Date): Date | null {
  if (!reward) return null;
  if (reward.reward_expiry_type === 'relative') return new Date(issuedAt.getTime() + reward.reward_expiry_in_days! * DAY_MS);
  if (reward.reward_expiry_type === 'absolute') return reward.reward_expiry_at!;
  return null;
}

/**
 * The pool's oldest unissued live coupons for the reward logs `$4`, at most `$3`, in order; with
 * `skipLocked`, those no other transaction holds, and a row without a log when it came short while
 * others held some.
 */
const pooledUpdate = (skipLocked: boolean) => `with free as (
       select account_id, id, row_number() over (order by issue_order) as n
         from (select account_id, id, issue_order from coupon
                where account_id = $1 and reward_id = $2 and not is_coupon_issued and status = 'live'
                order by issue_order
                limit $3
                for update${skipLocked ? ' skip locked' : ''}) f),
     wanted as (select log_id, n from unnest($4::uuid[]) with ordinality as w(log_id, n)),
     taken as (
       update coupon c set is_coupon_issued = true, reward_log_id = wanted.log_id, updated_at = now()
         from free join wanted using (n)
        where c.account_id = free.account_id and c.id = free.id
       returning c.reward_log_id, c.coupon_code)
     select reward_log_id, coupon_code from taken${
       skipLocked
         ? `
     union all
     select null, null where (select count(*) from taken) < $3 and exists (
       select 1 from coupon where account_id = $1 and reward_id = $2 and not is_coupon_issued and status = 'live'
          and id not in (select id from free))`
         : ''
     }`;
export const POOLED_UPDATE = pooledUpdate(true);
const POOLED_UPDATE_WAITING = pooledUpdate(false);

/**
 * Takes the oldest unissued live coupons of the reward, one for each reward log, in order. SKIP
 * LOCKED lets concurrent issuers pass each other, and the row lock means a coupon never goes to
 * two logs. Logs it left without one wait once for the coupons others hold (an issuer that takes
 * them, or an edit of a coupon that leaves it in the pool). Answers each served log's code; logs
 * left over found the pool empty.
 */
async function takePooledCoupons(trx: Knex, reward: RewardRow, rewardLogIds: readonly string[]): Promise<Map<string, string>> {
  const take = async (text: string, logIds: readonly string[]) =>
    runOnce<{ reward_log_id: string | null; coupon_code: string }>(trx, {
      text,
      values: [reward.account_id, reward.id, logIds.length, [...logIds]],
    });
  const codes = new Map<string, string>();
  let othersHold = false;
  for (const r of await take(POOLED_UPDATE, rewardLogIds)) {
    if (r.reward_log_id) codes.set(r.reward_log_id, r.coupon_code);
    else othersHold = true;
  }
  if (othersHold) {
    const left = rewardLogIds.filter((id) => !codes.has(id));
    for (const r of await take(POOLED_UPDATE_WAITING, left)) if (r.reward_log_id) codes.set(r.reward_log_id, r.coupon_code);
  }
  return codes;
}

/** Generated codes, one for each reward log: `$3` the codes, `$4` the logs, in the same order. */
export const GENERATED_INSERT = `insert into coupon (account_id, reward_id, coupon_code, is_coupon_issued, status, reward_log_id)
  select $1, $2, g.code, true, 'live', g.log_id from unnest($3::text[], $4::uuid[]) as g(code, log_id)
  on conflict (account_id, coupon_code) do nothing returning reward_log_id, coupon_code`;

/** Generates `prefix + random` for each reward log and stores them as issued coupons; the unique index settles collisions. */
async function generateCoupons(trx: Knex, reward: RewardRow, rewardLogIds: readonly string[]): Promise<Map<string, string>> {
  const codes = new Map<string, string>();
  for (let left = [...rewardLogIds]; left.length; left = left.filter((id) => !codes.has(id))) {
    const inserted = await runOnce<{ reward_log_id: string; coupon_code: string }>(trx, {
      text: GENERATED_INSERT,
      values: [
        reward.account_id,
        reward.id,
        left.map(() => `${reward.coupon_code_prefix ?? ''}${randomString(reward.coupon_code_length, CODE_ALPHABET)}`),
        left,
      ],
    });
    for (const row of inserted) if (row.reward_log_id) codes.set(row.reward_log_id, row.coupon_code);
  }
  return codes;
}

/**
 * Gives reward logs of one reward their codes when it handles coupons: the pool's oldest, else
 * generated ones, else none. Answers the codes by reward log; a log without one got none.
 */
export async function takeCodes(
  tx: Pick<Tx, 'trx' | 'issued'>,
  reward: RewardRow,
  rewardLogIds: readonly string[],
): Promise<Map<string, string>> {
  if (!reward.handle_coupon || !rewardLogIds.length) return new Map();
  const codes = await takePooledCoupons(tx.trx, reward, rewardLogIds);
  for (let i = 0; i < codes.size; i++) tx.issued.coupon('pool');
  const left = rewardLogIds.filter((id) => !codes.has(id));
  if (!left.length) return codes;
  if (!reward.handle_coupon_auto_generation) {
    for (let i = 0; i < left.length; i++) tx.issued.emptyPool();
    return codes;
  }
  for (const [id, code] of await generateCoupons(tx.trx, reward, left)) {
    codes.set(id, code);
    tx.issued.coupon('generated');
  }
  return codes;
}

/** What issuing sets on a reward log: its code, and the moments the code counts from. */
export const issuedFields = (reward: RewardRow, code: string | null, now: Date): Partial<RewardLogRow> =>
  code ? { coupon_code: code, reward_issued_at: now, reward_expiry_at: expiryFor(reward, now), updated_at: now } : {};
