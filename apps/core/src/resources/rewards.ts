import { z } from 'zod';
import { redeemBody, redeemReward } from '../engine/redeem.js';
import { conflict, invalidInput } from '../errors.js';
import { defineResource } from '../records/resource.js';
import { issueDetails } from '../records/validate.js';
import { COUPON_CODE, couponFields, rewardFields } from '../schema/rewards.js';
import { ADMIN, ADMIN_PUBLIC_READ } from './common.js';
import { revokedWithItsReward } from '../engine/rewards.js';

const MAX_IMPORT = 10_000;
const CODE_MAX = 256;
const importBody = z.strictObject({ couponCodes: z.array(z.string()) });
/** The import's JSON body as the OpenAPI document gives it, with the limits the import checks after trimming. */
const importBodyDocumented = z.strictObject({ couponCodes: z.array(z.string().max(CODE_MAX)).max(MAX_IMPORT) });

export const reward = defineResource({
  slug: 'reward',
  table: 'reward',
  description:
    'Rewards: discount definitions issued when milestones are achieved or missions completed. ' +
    'End users and guests read the live code rewards with a pointsCost, while points are live, in their public fields: what the storefront offers for points.',
  access: ADMIN_PUBLIC_READ,
  publicScope: 'public',
  // The storefront shows only what can be redeemed (CONTRACT §19): a reward without a cost is a
  // milestone's, which definitions already nest, one that gives points is not bought with them, and
  // nothing is redeemable while points are off.
  publicWhere:
    "reward.points_cost is not null and reward.reward_kind = 'code' and exists (select 1 from points_setting p " +
    "where p.account_id = reward.account_id and p.status = 'live')",
  fields: rewardFields,
  rules: {
    description:
      'discountType and discountValue are required when rewardKind is code (the default), pointsValue when it is points. ' +
      'A percentage discountValue is at most 100. rewardExpiryInDays is required when rewardExpiryType is relative, ' +
      'rewardExpiryAt when it is absolute (on update, as the record stands after the patch).',
    // rewardKind left out is code: the discount is then required too.
    create: [
      {
        if: { not: { required: ['rewardKind'] } },
        then: {
          required: ['discountType', 'discountValue'],
          properties: { discountType: { enum: ['percentage', 'fixed_amount'] }, discountValue: { type: 'number', minimum: 0 } },
        },
      },
    ],
    conditional: [
      { when: { field: 'rewardKind', equals: 'code' }, require: ['discountType', 'discountValue'] },
      { when: { field: 'rewardKind', equals: 'points' }, require: ['pointsValue'] },
      {
        when: { field: 'discountType', equals: 'percentage' },
        maximum: { field: 'discountValue', value: 100, message: 'A percentage discount is at most 100.' },
      },
      { when: { field: 'rewardExpiryType', equals: 'relative' }, require: ['rewardExpiryInDays'] },
      { when: { field: 'rewardExpiryType', equals: 'absolute' }, require: ['rewardExpiryAt'] },
    ],
  },
  async beforeDelete({ trx, row }) {
    const account = row.account_id;
    // A held reward log of it can no longer be given: it stays, as history, revoked (never issued without its reward).
    await trx('reward_log')
      .where({ account_id: account, reward_id: row.id, reward_log_status: 'pending' })
      .update(revokedWithItsReward(new Date()));
    await trx('coupon').where({ account_id: account, reward_id: row.id, is_coupon_issued: false }).delete();
    await trx('milestone').where({ account_id: account, reward_id: row.id }).update({ reward_id: null });
    await trx('mission').where({ account_id: account, reward_id: row.id }).update({ reward_id: null });
    await trx('tier').where({ account_id: account, entry_reward_id: row.id }).update({ entry_reward_id: null });
    await trx('points_setting').where({ account_id: account, referral_reward_id: row.id }).update({ referral_reward_id: null });
  },
  actions: {
    redeem: {
      flows: ['apikey', 'enduser'],
      // The member's row lock decides racing redemptions; the reward is only read.
      locksRecord: false,
      body: redeemBody,
      returns: z.object({
        rewardLog: z.record(z.string(), z.unknown()).meta({ $ref: '#/components/schemas/RewardLog' }),
        pointsBalance: z.number().int(),
      }),
      description:
        'Redeems the reward for its pointsCost (CONTRACT §19): an end user for themselves, an API key with ownedById. ' +
        'One redeemed point entry and one issued reward log, or nothing: 409 insufficient_points, not_redeemable (also for a member who is not live), duplicate_unique_identifier.',
      run: ({ trx, ctx, records, row, body }) => redeemReward(trx, records, ctx, row, body),
    },
    import_coupons: {
      returns: z.object({ imported: z.number().int(), duplicates: z.number().int() }),
      description: 'Imports coupon codes into the reward\'s pool from {"couponCodes": [...]} or text/csv (one code a line).',
      accepts: ['application/json', 'text/csv'],
      body: importBodyDocumented,
      maxBodyBytes: 4 * 1024 * 1024,
      async run({ trx, row, body, rawBody, contentType }) {
        const codes = parseCodes(contentType, body, rawBody);
        const unique = [...new Set(codes)];
        let imported = 0;
        for (let i = 0; i < unique.length; i += 1000) {
          const chunk = unique.slice(i, i + 1000);
          const inserted = await trx('coupon')
            .insert(chunk.map((code) => ({ account_id: row.account_id, reward_id: row.id, coupon_code: code, status: 'live' })))
            .onConflict(['account_id', 'coupon_code'])
            .ignore()
            .returning('id');
          imported += inserted.length;
        }
        return { imported, duplicates: codes.length - imported };
      },
    },
  },
});

