import type { Knex } from 'knex';
import { type RequestContext, resolveText } from '../records/context.js';
import type { KnownRows, LoadArgs, LoadedRow } from '../records/fields.js';
import { expiryFor } from '../engine/codes.js';
import { conflict, invalidInput, rewardLogNotIssued } from '../errors.js';
import { defineResource, type Row, type WriteArgs } from '../records/resource.js';
import type { MilestoneRow } from '../schema/definitions.js';
import type { AccountUserRow } from '../schema/members.js';
import { type RewardLogRow, rewardLogFields, type RewardRow } from '../schema/rewards.js';
import { formatValidTill } from '../templates/format.js';
import { render } from '../templates/render.js';
import { joinOwnerAnd } from './activity.js';
import { joinOne, OWN_READ, readRows } from './common.js';

/** Default texts per language; the "valid till" clause shows only when the reward expires. */
const DEFAULT_TITLE: Record<string, string> = {
  en: 'Your reward',
  es: 'Tu recompensa',
  fr: 'Votre récompense',
  de: 'Deine Belohnung',
  'zh-CN': '您的奖励',
  ja: 'あなたの特典',
  pt: 'Sua recompensa',
  it: 'Il tuo premio',
  ko: '나의 리워드',
};
const DEFAULT_INSTRUCTION: Record<string, string> = {
  en: 'Use the offer code at checkout{{#if rewardValidTill}}, valid till {{rewardValidTill}}{{/if}}.',
  es: 'Usa el código de la oferta al pagar{{#if rewardValidTill}}, válido hasta el {{rewardValidTill}}{{/if}}.',
  fr: "Utilisez le code promo lors du paiement{{#if rewardValidTill}}, valable jusqu'au {{rewardValidTill}}{{/if}}.",
  de: 'Löse den Code an der Kasse ein{{#if rewardValidTill}}, gültig bis {{rewardValidTill}}{{/if}}.',
  'zh-CN': '结账时使用优惠码{{#if rewardValidTill}}，有效期至 {{rewardValidTill}}{{/if}}。',
  ja: 'お会計時にクーポンコードをご利用ください{{#if rewardValidTill}}（{{rewardValidTill}}まで有効）{{/if}}。',
  pt: 'Use o código ao finalizar a compra{{#if rewardValidTill}}, válido até {{rewardValidTill}}{{/if}}.',
  it: 'Usa il codice al momento del pagamento{{#if rewardValidTill}}, valido fino al {{rewardValidTill}}{{/if}}.',
  ko: '결제 시 쿠폰 코드를 사용하세요{{#if rewardValidTill}} ({{rewardValidTill}}까지 유효){{/if}}.',
};

/** The rows of `table` that the rows' `column` names, by id, from the rows' own accounts. */
async function byId<T extends LoadedRow>(
  db: Knex,
  table: string,
  rows: RewardLogRow[],
  column: 'reward_id' | 'milestone_id' | 'owned_by_id',
  known: KnownRows,
) {
  const ids = [...new Set(rows.map((r) => r[column]).filter((v): v is string => typeof v === 'string'))];
  if (!ids.length) return new Map<string, T>();
  const found = await readRows<T>(db, table, [...new Set(rows.map((r) => r.account_id))], ids, known);
  return new Map(found.map((r) => [r.id, r]));
}

/** Renders eudRewardTitle and eudRedeemInstructionMessage: milestone texts first, then the reward's. */
async function loadTexts({ rows, ctx, db, wanted, known }: LoadArgs<RewardLogRow & LoadedRow>): Promise<void> {
  if (!wanted.has('eudRewardTitle') && !wanted.has('eudRedeemInstructionMessage')) return;
  // Sequential: inside a transaction these share one connection.
  const rewards = await byId<RewardRow & LoadedRow>(db, 'reward', rows, 'reward_id', known);
  const milestones = await byId<MilestoneRow & LoadedRow>(db, 'milestone', rows, 'milestone_id', known);
  const members = await byId<AccountUserRow & LoadedRow>(db, 'account_user', rows, 'owned_by_id', known);
  for (const row of rows) {
    const reward = row.reward_id === null ? undefined : rewards.get(row.reward_id);
    const milestone = row.milestone_id === null ? undefined : milestones.get(row.milestone_id);
    const member = row.owned_by_id === null ? undefined : members.get(row.owned_by_id);
    const lang = textLanguage(ctx);
    // The member's language (CONTRACT §6); one without their own reads the date in the text's language.
    const locale = member?.language_code ?? lang;
    const timeZone = member?.timezone ?? ctx.account?.timezone ?? 'UTC';
    const validTill = formatValidTill(row.reward_expiry_at, locale, timeZone);
    const data = { rewardValidTill: validTill, $helpers: { rewardValidTill: validTill } };
    const title =
      resolveText(milestone?.eud_milestone_reward_title, ctx) ??
      resolveText(reward?.eud_title, ctx) ??
      DEFAULT_TITLE[lang] ??
      DEFAULT_TITLE.en!;
    const instruction =
      resolveText(milestone?.eud_milestone_reward_instruction_message, ctx) ??
      resolveText(reward?.eud_redeem_instruction_message, ctx) ??
      DEFAULT_INSTRUCTION[lang] ??
      DEFAULT_INSTRUCTION.en!;
    row.eudRewardTitle = render(title, data, { escape: false });
    row.eudRedeemInstructionMessage = render(instruction, data, { escape: false });
  }
}

