import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { z } from 'zod';
import { runOnce } from '../db/prepared.js';
import { invalidInput, notRedeemable } from '../errors.js';
import { IssueTally } from '../observability/metrics.js';
import type { RequestContext } from '../records/context.js';
import type { LoadedRow } from '../records/fields.js';
import type { Records, Row } from '../records/resource.js';
import { bodyOrEmpty, issueDetails } from '../records/validate.js';
import type { RewardLogRow, RewardRow } from '../schema/rewards.js';
import { actingMember, addEntry, emitEntryEvent, lockMember, refuseReplay, unknownMember } from './points.js';
import { issuedFields, takeCodes } from './codes.js';

export const redeemBody = z.strictObject({
  ownedById: z
    .uuid({ message: 'Expected a UUID' })
    .optional()
    .meta({ description: 'The member (API key only; an end user redeems for themselves).' }),
  uniqueIdentifier: z.string().min(1).max(256).optional().meta({
    description: 'Unique per account among redemptions (kept on the redeemed entry): a replay is 409 duplicate_unique_identifier.',
  }),
});

/** The redemption's reward log, written once with its code (`$6`..`$8` null without one). */
export const REDEEMED_LOG_INSERT = `insert into reward_log (id, account_id, reward_id, milestone_id, linked_schema_slug, linked_schema_record_id,
    owned_by_id, period_key, reward_log_status, coupon_code, reward_issued_at, reward_expiry_at)
  values ($1, $2, $3, null, 'point_entry', $4, $5, null, 'issued', $6, $7, $8) returning *`;

/**
 * Redeems a reward for points (CONTRACT §19): one `redeemed` entry of its cost and one issued reward
 * log with its code by §8, in the caller's transaction (the reward read, not locked), or
 * nothing at all. The member's row lock decides racing redemptions, so none overspends.
 */
export async function redeemReward(
  trx: Knex.Transaction,
  records: Records,
  ctx: RequestContext,
  reward: RewardRow,
  body: unknown,
): Promise<{ rewardLog: Record<string, unknown>; pointsBalance: number }> {
  const parsed = redeemBody.safeParse(bodyOrEmpty(body));
  if (!parsed.success) throw invalidInput('The redemption is invalid.', issueDetails('', parsed.error));
  const { ownedById, uniqueIdentifier } = parsed.data;
  const memberId = actingMember(ctx, ownedById, 'redeems');
  const accountId = reward.account_id;
  // The member first: a body naming no member is refused as such before what the reward allows (CONTRACT §3).
  const read = await lockMember(trx, accountId, memberId);
  if (!read) throw unknownMember(memberId);
  // A retry of a redemption that was made is told so, whatever the reward is now: asked only when refusing.
  const refuse = async (refusal: Error): Promise<never> => {
    await refuseReplay(trx, accountId, { reason: 'redeemed', uniqueIdentifier, ownedById: memberId });
    throw refusal;
  };
  if (reward.reward_kind !== 'code')
    return refuse(
      notRedeemable('A reward that gives points is not bought with points.', [
        { field: 'rewardKind', code: 'not_redeemable', message: 'The reward gives points.' },
      ]),
    );
  if (reward.points_cost === null)
    return refuse(
      notRedeemable('This reward has no points cost.', [{ field: 'pointsCost', code: 'not_redeemable', message: 'No points cost.' }]),
    );
  if (reward.status !== 'live')
    return refuse(
      notRedeemable('This reward is not live.', [{ field: 'status', code: 'not_redeemable', message: `The reward is ${reward.status}.` }]),
    );
  // Only live members take part (CONTRACT §19, an addition: a member the shop has paused, e.g. a
  // customer its exclusions leave out, spends nothing either).
  if (read.member.status !== 'live')
    return refuse(
      notRedeemable('This member does not take part in the program.', [
        { field: 'ownedById', code: 'not_redeemable', message: `The member is ${read.member.status}.` },
      ]),
    );
  const rewardLogId = randomUUID();
  const entered = await addEntry(
    trx,
    accountId,
    {
      ownedById: memberId,
      points: -reward.points_cost,
      reason: 'redeemed',
      uniqueIdentifier: uniqueIdentifier ?? null,
      linkedSchemaSlug: 'reward_log',
      linkedSchemaRecordId: rewardLogId,
    },
    {
      read,
      whenNotLive: () =>
        notRedeemable('Points are not live in this account.', [{ code: 'not_redeemable', message: 'The points setting is not live.' }]),
    },
  );
  const issued = new IssueTally();
  issued.reward();
  const now = records.now();
  // The code first (a coupon names its log without a foreign key), so the log is written once, with it.
  const code = (await takeCodes({ trx, issued }, reward, [rewardLogId])).get(rewardLogId) ?? null;
  // A reward whose codes come from its pool, with none left: the shopper would pay for nothing.
  if (reward.handle_coupon && code === null)
    throw notRedeemable('No codes are left for this reward.', [
      { field: 'couponCode', code: 'not_redeemable', message: 'The reward’s coupon pool is empty and it generates none.' },
    ]);
  const issuedWith = issuedFields(reward, code, now);
  const [log] = await runOnce<RewardLogRow & Row>(trx, {
    text: REDEEMED_LOG_INSERT,
    values: [
      rewardLogId,
      accountId,
      reward.id,
      entered.entry.id,
      memberId,
      issuedWith.coupon_code ?? null,
      issuedWith.reward_issued_at ?? null,
      issuedWith.reward_expiry_at ?? null,
    ],
  });
  const rewardLogResource = records.registry.require('reward_log');
  // The answer and the event name the reward and the member this transaction already holds.
  const known = new Map<string, LoadedRow[]>([
    ['reward', [reward as RewardRow & LoadedRow]],
    ['account_user', [entered.member as typeof entered.member & LoadedRow]],
  ]);
  const [rewardLog] = await records.serialize(rewardLogResource, [log!], ctx, { db: trx, known });
  const [adminRewardLog] =
    ctx.flow === 'apikey'
      ? [rewardLog]
      : await records.serialize(rewardLogResource, [log!], { ...ctx, flow: 'apikey' }, { db: trx, known });
  await emitEntryEvent(trx, { records, ctx }, entered, { rewardLog: adminRewardLog });
  // Counted here: the action's transaction commits as soon as this returns.
  issued.commit();
  return { rewardLog: rewardLog!, pointsBalance: entered.pointsBalance };
}