/** Trimmed codes, blanks skipped; any invalid code or too many fails the whole import. */
function parseCodes(contentType: string | undefined, body: unknown, raw: Buffer | undefined): string[] {
  const entries: { code: string; where: string }[] = [];
  if (contentType === 'text/csv') {
    // One code a line, whichever line ending the file was saved with; a quoted field's "" is one quote (RFC 4180).
    (raw?.toString('utf8') ?? '').split(/\r\n|\r|\n/).forEach((line, i) => {
      const trimmed = line.trim();
      const quoted = /^"(.*)"$/.exec(trimmed);
      const code = (quoted ? quoted[1]!.replaceAll('""', '"') : trimmed).trim();
      if (code) entries.push({ code, where: `line ${i + 1}` });
    });
  } else {
    const parsed = importBody.safeParse(body);
    if (!parsed.success) {
      throw invalidInput('The body must be {"couponCodes": [string, ...]}.', issueDetails('', parsed.error));
    }
    parsed.data.couponCodes.forEach((c, i) => {
      const code = c.trim();
      if (code) entries.push({ code, where: `couponCodes[${i}]` });
    });
  }
  if (entries.length > MAX_IMPORT) {
    throw invalidInput(`At most ${MAX_IMPORT} codes per import.`, [
      { field: 'couponCodes', code: 'too_many', message: `Got ${entries.length} codes; the limit is ${MAX_IMPORT}.` },
    ]);
  }
  const unreadable = entries.filter((e) => !COUPON_CODE.test(e.code));
  if (unreadable.length) {
    throw invalidInput(
      'Some codes hold control characters (a tab or line break); nothing was imported.',
      unreadable.map((e) => ({ field: e.where, code: 'invalid_format', message: 'A code has no control characters.' })),
    );
  }
  // Characters as the document's maxLength counts them (code points), not UTF-16 units.
  const bad = entries.filter((e) => [...e.code].length > CODE_MAX);
  if (bad.length) {
    throw invalidInput(
      `Some codes are longer than ${CODE_MAX} characters; nothing was imported.`,
      bad.map((e) => ({ field: e.where, code: 'too_long', message: `Must be at most ${CODE_MAX} characters.` })),
    );
  }
  return entries.map((e) => e.code);
}

/**
 * 409 for a change that would let the pool give a code to a second member (CONTRACT §8: never to two
 * logs): a coupon the service issued to a reward log keeps its code, reward and issue, and stays, so
 * that its code can be neither issued nor imported again.
 */
function keptForItsLog(row: Readonly<Record<string, unknown>>, field: string): void {
  if (row.reward_log_id)
    throw conflict('This coupon was issued to a reward log: its code stays issued, so no other member gets it.', [
      { field, code: 'issued', message: `Issued to reward log ${String(row.reward_log_id)}.` },
    ]);
}

export const coupon = defineResource({
  slug: 'coupon',
  table: 'coupon',
  description: "Coupon codes in a reward's pool.",
  access: ADMIN,
  fields: couponFields,
  uniqueErrors: {
    coupon_code_unique: { status: 409, field: 'couponCode', message: 'A coupon with this code already exists.' },
  },
  answers: { delete: [409] },
  async beforeUpdate({ values, existing }) {
    if (!existing) return;
    if ('couponCode' in values && values.couponCode !== existing.coupon_code) keptForItsLog(existing, 'couponCode');
    if ('isCouponIssued' in values && values.isCouponIssued !== true) keptForItsLog(existing, 'isCouponIssued');
    if ('rewardId' in values && values.rewardId !== existing.reward_id) keptForItsLog(existing, 'rewardId');
  },
  async beforeDelete({ row }) {
    keptForItsLog(row, 'id');
  },
});