/**
 * The client's coupon for a reward that does not handle coupons (spec rule 3). A code is set
 * once: the same values again answer 200, so retries are safe; different values are 409.
 */
async function stampCoupon({ trx, values, existing }: WriteArgs<typeof rewardLogFields>): Promise<Row> {
  const row = existing!;
  if (typeof values.couponCode !== 'string') {
    throw invalidInput('couponCode is required.', [{ field: 'couponCode', code: 'required', message: '"couponCode" is required.' }]);
  }
  // A held log gets its code from the scheduler, a revoked one none (CONTRACT §17).
  if (row.reward_log_status !== 'issued')
    throw rewardLogNotIssued(`This reward log is ${row.reward_log_status}: only an issued one takes a code.`, [
      { field: 'couponCode', code: row.reward_log_status, message: `The reward log is ${row.reward_log_status}.` },
    ]);
  const sentTime = (key: 'rewardIssuedAt' | 'rewardExpiryAt') => {
    const sent = values[key];
    return sent == null ? undefined : new Date(sent);
  };
  // A repeat is compared on what it sends. A null issue time asks for the default, as its absence
  // does; a null expiry asks for none, which must be what was stamped.
  const sameTime = (key: 'rewardIssuedAt' | 'rewardExpiryAt', stored: Date | null) => {
    const sent = values[key];
    if (sent === undefined || (sent === null && key === 'rewardIssuedAt')) return true;
    return sent === null ? stored === null : new Date(sent).getTime() === stored?.getTime();
  };
  if (row.coupon_code !== null) {
    const same =
      row.coupon_code === values.couponCode &&
      sameTime('rewardIssuedAt', row.reward_issued_at) &&
      sameTime('rewardExpiryAt', row.reward_expiry_at);
    if (same) return row;
    throw conflict('This reward log already has a coupon code.', [
      { field: 'couponCode', code: 'already_set', message: 'A coupon code was already stamped.' },
    ]);
  }
  // A code of a pool is the pool's to give: stamped here too, two members would hold it.
  const pooled = await trx('coupon')
    .where({ account_id: row.account_id, coupon_code: values.couponCode })
    .whereRaw('reward_log_id is distinct from ?', [row.id])
    .first('id');
  if (pooled)
    throw conflict('This code is a coupon of a reward’s pool, which gives it to a member of its own.', [
      { field: 'couponCode', code: 'duplicate', message: 'A coupon with this code exists in this account.' },
    ]);
  const issuedAt = sentTime('rewardIssuedAt') ?? new Date();
  const reward =
    row.reward_id === null ? undefined : await trx<RewardRow>('reward').where({ account_id: row.account_id, id: row.reward_id }).first();
  const expiry = values.rewardExpiryAt === undefined ? expiryFor(reward, issuedAt) : (sentTime('rewardExpiryAt') ?? null);
  if (values.rewardExpiryAt != null && expiry && expiry.getTime() < issuedAt.getTime())
    throw invalidInput('A code cannot expire before it is issued.', [
      { field: 'rewardExpiryAt', code: 'invalid', message: `Must not be before rewardIssuedAt (${issuedAt.toISOString()}).` },
    ]);
  const [updated] = await trx<Row>('reward_log')
    .where({ account_id: row.account_id, id: row.id })
    .update({ coupon_code: values.couponCode, reward_issued_at: issuedAt, reward_expiry_at: expiry, updated_at: trx.fn.now() })
    .returning('*');
  return updated!;
}

const textLanguage = (ctx: RequestContext) => ctx.languageCode ?? ctx.account?.defaultLanguageCode ?? 'en';

export const rewardLog = defineResource({
  slug: 'reward_log',
  table: 'reward_log',
  description: 'Rewards issued to members when milestones are achieved or missions completed.',
  access: { ...OWN_READ, update: ['apikey'] },
  publicScope: 'own',
  fields: rewardLogFields,
  update: stampCoupon,
  updateRequires: ['couponCode'],
  async load(args) {
    await joinOwnerAnd()(args);
    if (args.wanted.has('reward'))
      await joinOne(args.rows, 'reward_id', 'reward', args.db, 'reward', (f) => args.serializeJoined('reward', f), args.known);
    if (args.wanted.has('milestone'))
      await joinOne(args.rows, 'milestone_id', 'milestone', args.db, 'milestone', (f) => args.serializeJoined('milestone', f), args.known);
    await loadTexts(args);
  },
});
