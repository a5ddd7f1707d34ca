import type pg from 'pg';
import type { AdminGraphql } from './admin-api.server';
import { coreFailure } from './admin.server';
import type { AccountClient } from './core.server';
import { records } from './records.server';
import { programPlan, type ProgramPlan, REWARD_VALID_DAYS, type TemplateId } from './templates/onboarding-programs';
import { STOREFRONT_TEXTS, widgetLanguage, type WidgetLanguage } from './templates/onboarding-texts';

/**
 * The dashboard's first-run checklist (issue #18): program templates created in one step (and
 * removed again when a later step fails), the theme app embed check, and the steps a merchant ticks.
 */

/** The member the checklist's member preview signs in; no Shopify customer is behind it. */
export const PREVIEW_MEMBER = 'loyalty-admin-preview';

/** The app embed block's handle: extensions/loyalty-theme/blocks/loyalty-widget.liquid. */
export const EMBED_HANDLE = 'loyalty-widget';

/** The theme editor, on the main theme's app embeds, with the app's embed switched on (Shopify's deep link). */
export function themeEditorLink(shop: string, apiKey: string): string {
  return `https://${shop}/admin/themes/current/editor?context=apps&activateAppId=${encodeURIComponent(apiKey)}/${EMBED_HANDLE}`;
}

async function graphql<T>(admin: AdminGraphql, query: string): Promise<T> {
  const response = await admin.graphql(query);
  const body = (await response.json()) as { data?: T; errors?: unknown };
  if (!body.data) throw new Error(`Admin API returned no data: ${JSON.stringify(body.errors ?? null)}`);
  return body.data;
}

/** The shop's primary locale (`read_locales`); null when Shopify does not say. */
export async function primaryLocale(admin: AdminGraphql): Promise<string | null> {
  const data = await graphql<{ shopLocales: { locale: string; primary: boolean }[] }>(
    admin,
    `
      #graphql
      query LoyaltyShopLocales {
        shopLocales {
          locale
          primary
        }
      }
    `,
  );
  return data.shopLocales.find((l) => l.primary)?.locale ?? null;
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

// ---------------------------------------------------------------------------------------------
// The theme app embed check

/**
 * JSON with the comments themes put in `config/settings_data.json` (a leading `/* … *\/` block,
 * sometimes `//` lines) removed; text inside strings is left alone.
 */
export function parseThemeJson(text: string): unknown {
  let out = '';
  let i = 0;
  const source = text.replace(/^\uFEFF/, '');
  while (i < source.length) {
    const c = source[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < source.length && source[j] !== '"') j += source[j] === '\\' ? 2 : 1;
      out += source.slice(i, j + 1);
      i = j + 1;
    } else if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      i = end < 0 ? source.length : end + 2;
    } else if (c === '/' && source[i + 1] === '/') {
      const end = source.indexOf('\n', i + 2);
      i = end < 0 ? source.length : end;
    } else {
      out += c;
      i++;
    }
  }
  return JSON.parse(out);
}

export const EMBED_SETTINGS = { templateId: 'template_id', themeId: 'theme_id', floatingWidgetId: 'floating_widget_id' } as const;
type EmbedIdKey = keyof typeof EMBED_SETTINGS;
const EMBED_SLUGS: Record<EmbedIdKey, string> = { templateId: 'template', themeId: 'theme', floatingWidgetId: 'floating_widget' };

export type EmbedCheck =
  | { ok: true; themeName: string }
  | {
      ok: false;
      reason: 'unreadable' | 'no_main_theme' | 'not_added' | 'disabled' | 'missing_ids' | 'unknown_ids' | 'not_live' | 'core_unavailable';
      themeName?: string;
      /** The embed settings at fault (template_id, theme_id, floating_widget_id). */
      fields?: string[];
      detail?: string;
    };

type Block = { type?: unknown; disabled?: unknown; settings?: Record<string, unknown> };

