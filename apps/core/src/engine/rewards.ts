import type { MilestoneRow } from '../schema/definitions.js';
import type { Row } from '../records/resource.js';
import type { RewardLogRow, RewardRow } from '../schema/rewards.js';
import { entryRead, entryReadParams, entryReadSql, isTransaction, issueNow } from './points.js';
import { NeedsLock, type RewardSource, type Tx } from './types.js';

/** The change that revokes a held reward log whose reward was deleted before its hold ended: it can no longer be given. */
export const revokedWithItsReward = (now: Date): Partial<RewardLogRow> => ({
  reward_log_status: 'revoked',
  revoked_at: now,
  revoked_reason: 'reward deleted',
  updated_at: now,
});

/**
 * Creates the reward log for an achieved milestone or a completed mission, at once in the attempt's
 * transaction, with a coupon when the reward handles coupons; pending and without a code while the
 * definition holds its rewards. Null when there is no reward. A recompute (`tx.replay`) only
 * records what a replay achieves: the reconciliation decides which reward logs stand.
 */
export async function issueReward(tx: Tx, source: RewardSource): Promise<RewardLogRow | null> {
  // A replay notes every milestone and completion reached, with a reward or not (engine/reverse.ts judges them all).
  if (tx.replay) {
    tx.replay.push(source);
    return null;
  }
  if (!source.rewardId) return null;
  // Coupons are taken from a pool row by row, and points entered, which needs the attempt's own transaction.
  if (!tx.locked || !isTransaction(tx.trx)) throw new NeedsLock();
  const trx = tx.trx;
  const held = source.holdDays > 0;
  // A points reward issued now enters points for the member: its lock and read come with the reward's
  // (without the member's heldOutOf when the attempt's own read has it).
  const heldOutOf = !tx.held?.has('account_user', source.ownedById);
  const {
    rows: [found],
  } = await trx.raw<{ rows: (RewardRow & Row & { entry_read?: unknown })[] }>(
    `select r.*${held ? '' : `, ${entryReadSql("r.reward_kind = 'points'", heldOutOf)} as entry_read`} from reward r where r.account_id = ? and r.id = ?`,
    [...(held ? [] : entryReadParams(tx.account.id, source.ownedById, heldOutOf)), tx.account.id, source.rewardId],
  );
  if (!found) return null;
  const { entry_read: read, ...reward } = found;
  tx.held?.add('reward', [reward]);
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
  return (await issueNow({ ...tx, trx }, reward, [log!], entryRead(read)))[0]!;
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
