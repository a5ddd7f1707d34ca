import { type AccountClient, CoreError } from '../../core/client.server';
import type { CoreFailure } from '../../core/failure';
import {
  type Creatable,
  createFromValues,
  type LanguageCode,
  records,
  type Removable,
  removeRecord,
  type Updatable,
  updateFromValues,
  updateRecord,
  whereEquals,
} from '../../core/records.server';
import { isJsonObject, objectOf } from '../../json';
import { type AdminGraphql, primaryLocale } from '../../shopify/admin-api.server';
import { liveWidgetIds } from '../../shopify/widget-metafields.server';
import { type ProgramTemplateId, programPlan, type ProgramPlan, REWARD_VALID_DAYS, type RewardPlan } from './program-templates';
import { STOREFRONT_TEXTS, widgetLanguage, type WidgetLanguage } from './storefront-texts';

/**
 * The checklist's first step (issue #18): a program template created in one step — its rewards,
 * definition with its earning rule, milestones and leaderboard, and the widget's records the app embed needs — and removed
 * again when a later step fails; and a draft program set live.
 */

/** What a template creates: resources the app may create, patch (the English texts) and delete again. */
export type TemplateSlug = Creatable & Updatable & Removable;

export interface CreatedRecord {
  slug: TemplateSlug;
  id: string;
  name: string;
}

export type CreateResult =
  | {
      ok: true;
      language: WidgetLanguage;
      /** What the merchant opens next: the program, or for points and tiers the points setting. */
      definition: { slug: TemplateSlug | 'points_setting'; id: string; name: string };
      created: CreatedRecord[];
      shopifyDiscountRewards: string[];
    }
  | {
      ok: false;
      message: string;
      /** The core's status when one of its calls failed (an outage is said in the merchant's words). */
      status?: number;
      fieldErrors: Record<string, string>;
      leftOver: CreatedRecord[];
      /** Another launch of the same template is running (points and tiers; nothing was done). */
      busy?: boolean;
    };

export interface CreateOptions {
  template: ProgramTemplateId;
  status: 'live' | 'draft';
  shopifyDiscounts: boolean;
  language: WidgetLanguage;
  /** The shop's currency (ISO 4217), in which the texts name amounts of money; null when unknown. */
  currency: string | null;
}

/**
 * The template texts' language: the shop's primary locale where the widget has it, else English
 * (also when the locale cannot be read, so a missing scope never blocks a launch).
 */
export async function templateLanguage(admin: AdminGraphql): Promise<WidgetLanguage> {
  try {
    return widgetLanguage(await primaryLocale(admin));
  } catch {
    return 'en';
  }
}

export class StepFailed extends Error {
  constructor(
    readonly failure: Pick<CoreFailure, 'message' | 'fieldErrors'> & { status?: number },
    readonly what: string,
  ) {
    super(failure.message);
  }
}

/** The localisable fields of a body: the eud* texts and a mission's task texts. */
function localised(body: Record<string, unknown>, stored: Record<string, unknown>): Record<string, unknown> {
  const texts: Record<string, unknown> = Object.fromEntries(Object.entries(body).filter(([k]) => k.startsWith('eud')));
  const given = body.tasks;
  if (Array.isArray(given) && Array.isArray(stored.tasks)) {
    // Tasks keep their ids, so the texts merge into the stored ones per language.
    texts.tasks = stored.tasks.filter(isJsonObject).map((t, i) => {
      const { eudTitle, eudDescription, ...rest } = t;
      const mine = objectOf(given[i]);
      return { ...rest, eudTitle: mine.eudTitle ?? eudTitle, eudDescription: mine.eudDescription ?? eudDescription };
    });
  }
  return texts;
}

export type Post = (
  slug: TemplateSlug,
  body: Record<string, unknown>,
  fallback: Record<string, unknown> | null,
  what: string,
) => Promise<{ id: string }>;

/**
 * Creates records one by one, each in `language` (the core's default when none) with its English
 * texts patched in from `fallback`, and keeps what it created, to delete it again when a later step fails.
 */