/** The app's embed block in a parsed settings_data.json, if the theme has one. */
export function findEmbedBlock(settings: unknown): Block | null {
  const root = settings as { current?: unknown; presets?: Record<string, unknown> } | null;
  // `current` is the settings object, or the name of a preset that holds them.
  const current = typeof root?.current === 'string' ? root.presets?.[root.current] : root?.current;
  const blocks = (current as { blocks?: Record<string, Block> } | undefined)?.blocks;
  if (!blocks || typeof blocks !== 'object') return null;
  return (
    Object.values(blocks).find(
      (b) => typeof b?.type === 'string' && new RegExp(`^shopify://apps/[^/]+/blocks/${EMBED_HANDLE}/`).test(b.type),
    ) ?? null
  );
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Reads the main theme's settings_data.json (`read_themes`) and says whether the Loyalty widget
 * embed is on with ids of live records of this account, or what is wrong.
 */
export async function checkThemeEmbed(admin: AdminGraphql, api: AccountClient): Promise<EmbedCheck> {
  let theme: { name: string; files: { nodes: { filename: string; body: { content?: string } }[] } } | undefined;
  try {
    const data = await graphql<{ themes: { nodes: NonNullable<typeof theme>[] } }>(
      admin,
      `
        #graphql
        query LoyaltyMainTheme {
          themes(first: 1, roles: [MAIN]) {
            nodes {
              name
              files(filenames: ["config/settings_data.json"]) {
                nodes {
                  filename
                  body {
                    ... on OnlineStoreThemeFileBodyText {
                      content
                    }
                  }
                }
              }
            }
          }
        }
      `,
    );
    theme = data.themes.nodes[0];
  } catch (err) {
    return { ok: false, reason: 'unreadable', detail: err instanceof Error ? err.message.slice(0, 300) : String(err) };
  }
  if (!theme) return { ok: false, reason: 'no_main_theme' };
  const themeName = theme.name;
  const content = theme.files.nodes.find((f) => f.filename === 'config/settings_data.json')?.body.content;
  if (content === undefined) return { ok: false, reason: 'not_added', themeName };
  let block: Block | null;
  try {
    block = findEmbedBlock(parseThemeJson(content));
  } catch (err) {
    return { ok: false, reason: 'unreadable', themeName, detail: err instanceof Error ? err.message : String(err) };
  }
  if (!block) return { ok: false, reason: 'not_added', themeName };
  if (block.disabled === true) return { ok: false, reason: 'disabled', themeName };
  const values = Object.fromEntries(
    (Object.keys(EMBED_SETTINGS) as EmbedIdKey[]).map((k) => [k, String(block.settings?.[EMBED_SETTINGS[k]] ?? '').trim()]),
  ) as Record<EmbedIdKey, string>;
  const keys = Object.keys(EMBED_SETTINGS) as EmbedIdKey[];
  const empty = keys.filter((k) => !values[k]);
  if (empty.length) return { ok: false, reason: 'missing_ids', themeName, fields: empty.map((k) => EMBED_SETTINGS[k]) };
  const found = await Promise.all(keys.map(async (k) => (UUID.test(values[k]) ? await records(api, EMBED_SLUGS[k]).get(values[k]) : null)));
  const failed = found.find((f) => f && !f.ok && f.failure.status !== 404);
  if (failed && !failed.ok) return { ok: false, reason: 'core_unavailable', themeName, detail: failed.failure.message };
  const unknown = keys.filter((_, i) => !found[i]?.ok);
  if (unknown.length) return { ok: false, reason: 'unknown_ids', themeName, fields: unknown.map((k) => EMBED_SETTINGS[k]) };
  const notLive = keys.filter((_, i) => (found[i] as { ok: true; data: { status?: unknown } }).data.status !== 'live');
  if (notLive.length) return { ok: false, reason: 'not_live', themeName, fields: notLive.map((k) => EMBED_SETTINGS[k]) };
  return { ok: true, themeName };
}

// ---------------------------------------------------------------------------------------------
// Creating a template's program

export interface CreatedRecord {
  slug: string;
  id: string;
  name: string;
}

export type CreateResult =
  | { ok: true; language: WidgetLanguage; definition: CreatedRecord; created: CreatedRecord[]; shopifyDiscountRewards: string[] }
  | { ok: false; message: string; fieldErrors: Record<string, string>; leftOver: CreatedRecord[] };

export interface CreateOptions {
  template: TemplateId;
  status: 'live' | 'draft';
  shopifyDiscounts: boolean;
  language: WidgetLanguage;
}

class StepFailed extends Error {
  constructor(
    readonly failure: { message: string; fieldErrors: Record<string, string> },
    readonly what: string,
  ) {
    super(failure.message);
  }
}

/** The localisable fields of a body: the eud* texts and a mission's task texts. */
function localised(body: Record<string, unknown>, stored: Record<string, unknown>): Record<string, unknown> {
  const texts: Record<string, unknown> = Object.fromEntries(Object.entries(body).filter(([k]) => k.startsWith('eud')));
  if (Array.isArray(body.tasks) && Array.isArray(stored.tasks)) {
    // Tasks keep their ids, so the texts merge into the stored ones per language.
    texts.tasks = (stored.tasks as Record<string, unknown>[]).map((t, i) => {
      const { eudTitle, eudDescription, ...rest } = t;
      const given = (body.tasks as Record<string, unknown>[])[i] ?? {};
      return { ...rest, eudTitle: given.eudTitle ?? eudTitle, eudDescription: given.eudDescription ?? eudDescription };
    });
  }
  return texts;
}

/**
 * Creates everything a template promises, in its language (texts also in English, the fallback for
 * shoppers in other languages), and the widget's launcher, theme and texts when the account has no
 * live ones. All or nothing as the merchant sees it: when a step fails, what was created is deleted
 * again (newest first) and the core's error is returned.
 */
export async function createProgram(
  api: AccountClient,
  options: CreateOptions,
  markShopifyDiscount: (rewardId: string, on: boolean) => Promise<void>,
): Promise<CreateResult> {
  const plan = programPlan(options.template, STOREFRONT_TEXTS[options.language]);
  const english = options.language === 'en' ? null : programPlan(options.template, STOREFRONT_TEXTS.en);
  const created: CreatedRecord[] = [];
  const marked: string[] = [];

  const post = async (slug: string, body: Record<string, unknown>, fallback: Record<string, unknown> | null, what: string) => {
    const path = `/schema/${slug}/record` as '/schema/streak/record';
    const { data, error, response } = await api.POST(path, {
      params: { query: { languageCode: options.language } } as never,
      body: body as never,
    });
    if (!response.ok) throw new StepFailed(coreFailure(response.status, error), what);
    const record = (data as unknown as { data: Record<string, unknown> & { id: string } }).data;
    created.push({ slug, id: record.id, name: String(body.name ?? slug) });
    if (fallback) {
      const texts = localised(fallback, record);
      if (Object.keys(texts).length) {
        const patched = await api.PATCH(`/schema/${slug}/record/{id}` as '/schema/streak/record/{id}', {
          params: { path: { id: record.id }, query: { languageCode: 'en' } } as never,
          body: texts as never,
        });
        if (!patched.response.ok) throw new StepFailed(coreFailure(patched.response.status, patched.error), what);
      }
    }
    return record;
  };

  try {
    const rewardIds = new Map<string, string>();
    for (const [i, reward] of plan.rewards.entries()) {
      const body = rewardBody(reward, plan, options.shopifyDiscounts, STOREFRONT_TEXTS[options.language].redeem);
      const fallback = english ? rewardBody(english.rewards[i]!, english, options.shopifyDiscounts, STOREFRONT_TEXTS.en.redeem) : null;
      rewardIds.set(reward.key, (await post('reward', body, fallback, 'reward')).id);
    }
    const definitionBody = (p: ProgramPlan) => ({
      ...p.definition,
      status: options.status,
      ...(p.completionRewardKey ? { rewardId: rewardIds.get(p.completionRewardKey) } : {}),
    });
    const definition = await post(plan.slug, definitionBody(plan), english ? definitionBody(english) : null, plan.slug);
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
        await markShopifyDiscount(id, true);
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
    const failure =
      err instanceof StepFailed
        ? err.failure
        : { message: err instanceof Error ? err.message : String(err), fieldErrors: {} as Record<string, string> };
    const leftOver: CreatedRecord[] = [];
    for (const id of marked) await markShopifyDiscount(id, false).catch(() => undefined);
    for (const record of [...created].reverse()) {
      const removed = await records(api, record.slug)
        .remove(record.id)
        .catch(() => ({ ok: false }));
      if (!removed.ok) leftOver.push(record);
    }
    return { ok: false, message: failure.message, fieldErrors: failure.fieldErrors, leftOver };
  }
}

function rewardBody(
  reward: ProgramPlan['rewards'][number],
  plan: ProgramPlan,
  shopifyDiscounts: boolean,
  redeem: string,
): Record<string, unknown> {
  return {
    name: reward.title,
    description: `${String(plan.definition.name)}: ${reward.title}`,
    discountType: reward.discountType,
    discountValue: reward.discountValue,
    rewardExpiryType: 'relative',
    rewardExpiryInDays: REWARD_VALID_DAYS,
    // A Shopify discount's code comes from the app (CONTRACT §16); otherwise the core generates one.
    handleCoupon: !shopifyDiscounts,
    handleCouponAutoGeneration: !shopifyDiscounts,
    ...(shopifyDiscounts ? {} : { couponCodePrefix: reward.couponCodePrefix }),
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
  const updated = await records(api, slug).update(id, { status: 'live' });
  if (!updated.ok) return { ok: false, status: updated.failure.status, message: updated.failure.message };
  const boards = await records(api, 'leaderboard').list({
    filters: { operator: 'and', conditions: [{ fieldSlug: 'linkedSchemaRecordId', operator: 'equals', fieldValue: id }] },
    limit: 100,
  });
  if (!boards.ok) return { ok: false, status: boards.failure.status, message: boards.failure.message };
  for (const board of boards.data.filter((b) => b.status !== 'live')) {
    const done = await records(api, 'leaderboard').update(board.id, { status: 'live' });
    if (!done.ok) return { ok: false, status: done.failure.status, message: done.failure.message };
  }
  return { ok: true, name: String(updated.data.name ?? '') };
}

// ---------------------------------------------------------------------------------------------
// The widget's records (launcher, theme, texts) the app embed needs

export type WidgetIds = Record<EmbedIdKey, string | null>;

/** The first live launcher, theme and template of the account: the ids the app embed takes. */
export async function liveWidgetIds(api: AccountClient): Promise<WidgetIds> {
  const keys = Object.keys(EMBED_SLUGS) as EmbedIdKey[];
  const lists = await Promise.all(
    keys.map((k) =>
      records(api, EMBED_SLUGS[k]).list({
        filters: { operator: 'and', conditions: [{ fieldSlug: 'status', operator: 'equals', fieldValue: 'live' }] },
        sortBy: [{ fieldSlug: 'createdAt', order: 'ASC' }],
        limit: 1,
      }),
    ),
  );
  return Object.fromEntries(
    keys.map((k, i) => [k, lists[i]!.ok ? ((lists[i] as { data: { id: string }[] }).data[0]?.id ?? null) : null]),
  ) as WidgetIds;
}

type Post = (slug: string, body: Record<string, unknown>, fallback: Record<string, unknown> | null, what: string) => Promise<unknown>;

/** Creates the launcher, theme and template the account lacks (live ones), with the core's defaults. */
async function ensureWidgetRecords(api: AccountClient, language: WidgetLanguage, post: Post): Promise<void> {
  const ids = await liveWidgetIds(api);
  if (!ids.floatingWidgetId) {
    const body = (lang: WidgetLanguage) => ({
      name: 'Loyalty launcher',
      description: 'The button that opens the loyalty widget.',
      status: 'live',
      eudTitle: STOREFRONT_TEXTS[lang].launcher,
    });
    await post('floating_widget', body(language), language === 'en' ? null : body('en'), 'floating_widget');
  }
  if (!ids.themeId) await post('theme', { name: 'Loyalty theme', status: 'live' }, null, 'theme');
  if (!ids.templateId) await post('template', { name: 'Loyalty texts', status: 'live' }, null, 'template');
}

/** The widget records on their own (the "Show it on your store" step, for programs made by hand). */
export async function createWidgetRecords(api: AccountClient, language: WidgetLanguage): Promise<CreateResult | { ok: true }> {
  const created: CreatedRecord[] = [];
  const post: Post = async (slug, body, fallback) => {
    const made = await records(api, slug).create(body);
    if (!made.ok) throw new StepFailed(made.failure, slug);
    created.push({ slug, id: made.data.id, name: String(body.name) });
    if (fallback) {
      const patched = await api.PATCH(`/schema/${slug}/record/{id}` as '/schema/streak/record/{id}', {
        params: { path: { id: made.data.id }, query: { languageCode: 'en' } } as never,
        body: localised(fallback, made.data) as never,
      });
      if (!patched.response.ok) throw new StepFailed(coreFailure(patched.response.status, patched.error), slug);
    }
    return made.data;
  };
  try {
    await ensureWidgetRecords(api, language, post);
    return { ok: true };
  } catch (err) {
    const failure = err instanceof StepFailed ? err.failure : { message: String(err), fieldErrors: {} };
    const leftOver: CreatedRecord[] = [];
    for (const record of [...created].reverse()) {
      const removed = await records(api, record.slug).remove(record.id);
      if (!removed.ok) leftOver.push(record);
    }
    return { ok: false, message: failure.message, fieldErrors: failure.fieldErrors, leftOver };
  }
}

// ---------------------------------------------------------------------------------------------
// The checklist's own state

export type MarkableStep = 'automate' | 'preview';

export interface ChecklistMarks {
  automate: boolean;
  preview: boolean;
  /** The merchant's choice to show (true) or fold (false) the checklist; null: shown until done. */
  open: boolean | null;
}

/** The steps a merchant ticks and whether the checklist is shown, per shop, in the app's database. */
export class OnboardingStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly ready: Promise<void>,
  ) {}

  async marks(shop: string): Promise<ChecklistMarks> {
    await this.ready;
    const { rows } = await this.pool.query<{ automate_done: boolean; preview_done: boolean; checklist_open: boolean | null }>(
      'select automate_done, preview_done, checklist_open from onboarding_checklists where shop = $1',
      [shop],
    );
    const row = rows[0];
    return { automate: row?.automate_done ?? false, preview: row?.preview_done ?? false, open: row?.checklist_open ?? null };
  }

  async mark(shop: string, step: MarkableStep, done: boolean): Promise<void> {
    await this.ready;
    const column = step === 'automate' ? 'automate_done' : 'preview_done';
    await this.pool.query(
      `insert into onboarding_checklists (shop, ${column}) values ($1, $2)
       on conflict (shop) do update set ${column} = excluded.${column}, updated_at = now()`,
      [shop, done],
    );
  }

  async setOpen(shop: string, open: boolean): Promise<void> {
    await this.ready;
    await this.pool.query(
      `insert into onboarding_checklists (shop, checklist_open) values ($1, $2)
       on conflict (shop) do update set checklist_open = excluded.checklist_open, updated_at = now()`,
      [shop, open],
    );
  }
}

