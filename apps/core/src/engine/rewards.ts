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
  return (await issue(tx, source)).log;
}

/**
 * A milestone's reward log of the same streak run (a period from the run's first on), challenge
 * window or mission run that stands: a milestone whose target was raised since it was reached is
 * crossed again by a later log, and gives nothing twice there. A mission's is found by its run,
 * which its reward logs name (`progress_id`; a streak's and a challenge's also from before that).
 */
const GIVEN_BEFORE: Record<string, { sql: string; scope: (source: RewardSource) => string | null }> = {
  challenge: { sql: 'l.period_key = ?', scope: (source) => source.periodKey },
  streak: {
    sql: `l.period_key >= (select min(t.period_key) from task_progress t where t.account_id = r.account_id and t.linked_schema_record_id = ?)`,
    scope: (source) => source.progressId,
  },
  mission: { sql: 'l.progress_id = ?', scope: (source) => source.progressId },
};
const givenBefore = (scope: string) => `exists (select 1 from reward_log l
  where l.account_id = r.account_id and l.owned_by_id = ? and l.milestone_id = ? and l.reward_log_status <> 'revoked' and ${scope})`;

async function issue(tx: Tx, source: RewardSource): Promise<{ log: RewardLogRow | null; givenBefore: boolean }> {
  // A replay notes every milestone and completion reached, with a reward or not (engine/reverse.ts judges them all).
  if (tx.replay) {
    tx.replay.push(source);
    return { log: null, givenBefore: false };
  }
  if (!source.rewardId) return { log: null, givenBefore: false };
  // Coupons are taken from a pool row by row, and points entered, which needs the attempt's own transaction.
  if (!tx.locked || !isTransaction(tx.trx)) throw new NeedsLock();
  const trx = tx.trx;
  const held = source.holdDays > 0;
  // A points reward issued now enters points for the member: its lock and read come with the reward's
  // (without the member's heldOutOf when the attempt's own read has it).
  const heldOutOf = !tx.held?.has('account_user', source.ownedById);
  const given = source.milestoneId !== null ? GIVEN_BEFORE[source.linkedSchemaSlug] : undefined;
  const {
    rows: [found],
  } = await trx.raw<{ rows: (RewardRow & Row & { entry_read?: unknown; given_before?: boolean })[] }>(
    `select r.*${held ? '' : `, ${entryReadSql("r.reward_kind = 'points'", heldOutOf)} as entry_read`}${
      given ? `, ${givenBefore(given.sql)} as given_before` : ''
    } from reward r where r.account_id = ? and r.id = ?`,
    [
      ...(held ? [] : entryReadParams(tx.account.id, source.ownedById, heldOutOf)),
      ...(given ? [source.ownedById, source.milestoneId, given.scope(source)] : []),
      tx.account.id,
      source.rewardId,
    ],
  );
  if (!found) return { log: null, givenBefore: false };
  const { entry_read: read, given_before: givenAlready, ...reward } = found;
  if (givenAlready) return { log: null, givenBefore: true };
  tx.held?.add('reward', [reward]);
  const [log] = await tx
    .trx<RewardLogRow>('reward_log')
    .insert({
      account_id: tx.account.id,
      reward_id: reward.id,
      milestone_id: source.milestoneId,
      milestone_target_value: source.milestoneTargetValue ?? null,
      progress_id: source.progressId,
      linked_schema_slug: source.linkedSchemaSlug,
      linked_schema_record_id: source.linkedSchemaRecordId,
      owned_by_id: source.ownedById,
      period_key: source.periodKey,
      reward_log_status: held ? 'pending' : 'issued',
      confirm_at: held ? new Date(tx.now.getTime() + source.holdDays * tx.records.holdDaySeconds * 1000) : null,
    })
    .returning('*');
  tx.issued.reward();
  if (held) return { log: log!, givenBefore: false };
  return { log: (await issueNow({ ...tx, trx }, reward, [log!], entryRead(read)))[0]!, givenBefore: false };
}

/**
 * Reward logs for every crossed milestone that carries a reward, and the milestones achieved: those
 * crossed, less those whose reward this run or window was given already (their target raised since).
 */
export async function issueMilestoneRewards(
  tx: Tx,
  crossed: MilestoneRow[],
  base: Omit<RewardSource, 'rewardId' | 'milestoneId'>,
): Promise<{ achieved: MilestoneRow[]; logs: RewardLogRow[] }> {
  const achieved: MilestoneRow[] = [];
  const logs: RewardLogRow[] = [];
  for (const m of crossed) {
    const issued = await issue(tx, {
      ...base,
      rewardId: m.reward_id,
      milestoneId: m.id,
      milestoneTargetValue: Number(m.milestone_target_value),
    });
    if (issued.givenBefore) continue;
    achieved.push(m);
    if (issued.log) logs.push(issued.log);
  }
  return { achieved, logs };
}
