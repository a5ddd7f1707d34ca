import { z } from 'zod';
import { field } from '../records/fields.js';
import type { RowOfFields, ValuesOfFields } from '../records/row-types.js';
import { anyObject, eudText, eudTitle, name, requiredDescription } from './common.js';

export const REWARD_KINDS = ['code', 'points'] as const;
/** The bound of a reward's points value and cost. */
export const POINTS_MAX = 1_000_000;

export const rewardFields = {
  name: name(),
  description: requiredDescription(),
  status: field.status({ default: 'live', required: true, description: 'Only a live reward can be redeemed for points.' }),
  rewardKind: field.enum(REWARD_KINDS, {
    default: 'code',
    required: true,
    public: true,
    description:
      'code: a discount code (discountType and discountValue required); points: pointsValue points for the member (CONTRACT §19).',
  }),
  discountType: field.enum(['percentage', 'fixed_amount'], { public: true, description: 'Required when rewardKind is code.' }),
  discountValue: field.number({ min: 0, public: true, description: 'Required when rewardKind is code.' }),
  pointsValue: field.integer({
    min: 1,
    max: POINTS_MAX,
    public: true,
    description: 'The points a member earns; required when rewardKind is points.',
  }),
  pointsCost: field.integer({
    min: 1,
    max: POINTS_MAX,
    public: true,
    description: 'What redeeming it costs in points; null: it cannot be redeemed (CONTRACT §19).',
  }),
  rewardExpiryType: field.enum(['no_expiry', 'relative', 'absolute'], { required: true }),
  rewardExpiryInDays: field.number({ gt: 0, max: 36500, description: 'Required when rewardExpiryType is relative.' }),
  rewardExpiryAt: field.datetime({ description: 'Required when rewardExpiryType is absolute.' }),
  handleCoupon: field.boolean({ default: false }),
  handleCouponAutoGeneration: field.boolean({ default: false }),
  couponCodePrefix: field.string({ max: 16, pattern: /^[A-Za-z0-9_-]*$/, patternMessage: 'Letters, digits, _ and - only' }),
  couponCodeLength: field.integer({ min: 6, max: 32, default: 10, description: 'Length of the random part after the prefix.' }),
  eudTitle: eudTitle(),
  eudRedeemInstructionMessage: eudText(),
};

export const REWARD_LOG_STATUSES = ['pending', 'issued', 'revoked'] as const;

/**
 * A code as a shopper types it: no white space at either end (a code made of spaces, or " A" beside
 * "A", would be two codes that read as one) and no control characters (a tab or line break in a code).
 */
export const COUPON_CODE = /^[^\s\x00-\x1f\x7f](?:[^\x00-\x1f\x7f]*[^\s\x00-\x1f\x7f])?$/;
const COUPON_CODE_MESSAGE = 'A code has no white space at either end and no control characters.';

export const couponFields = {
  rewardId: field.uuid({ required: true, references: 'reward' }),
  couponCode: field.string({ required: true, max: 256, pattern: COUPON_CODE, patternMessage: COUPON_CODE_MESSAGE }),
  isCouponIssued: field.boolean({ default: false }),
  status: field.status({ required: true }),
};

export const rewardLogFields = {
  rewardId: field.uuid({ readOnly: true }),
  reward: field.virtual(anyObject),
  milestoneId: field.uuid({ readOnly: true }),
  milestone: field.virtual(anyObject),
  linkedSchemaSlug: field.string({ readOnly: true, alwaysSet: true }),
  linkedSchemaRecordId: field.uuid({ readOnly: true, alwaysSet: true }),
  ownedById: field.uuid({ readOnly: true, alwaysSet: true }),
  ownedBy: field.virtual(anyObject),
  couponCode: field.string({
    max: 256,
    pattern: COUPON_CODE,
    patternMessage: COUPON_CODE_MESSAGE,
    description: 'Set by the service (handleCoupon) or once by PATCH.',
  }),
  rewardIssuedAt: field.datetime({ description: 'PATCH default: now.' }),
  rewardExpiryAt: field.datetime({ description: "PATCH default: from the reward's expiry rule." }),
  periodKey: field.string({ readOnly: true }),
  status: field.status({ readOnly: true, alwaysSet: true }),
  rewardLogStatus: field.enum(REWARD_LOG_STATUSES, {
    readOnly: true,
    alwaysSet: true,
    description: 'pending: held until confirmAt, no code yet; issued; revoked: a reversal took the milestone back (CONTRACT §17).',
  }),
  confirmAt: field.datetime({ readOnly: true, description: 'When a pending reward log is issued; null unless it was created pending.' }),
  revokedAt: field.datetime({ readOnly: true }),
  revokedReason: field.string({ readOnly: true, description: "The reversal's reason, or reversal without one." }),
  eudRewardTitle: field.virtual(z.string().nullable(), { description: 'Rendered in languageCode.' }),
  eudRedeemInstructionMessage: field.virtual(z.string().nullable(), { description: 'Rendered in languageCode.' }),
};

export type RewardRow = RowOfFields<typeof rewardFields>;
export type RewardValues = ValuesOfFields<typeof rewardFields>;
/** A coupon also names the reward log it went to, and its place in the pool. */
export type CouponRow = RowOfFields<typeof couponFields> & { reward_log_id: string | null; issue_order: number };
/**
 * Not shown: `milestone_target_value`, the target the milestone had when it gave the log (a reversal
 * judges the log by it), and `progress_id`, the run or window it was given for (it gives nothing twice there).
 */
export type RewardLogRow = RowOfFields<typeof rewardLogFields> & { milestone_target_value?: number | null; progress_id?: string | null };
