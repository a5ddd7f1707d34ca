import type { AccountClient } from '../../core/client.server';
import { records, updateFromValues, updateRecord } from '../../core/records.server';
import type { TemplateRecord } from '../../storage/template-launches.server';
import {
  type CreatedRecord,
  type CreateResult,
  creator,
  ensureWidgetRecords,
  failureOf,
  rewardBody,
  StepFailed,
  type TemplateAppSettings,
} from './create-program.server';
import { pointsPlan, type PointsPlan } from './program-templates';
import { earnsByRates } from './checklist.server';
import { STOREFRONT_TEXTS, type WidgetLanguage } from './storefront-texts';

/**
 * The points and tiers template (CONTRACT §19) in one step: rewards to redeem for points, the
 * tiers, the widget's records when the account lacks them, and last the account's points setting
 * (earning rates, what shoppers call points, live; a setting the merchant has set up keeps its
 * rates and name). Idempotent: the records it makes are kept by
 * key in the app's database, so a launch retried or repeated finds them instead of making them
 * again (it makes again only what was deleted since); one launch per shop runs at a time, the
 * database deciding. A failing step deletes what this launch made, as the other templates do.
 */

export const POINTS_TEMPLATE = 'points-tiers';

export interface PointsOptions {
  status: 'live' | 'draft';
  shopifyDiscounts: boolean;
  language: WidgetLanguage;
  /** The shop's currency (ISO 4217), named in the fixed amount reward's title; null when unknown. */
  currency: string | null;
}

/** The template's records in the app's database, for one shop. */
export interface TemplateMemory {
  /** Claims the launch; null while another launch of the template runs. */
  claim(): Promise<string | null>;
  release(claim: string): Promise<void>;
  records(): Promise<TemplateRecord[]>;
  keep(record: TemplateRecord): Promise<void>;
  forget(keys: string[]): Promise<void>;
}

/** The slugs the template makes records of. */
const MADE_SLUGS = ['reward', 'tier'] as const;
type MadeSlug = (typeof MADE_SLUGS)[number];
const isMade = (slug: string): slug is MadeSlug => MADE_SLUGS.some((s) => s === slug);

const rewardKey = (key: string) => `reward:${key}`;
const tierKey = (key: string) => `tier:${key}`;

/** The template's records that still exist in the core, by key, with their status; the others are forgotten. */
async function existing(api: AccountClient, memory: TemplateMemory): Promise<Map<string, { id: string; status: string }>> {
  const found = new Map<string, { id: string; status: string }>();
  const gone: string[] = [];
  for (const kept of await memory.records()) {
    if (!isMade(kept.slug)) continue;
    const read = await records(api, kept.slug).get(kept.recordId);
    if (read.ok) found.set(kept.key, { id: read.data.id, status: String(read.data.status ?? '') });
    else if (read.failure.status === 404) gone.push(kept.key);
    else throw new StepFailed(read.failure, kept.slug);
  }
  await memory.forget(gone);
  return found;
}

function tierBody(tier: PointsPlan['tiers'][number], status: 'live' | 'draft'): Record<string, unknown> {
  return {
    name: tier.title,
    description: tier.description,
    status,
    pointsThreshold: tier.pointsThreshold,
    earnMultiplier: tier.earnMultiplier,
    eudTitle: tier.title,
    eudDescription: tier.description,
  };
}

