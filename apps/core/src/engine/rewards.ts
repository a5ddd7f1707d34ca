import type { Knex } from 'knex';
import { randomString } from '../auth/crypto.js';
import { updateRow } from '../db/rows.js';
import type { MilestoneRow } from '../schema/definitions.js';
import type { CouponRow, RewardLogRow, RewardRow } from '../schema/rewards.js';
import { NeedsLock, type RewardSource, type Tx } from './types.js';

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
 * Takes the oldest unissued live coupon of the reward for one reward log. SKIP LOCKED lets
 * concurrent issuers pass each other, and the row lock means a coupon never goes to two logs.
 */
async function takePooledCoupon(trx: Knex, reward: RewardRow, rewardLogId: string): Promise<string | null> {
  const result = await trx.raw<{ rows: Pick<CouponRow, 'coupon_code'>[] }>(
    `update coupon set is_coupon_issued = true, reward_log_id = ?, updated_at = now()
      where (account_id, id) = (
        select account_id, id from coupon
         where account_id = ? and reward_id = ? and not is_coupon_issued and status = 'live'
         order by issue_order
         limit 1
         for update skip locked)
     returning coupon_code`,
    [rewardLogId, reward.account_id, reward.id],
  );
  return result.rows[0]?.coupon_code ?? null;
}

/** Generates `prefix + random` and stores it as an issued coupon; the unique index settles collisions. */
async function generateCoupon(trx: Knex, reward: RewardRow, rewardLogId: string): Promise<string> {
  for (;;) {
    const code = `${reward.coupon_code_prefix ?? ''}${randomString(reward.coupon_code_length, CODE_ALPHABET)}`;
    const inserted = await trx<CouponRow>('coupon')
      .insert({
        account_id: reward.account_id,
        reward_id: reward.id,
        coupon_code: code,
        is_coupon_issued: true,
        status: 'live',
        reward_log_id: rewardLogId,
      })
      .onConflict(['account_id', 'coupon_code'])
      .ignore()
      .returning('coupon_code');
    if (inserted.length) return code;
  }
}

/**
 * Gives a reward log its code when its reward handles coupons: the pool's oldest, else a generated
 * one, else none. Null when the reward does not handle coupons or no code could be had.
 */
export async function takeCode(tx: Pick<Tx, 'trx' | 'issued'>, reward: RewardRow, rewardLogId: string): Promise<string | null> {
  if (!reward.handle_coupon) return null;
  const pooled = await takePooledCoupon(tx.trx, reward, rewardLogId);
  if (pooled) {
    tx.issued.coupon('pool');
    return pooled;
  }
  if (!reward.handle_coupon_auto_generation) {
    tx.issued.emptyPool();
    return null;
  }
  tx.issued.coupon('generated');
  return generateCoupon(tx.trx, reward, rewardLogId);
}

/** What issuing sets on a reward log: its code, and the moments the code counts from. */
export const issuedFields = (reward: RewardRow, code: string | null, now: Date): Partial<RewardLogRow> =>
  code ? { coupon_code: code, reward_issued_at: now, reward_expiry_at: expiryFor(reward, now), updated_at: now } : {};

/**
 * Creates the reward log for an achieved milestone or a completed mission, at once in the attempt's
 * transaction, with a coupon when the reward handles coupons; pending and without a code while the
 * definition holds its rewards. Null when there is no reward. A recompute (`tx.replay`) only
 * records what a replay achieves: the reconciliation decides which reward logs stand.
 */
export async function issueReward(tx: Tx, source: RewardSource): Promise<RewardLogRow | null> {
  if (!source.rewardId) return null;
  if (tx.replay) {
    tx.replay.push(source);
    return null;
  }
  // Coupons are taken from a pool row by row, which needs the attempt's own transaction.
  if (!tx.locked) throw new NeedsLock();
  const reward = await tx.trx<RewardRow>('reward').where({ account_id: tx.account.id, id: source.rewardId }).first();
  if (!reward) return null;
  const held = source.holdDays > 0;
  const [log] = await tx
    .trx<RewardLogRow>('reward_log')
    .insert({
      account_id: tx.account.id,
      reward_id: reward.id,
      milestone_id: source.milestoneId,
      linked_schema_slug: source.linkedSchemaSlug,
      linked_schema_record_id: source.linkedSchemaRecordId,
      owned_by_id: source.ownedById,
      period_key: source.periodKey,
      reward_log_status: held ? 'pending' : 'issued',
      confirm_at: held ? new Date(tx.now.getTime() + source.holdDays * tx.records.holdDaySeconds * 1000) : null,
    })
    .returning('*');
  tx.issued.reward();
  if (held) return log!;
  const code = await takeCode(tx, reward, log!.id);
  return code ? updateRow(tx.trx, 'reward_log', log!, issuedFields(reward, code, tx.now)) : log!;
}

/** Reward logs for every achieved milestone that carries a reward. */
export async function issueMilestoneRewards(
  tx: Tx,
  achieved: MilestoneRow[],
  base: Omit<RewardSource, 'rewardId' | 'milestoneId'>,
): Promise<RewardLogRow[]> {
  const logs: RewardLogRow[] = [];
  for (const m of achieved) {
    const log = await issueReward(tx, { ...base, rewardId: m.reward_id, milestoneId: m.id });
    if (log) logs.push(log);
  }
  return logs;
}