export function creator(api: AccountClient, language: LanguageCode | undefined) {
  const created: CreatedRecord[] = [];
  const post: Post = async (slug, body, fallback, what) => {
    const made = await createFromValues(api, slug, body, language);
    if (!made.ok) throw new StepFailed(made.failure, what);
    const record = made.data;
    created.push({ slug, id: record.id, name: String(body.name ?? slug) });
    if (fallback) {
      const texts = localised(fallback, record);
      if (Object.keys(texts).length) {
        const patched = await updateFromValues(api, slug, record.id, texts, 'en');
        if (!patched.ok) throw new StepFailed(patched.failure, what);
      }
    }
    return record;
  };
  /** Deletes what was created, newest first; answers what could not be deleted. */
  const undo = async (): Promise<CreatedRecord[]> => {
    const leftOver: CreatedRecord[] = [];
    for (const record of [...created].reverse()) {
      const removed = await removeRecord(api, record.slug, record.id).catch(() => ({ ok: false }));
      if (!removed.ok) leftOver.push(record);
    }
    return leftOver;
  };
  return { created, post, undo };
}

export function failureOf(err: unknown): StepFailed['failure'] {
  if (err instanceof StepFailed) return err.failure;
  if (err instanceof CoreError) return { status: err.status, message: err.message, fieldErrors: {} };
  return { message: err instanceof Error ? err.message : String(err), fieldErrors: {} };
}

/**
 * Creates everything a template promises, in its language (texts also in English, the fallback for
 * shoppers in other languages), and the widget's launcher, theme and texts when the account has no
 * live ones. All or nothing as the merchant sees it: when a step fails, what was created is deleted
 * again (newest first) and the core's error is returned.
 */
/** What a template keeps in the app besides the core's records. */
export interface TemplateAppSettings {
  markShopifyDiscount(rewardId: string, on: boolean): Promise<void>;
  /** The definition's earning rule (CONTRACT §17); null removes it. */
  setEarningRule(
    definitionId: string,
    rule: { kind: 'streak' | 'challenge'; source: 'orders' | 'visits'; collectionIds: string[] } | null,
  ): Promise<void>;
}

export async function createProgram(api: AccountClient, options: CreateOptions, app: TemplateAppSettings): Promise<CreateResult> {
  const plan = programPlan(options.template, STOREFRONT_TEXTS[options.language], options.language, options.currency);
  const english = options.language === 'en' ? null : programPlan(options.template, STOREFRONT_TEXTS.en, 'en', options.currency);
  const { created, post, undo } = creator(api, options.language);
  const marked: string[] = [];
  let ruled: string | null = null;

  try {
    const rewardIds = new Map<string, string>();
    for (const [i, reward] of plan.rewards.entries()) {
      const name = String(plan.definition.name);
      const body = rewardBody(reward, name, options.shopifyDiscounts, STOREFRONT_TEXTS[options.language].redeem);
      const fallback = english
        ? rewardBody(english.rewards[i]!, String(english.definition.name), options.shopifyDiscounts, STOREFRONT_TEXTS.en.redeem)
        : null;
      rewardIds.set(reward.key, (await post('reward', body, fallback, 'reward')).id);
    }
    const definitionBody = (p: ProgramPlan) => ({
      ...p.definition,
      status: options.status,
      ...(p.completionRewardKey ? { rewardId: rewardIds.get(p.completionRewardKey) } : {}),
    });
    const definition = await post(plan.slug, definitionBody(plan), english ? definitionBody(english) : null, plan.slug);
    // Every template earns by itself from the next order or visit, without Flow.
    if (plan.earning && plan.slug !== 'mission') {
      await app.setEarningRule(definition.id, { kind: plan.slug, source: plan.earning, collectionIds: [] });
      ruled = definition.id;
    }
    for (const [i, milestone] of plan.milestones.entries()) {
      const body = (m: typeof milestone) => ({
        name: m.title,
        description: m.title,
        linkedSchemaSlug: plan.slug,
        linkedSchemaRecordId: definition.id,
        milestoneTargetValue: m.target,
        status: 'live',
        rewardId: rewardIds.get(m.rewardKey),
        eudTitle: m.title,
      });
      await post('milestone', body(milestone), english ? body(english.milestones[i]!) : null, 'milestone');
    }
    if (plan.leaderboard) {
      const body = (p: ProgramPlan) => ({
        ...p.leaderboard,
        status: options.status,
        linkedSchemaSlug: plan.slug,
        linkedSchemaRecordId: definition.id,
      });
      await post('leaderboard', body(plan), english ? body(english) : null, 'leaderboard');
    }
    await ensureWidgetRecords(api, options.language, post);
    if (options.shopifyDiscounts) {
      for (const id of rewardIds.values()) {
        await app.markShopifyDiscount(id, true);
        marked.push(id);
      }
    }
    return {
      ok: true,
      language: options.language,
      definition: { slug: plan.slug, id: definition.id, name: String(plan.definition.name) },
      created,
      shopifyDiscountRewards: marked,
    };
  } catch (err) {
    const failure = failureOf(err);
    for (const id of marked) await app.markShopifyDiscount(id, false).catch(() => undefined);
    if (ruled) await app.setEarningRule(ruled, null).catch(() => undefined);
    return { ok: false, message: failure.message, status: failure.status, fieldErrors: failure.fieldErrors, leftOver: await undo() };
  }
}