export async function createPointsProgram(
  api: AccountClient,
  options: PointsOptions,
  app: Pick<TemplateAppSettings, 'markShopifyDiscount'>,
  memory: TemplateMemory,
): Promise<CreateResult> {
  const claim = await memory.claim();
  if (!claim) return { ok: false, busy: true, message: 'This template is being created already.', fieldErrors: {}, leftOver: [] };
  const t = STOREFRONT_TEXTS[options.language];
  const plan = pointsPlan(t, options.language, options.currency);
  const english = options.language === 'en' ? null : pointsPlan(STOREFRONT_TEXTS.en, 'en', options.currency);
  const { created, post, undo } = creator(api, options.language);
  /** The keys this launch made records for, by record id. */
  const kept = new Map<string, string>();
  const marked: string[] = [];
  let englishName: { id: string; before: { eudCurrencyName: string | null; eudCurrencyNameOne: string | null } } | null = null;
  let before = new Map<string, { id: string; status: string }>();

  /** The record for `key`: the one made before (set live when launched live), else a new one, kept by key. */
  const ensure = async (key: string, slug: MadeSlug, body: Record<string, unknown>, fallback: Record<string, unknown> | null) => {
    const found = before.get(key);
    if (found) {
      if (options.status === 'live' && found.status !== 'live') {
        const done = await updateRecord(api, slug, found.id, { status: 'live' });
        if (!done.ok) throw new StepFailed(done.failure, slug);
      }
      return { id: found.id, made: false };
    }
    const made = await post(slug, body, fallback, slug);
    await memory.keep({ key, slug, recordId: made.id });
    kept.set(made.id, key);
    return { id: made.id, made: true };
  };

  try {
    before = await existing(api, memory);
    const newRewards: string[] = [];
    for (const [i, reward] of plan.rewards.entries()) {
      const body = { ...rewardBody(reward, plan.name, options.shopifyDiscounts, t.redeem), status: options.status };
      const fallback = english
        ? { ...rewardBody(english.rewards[i]!, english.name, options.shopifyDiscounts, STOREFRONT_TEXTS.en.redeem), status: options.status }
        : null;
      const { id, made } = await ensure(rewardKey(reward.key), 'reward', body, fallback);
      if (made) newRewards.push(id);
    }
    for (const [i, tier] of plan.tiers.entries())
      await ensure(tierKey(tier.key), 'tier', tierBody(tier, options.status), english ? tierBody(english.tiers[i]!, options.status) : null);
    await ensureWidgetRecords(api, options.language, post);
    // Rewards made before keep the choice made then (or the merchant's since).
    if (options.shopifyDiscounts) {
      for (const id of newRewards) {
        await app.markShopifyDiscount(id, true);
        marked.push(id);
      }
    }

    // Last, the setting: one update in the template's language, its English name first.
    const listed = await records(api, 'points_setting').list({ limit: 1 });
    if (!listed.ok) throw new StepFailed(listed.failure, 'points_setting');
    const setting = listed.data[0];
    if (!setting) throw new StepFailed({ message: 'The account has no points setting.', fieldErrors: {} }, 'points_setting');
    // A program already set up (live, or given rates or a name) keeps the merchant's settings: the template only adds what is missing.
    const own = setting.status === 'live' || Boolean(setting.eudCurrencyName) || earnsByRates(setting);
    if (english && !own) {
      const read = await api.GET('/schema/points_setting/record/{id}', {
        params: { path: { id: setting.id }, query: { languageCode: 'en' } },
      });
      if (!read.data) throw new StepFailed({ message: 'The points setting could not be read.', fieldErrors: {} }, 'points_setting');
      englishName = {
        id: setting.id,
        before: { eudCurrencyName: read.data.data.eudCurrencyName ?? null, eudCurrencyNameOne: read.data.data.eudCurrencyNameOne ?? null },
      };
      const { eudCurrencyName, eudCurrencyNameOne } = english.setting;
      const named = await updateFromValues(api, 'points_setting', setting.id, { eudCurrencyName, eudCurrencyNameOne }, 'en');
      if (!named.ok) throw new StepFailed(named.failure, 'points_setting');
    }
    // A draft leaves points as they are: off stays off until the merchant sets it live.
    const values = { ...(own ? {} : plan.setting), ...(options.status === 'live' ? { status: 'live' } : {}) };
    if (Object.keys(values).length) {
      const saved = await updateFromValues(api, 'points_setting', setting.id, values, options.language);
      if (!saved.ok) throw new StepFailed(saved.failure, 'points_setting');
    }
    return {
      ok: true,
      language: options.language,
      definition: { slug: 'points_setting', id: setting.id, name: plan.name },
      created,
      shopifyDiscountRewards: marked,
    };
  } catch (err) {
    const failure = failureOf(err);
    for (const id of marked) await app.markShopifyDiscount(id, false).catch(() => undefined);
    if (englishName) await updateFromValues(api, 'points_setting', englishName.id, englishName.before, 'en').catch(() => undefined);
    const leftOver: CreatedRecord[] = await undo();
    // What was deleted again is forgotten; what could not be stays kept, so the next launch reuses it.
    const stillThere = new Set(leftOver.map((r) => r.id));
    const undone = [...kept].filter(([id]) => !stillThere.has(id)).map(([, key]) => key);
    await memory.forget(undone).catch(() => undefined);
    return { ok: false, message: failure.message, status: failure.status, fieldErrors: failure.fieldErrors, leftOver };
  } finally {
    await memory.release(claim).catch(() => undefined);
  }
}

/**
 * Sets points live, with the template's draft rewards and tiers (a template created as a draft made
 * them drafts too).
 */
export async function launchPoints(
  api: AccountClient,
  memory: Pick<TemplateMemory, 'records'>,
  name: string,
): Promise<{ ok: true; name: string } | { ok: false; status: number; message: string }> {
  for (const kept of await memory.records()) {
    const slug = kept.slug;
    if (!isMade(slug)) continue;
    const read = await records(api, slug).get(kept.recordId);
    if (!read.ok) {
      if (read.failure.status === 404) continue;
      return { ok: false, status: read.failure.status, message: read.failure.message };
    }
    if (read.data.status === 'live') continue;
    const done = await updateRecord(api, slug, kept.recordId, { status: 'live' });
    if (!done.ok) return { ok: false, status: done.failure.status, message: done.failure.message };
  }
  const listed = await records(api, 'points_setting').list({ limit: 1 });
  if (!listed.ok) return { ok: false, status: listed.failure.status, message: listed.failure.message };
  const setting = listed.data[0];
  if (!setting) return { ok: false, status: 404, message: 'The account has no points setting.' };
  const saved = await updateFromValues(api, 'points_setting', setting.id, { status: 'live' });
  if (!saved.ok) return { ok: false, status: saved.failure.status, message: saved.failure.message };
  return { ok: true, name };
}