// ---------------------------------------------------------------------------------------------
// The checklist as the dashboard shows it

export interface ProgramSummary {
  slug: 'streak' | 'challenge' | 'mission';
  id: string;
  name: string;
  status: string;
}

export interface Checklist {
  program: { done: boolean; programs: ProgramSummary[] };
  embed: { done: boolean; check: EmbedCheck; link: string; accountId: string; ids: WidgetIds };
  automate: { done: boolean };
  preview: { done: boolean };
  allDone: boolean;
  open: boolean;
}

/**
 * The account's streaks, challenges and missions, live ones first: the newest 10 live and the newest
 * 10 others of each kind, so that drafts, however many, never hide a live program.
 */
async function programs(api: AccountClient): Promise<ProgramSummary[]> {
  const kinds = ['streak', 'challenge', 'mission'] as const;
  const newest = (slug: string, operator: 'equals' | 'not_equals') =>
    records(api, slug).list({
      filters: { operator: 'and', conditions: [{ fieldSlug: 'status', operator, fieldValue: 'live' }] },
      sortBy: [{ fieldSlug: 'createdAt', order: 'DESC' }],
      limit: 10,
    });
  const lists = await Promise.all(kinds.flatMap((slug) => [newest(slug, 'equals'), newest(slug, 'not_equals')]));
  const summaries = kinds.flatMap((slug, k) =>
    [lists[2 * k]!, lists[2 * k + 1]!].flatMap((list) =>
      list.ok ? list.data.map((r) => ({ slug, id: r.id, name: String(r.name ?? r.id), status: String(r.status ?? '') })) : [],
    ),
  );
  return summaries.sort((a, b) => Number(b.status === 'live') - Number(a.status === 'live'));
}

export async function checklist(input: {
  api: AccountClient;
  admin: AdminGraphql;
  shop: string;
  apiKey: string;
  accountId: string;
  store: OnboardingStore;
}): Promise<Checklist> {
  const [list, check, ids, marks] = await Promise.all([
    programs(input.api),
    checkThemeEmbed(input.admin, input.api),
    liveWidgetIds(input.api),
    input.store.marks(input.shop),
  ]);
  const program = { done: list.some((p) => p.status === 'live'), programs: list };
  const embed = { done: check.ok, check, link: themeEditorLink(input.shop, input.apiKey), accountId: input.accountId, ids };
  const allDone = program.done && embed.done && marks.automate && marks.preview;
  return {
    program,
    embed,
    automate: { done: marks.automate },
    preview: { done: marks.preview },
    allDone,
    open: marks.open ?? !allDone,
  };
}