/**
 * A template's reward; one with a cost in points can be redeemed for them (CONTRACT §19). Its name
 * carries its program's: two templates give rewards of one title ("10% off your next order"), which
 * the admin's lists and pickers must tell apart.
 */
export function rewardBody(reward: RewardPlan, programName: string, shopifyDiscounts: boolean, redeem: string): Record<string, unknown> {
  return {
    name: `${reward.title} · ${programName}`,
    description: `${programName}: ${reward.title}`,
    discountType: reward.discountType,
    discountValue: reward.discountValue,
    rewardExpiryType: 'relative',
    rewardExpiryInDays: REWARD_VALID_DAYS,
    // A Shopify discount's code comes from the app (CONTRACT §16); otherwise the core generates one.
    handleCoupon: !shopifyDiscounts,
    handleCouponAutoGeneration: !shopifyDiscounts,
    ...(shopifyDiscounts ? {} : { couponCodePrefix: reward.couponCodePrefix }),
    ...(reward.pointsCost ? { pointsCost: reward.pointsCost } : {}),
    eudTitle: reward.title,
    eudRedeemInstructionMessage: redeem,
  };
}

/**
 * Sets a draft (or paused) program live, and with it the leaderboards of it that are not live yet
 * (a template created as a draft made its leaderboard a draft too).
 */
export async function launchProgram(
  api: AccountClient,
  slug: 'streak' | 'challenge' | 'mission',
  id: string,
): Promise<{ ok: true; name: string } | { ok: false; status: number; message: string }> {
  const updated = await updateRecord(api, slug, id, { status: 'live' });
  if (!updated.ok) return { ok: false, status: updated.failure.status, message: updated.failure.message };
  const boards = await records(api, 'leaderboard').list({ filters: whereEquals('linkedSchemaRecordId', id), limit: 100 });
  if (!boards.ok) return { ok: false, status: boards.failure.status, message: boards.failure.message };
  for (const board of boards.data.filter((b) => b.status !== 'live')) {
    const done = await updateRecord(api, 'leaderboard', board.id, { status: 'live' });
    if (!done.ok) return { ok: false, status: done.failure.status, message: done.failure.message };
  }
  return { ok: true, name: String(updated.data.name ?? '') };
}

/**
 * Creates the launcher, theme and template the account lacks (live ones): the launcher's label and
 * the template's texts in `language`, the shop's (the core keeps English defaults beside them).
 */
export async function ensureWidgetRecords(api: AccountClient, language: WidgetLanguage, post: Post): Promise<void> {
  const ids = await liveWidgetIds(api);
  if (!ids.floatingWidgetId) {
    const body = (lang: WidgetLanguage) => ({
      name: STOREFRONT_TEXTS[lang].widgetRecords.launcher,
      description: STOREFRONT_TEXTS[lang].widgetRecords.launcherDescription,
      status: 'live',
      eudTitle: STOREFRONT_TEXTS[lang].launcher,
    });
    await post('floating_widget', body(language), language === 'en' ? null : body('en'), 'floating_widget');
  }
  const names = STOREFRONT_TEXTS[language].widgetRecords;
  if (!ids.themeId) await post('theme', { name: names.theme, status: 'live' }, null, 'theme');
  if (!ids.templateId)
    await post('template', { name: names.template, status: 'live', ...STOREFRONT_TEXTS[language].template }, null, 'template');
}

/** The widget records on their own (the "Show it on your store" step, for programs made by hand). */
export async function createWidgetRecords(api: AccountClient, language: WidgetLanguage): Promise<CreateResult | { ok: true }> {
  // Written in the shop's language, as the programs are: in the account's default (English), the
  // launcher's English label patched in after it would replace the shop's.
  const { post, undo } = creator(api, language);
  try {
    await ensureWidgetRecords(api, language, post);
    return { ok: true };
  } catch (err) {
    const failure = failureOf(err);
    return { ok: false, message: failure.message, status: failure.status, fieldErrors: failure.fieldErrors, leftOver: await undo() };
  }
}
