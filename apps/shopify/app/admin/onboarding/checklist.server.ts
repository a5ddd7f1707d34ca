import { SOCIAL_NETWORKS } from '@loyalty/view-model';
import type { AccountClient } from '../../core/client.server';
import { type RecordOf, records } from '../../core/records.server';
import type { AdminGraphql } from '../../shopify/admin-api.server';
import type { ChecklistMarksStore } from '../../storage/checklist-marks.server';
import { liveWidgetIds, type WidgetIds } from '../../shopify/widget-metafields.server';
import { checkThemeEmbed, type EmbedCheck, themeEditorLink } from './theme-embed.server';

/**
 * The dashboard's first-run checklist (issue #18) as the dashboard shows it: a live program
 * (create-program.server.ts), the theme app embed (theme-embed.server.ts), and the steps a merchant
 * ticks (automate with Flow, preview as a shopper).
 */

/** The member the checklist's member preview signs in; no Shopify customer is behind it. */
export const PREVIEW_MEMBER = 'loyalty-admin-preview';

export interface ProgramSummary {
  /** points_setting: the account's points, once they are live or have a way to earn. */
  slug: 'streak' | 'challenge' | 'mission' | 'points_setting';
  id: string;
  name: string;
  status: string;
}

export interface Checklist {
  program: { done: boolean; programs: ProgramSummary[] };
  /** `ids` feed the member preview's frame; the merchant never sees them (the embed reads the metafields). */
  embed: { done: boolean; check: EmbedCheck; link: string; accountId: string; ids: WidgetIds; ready: boolean };
  automate: { done: boolean };
  preview: { done: boolean };
  allDone: boolean;
  open: boolean;
}

/**
 * The account's streaks, challenges and missions, live ones first: the newest 10 live and the newest
 * 10 others of each kind, so that drafts, however many, never hide a live program; and its points.
 */
async function programs(api: AccountClient): Promise<ProgramSummary[]> {
  const newest = async (slug: Exclude<ProgramSummary['slug'], 'points_setting'>, operator: 'equals' | 'not_equals') => {
    const list = await records(api, slug).list({
      filters: { operator: 'and', conditions: [{ fieldSlug: 'status', operator, fieldValue: 'live' }] },
      sortBy: [{ fieldSlug: 'createdAt', order: 'DESC' }],
      limit: 10,
    });
    return list.ok ? list.data.map((r) => ({ slug, id: r.id, name: String(r.name ?? r.id), status: String(r.status ?? '') })) : [];
  };
  const kinds = ['streak', 'challenge', 'mission'] as const;
  const lists = await Promise.all([...kinds.flatMap((slug) => [newest(slug, 'equals'), newest(slug, 'not_equals')]), points(api)]);
  return lists.flat().sort((a, b) => Number(b.status === 'live') - Number(a.status === 'live'));
}

/** Whether the setting gives points for anything the store does: any of its earning rates above 0. */
export const earnsByRates = (setting: RecordOf<'points_setting'>): boolean =>
  [
    setting.pointsPerCurrencyUnit,
    setting.pointsPerOrder,
    setting.pointsOnSignUp,
    setting.pointsOnNewsletter,
    setting.pointsOnBirthday,
    setting.pointsOnReferral,
    setting.pointsOnReferredOrder,
    // Follows earn only where a profile is set.
    SOCIAL_NETWORKS.some((n) => setting[`${n}Url`]) ? setting.pointsOnFollow : 0,
  ].some((rate) => Number(rate) > 0);

/** The account's points as a program: shown once live, or a draft with a way to earn (a template's draft). */
async function points(api: AccountClient): Promise<ProgramSummary[]> {
  const listed = await records(api, 'points_setting').list({ limit: 1 });
  const setting = listed.ok ? listed.data[0] : undefined;
  if (!setting) return [];
  if (setting.status !== 'live' && !earnsByRates(setting)) return [];
  return [{ slug: 'points_setting', id: setting.id, name: '', status: String(setting.status ?? '') }];
}

export async function checklist(input: {
  api: AccountClient;
  admin: AdminGraphql;
  shop: string;
  apiKey: string;
  accountId: string;
  marks: ChecklistMarksStore;
}): Promise<Checklist> {
  const [list, check, ids, marks] = await Promise.all([
    programs(input.api),
    checkThemeEmbed(input.admin),
    // The dashboard still opens when the core cannot list them; the step then offers to create them.
    liveWidgetIds(input.api).catch((): WidgetIds => ({ templateId: null, themeId: null, floatingWidgetId: null })),
    input.marks.marks(input.shop),
  ]);
  const program = { done: list.some((p) => p.status === 'live'), programs: list };
  // The widget shows once the embed is on and the account has the records it displays.
  const ready = Boolean(ids.templateId && ids.themeId && ids.floatingWidgetId);
  const embed = { done: check.ok && ready, check, link: themeEditorLink(input.shop, input.apiKey), accountId: input.accountId, ids, ready };
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
