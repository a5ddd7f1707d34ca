import type { AccountClient } from '../core/client.server';
import { type CoreFailure, failureMessage } from '../core/failure';
import { isRecordId } from '../core/ids';
import type { IssuingSpec } from '../shopify/reward-issuing';
import { createFromValues, records, removeRecord, updateFromValues, whereEquals } from '../core/records.server';
import {
  changed,
  checkProgram,
  type CheckWords,
  definitionValues,
  earningRuleOf,
  type MilestoneDraft,
  milestoneValues,
  planMilestones,
  type ProgramDraft,
  programFromRecords,
  type ProgramKind,
  type RewardChoice,
  type RewardSummary,
  rewardValues,
} from './program-draft';
import { detailWords, type FieldWords } from './field-words';
import { lastDayRefusal, todayIn } from './reward-draft';

/** The rules the editor says in its own words (the core's `invalid` between fields, a period in use); the others are said by code and bound. */
function ruleWords(field: string, code: string | null | undefined, words: SaveDeps['words']): string | undefined {
  if (code === 'in_use' && field === 'aggregationPeriod') return words.periodInUse;
  if (code === 'duplicate' && field === 'milestoneTargetValue') return words.targetTaken;
  if (code !== 'invalid') return undefined;
  if (field === 'endAt') return words.endBeforeStart;
  if (/^tasks\.\d+\.activityId$/.test(field)) return words.activityTaken;
  return undefined;
}

/** The core's name of a field where the editor's draft names it otherwise. */
const DRAFT_FIELD: Record<string, string> = { milestoneTargetValue: 'target' };

/** What the editor needs besides the shop's account client: the app's own "Issue as a Shopify discount" setting. */
export interface ShopifyDiscounts {
  shopifyDiscountRewards(shop: string): Promise<Set<string>>;
  /** The rewards editor's settings of the rewards the app issues (free shipping and store credit among them). */
  issuingSpecs(shop: string): Promise<Map<string, Pick<IssuingSpec, 'kind'>>>;
  setShopifyDiscount(shop: string, rewardId: string, on: boolean): Promise<void>;
}

/** The app's earning rules (app/storage/earning-rules.server.ts), as the editor reads and writes them. */
export interface EarningRules {
  rule(shop: string, definitionId: string): Promise<{ source: string; collectionIds: string[] } | null>;
  set(
    shop: string,
    definitionId: string,
    rule: { kind: 'streak' | 'challenge'; source: 'orders' | 'visits'; collectionIds: string[] } | null,
  ): Promise<void>;
}

export type LoadResult = { ok: true; draft: ProgramDraft } | { ok: false; failure: CoreFailure };

/**
 * A definition with all its milestones (live, draft and paused; the definition's own list has only
 * live ones) and its earning rule; an id that is no record's is none (404), before anything reads by it.
 */
export async function loadProgram(
  api: AccountClient,
  kind: ProgramKind,
  id: string,
  rules: Pick<EarningRules, 'rule'>,
  shop: string,
): Promise<LoadResult> {
  if (!isRecordId(id)) return { ok: false, failure: { status: 404, message: 'There is no such program.', fieldErrors: {} } };
  const [definition, milestones, rule] = await Promise.all([
    records(api, kind).get(id),
    records(api, 'milestone').list({
      filters: whereEquals('linkedSchemaRecordId', id),
      sortBy: [{ fieldSlug: 'milestoneTargetValue', order: 'ASC' }],
      limit: 1000,
    }),
    rules.rule(shop, id),
  ]);
  if (!definition.ok) return definition;
  if (!milestones.ok) return milestones;
  return { ok: true, draft: programFromRecords(kind, definition.data, milestones.data, rule) };
}

/** The account's rewards to pick from, newest first, with whether the app issues each as a Shopify discount. */
export async function listRewards(api: AccountClient, discounts: ShopifyDiscounts, shop: string): Promise<RewardSummary[]> {
  const [list, shopify, specs] = await Promise.all([
    records(api, 'reward').list({ limit: 1000, sortBy: [{ fieldSlug: 'createdAt', order: 'DESC' }] }),
    discounts.shopifyDiscountRewards(shop),
    discounts.issuingSpecs(shop),
  ]);
  if (!list.ok) return [];
  return list.data.map((r) => ({
    id: r.id,
    name: String(r.name),
    kind: specs.get(r.id)?.kind ?? (r.discountType === 'fixed_amount' ? 'fixed_amount' : 'percentage'),
    discountValue: Number(r.discountValue),
    shopifyDiscount: shopify.has(r.id),
  }));
}

/** One part of a save that the core refused (or that was not tried because what it depends on was refused). */
export interface SaveProblem {
  /** `settings`, `completionReward` or `milestones.<key>`: where the editor shows it. */
  scope: string;
  message: string;
}

export interface SaveOutcome {
  /** What the editor shows next: what was saved as the core now has it, and the rest as the merchant entered it. */
  draft: ProgramDraft;
  /** The program as the core holds it after the save (null while it does not exist). */
  saved: ProgramDraft | null;
  errors: Record<string, string>;
  problems: SaveProblem[];
}

export interface SaveDeps {
  api: AccountClient;
  discounts: ShopifyDiscounts;
  rules: EarningRules;
  shop: string;
  words: CheckWords & {
    notTried: string;
    refused: string;
    outage: string;
    endBeforeStart: string;
    campaignEnded: string;
    activityTaken: string;
    periodInUse: string;
    targetTaken: string;
  };
  /** The core's refusals of a field, said under it, with numbers as `language` writes them. */
  fieldWords: FieldWords;
  language: string;
  /** The shop's time zone, where a new reward's last day ends; asked only for a reward that has one. */
  timezone(): Promise<string | null>;
}

/**
 * Saves a program draft through several core calls — the rewards created inline, the definition,
 * the milestones removed, changed and added — each on its own: a refused call is reported on its
 * fields and the rest still go ahead where they do not depend on it. Nothing the merchant entered
 * is dropped: what failed comes back as entered, with the ids the parts that succeeded now have
 * (a reward created before its milestone was refused is then picked, not created again).
 */
export async function saveProgram(deps: SaveDeps, input: ProgramDraft): Promise<SaveOutcome> {
  const { api, words } = deps;
  const draft: ProgramDraft = structuredClone(input);
  const local = checkProgram(draft, words);
  if (Object.keys(local).length) return { draft, saved: null, errors: local, problems: [] };
  const errors: Record<string, string> = {};
  const problems: SaveProblem[] = [];
  // A refusal of fields is said under each in the merchant's words, and the part names where; an
  // outage is said in their words; another refusal keeps the core's message.
  const refuse = (scope: string, failure: CoreFailure) => {
    const placed = (failure.details ?? []).filter((d) => d.field);
    problems.push({ scope, message: placed.length ? words.refused : failureMessage(failure, words.outage) });
    for (const detail of placed) {
      const field = detail.field!.replace(/\[(\d+)\]/g, '.$1');
      const own = ruleWords(field, detail.code, words);
      errors[`${scope}.${DRAFT_FIELD[field] ?? field}`] ??= own ?? detailWords(detail, deps.fieldWords, deps.language, { number: true });
    }
  };

  let before: ProgramDraft | null = null;
  if (draft.id) {
    const found = await loadProgram(api, draft.kind, draft.id, deps.rules, deps.shop);
    if (!found.ok) {
      refuse('settings', found.failure);
      return { draft, saved: null, errors, problems };
    }
    before = found.draft;
  }
  // A challenge made live, or given a new end, with an end that has passed could count nothing; one
  // that ended while live keeps its end through other edits.
  const s = draft.settings;
  const endMoved = !before || before.settings.endAt !== s.endAt || before.settings.status !== 'live';
  if (draft.kind === 'challenge' && s.status === 'live' && s.endAt && Date.parse(s.endAt) <= Date.now() && endMoved)
    return { draft, saved: null, errors: { 'settings.endAt': words.campaignEnded }, problems: [] };

  // A reward the merchant creates inline exists before what refers to it.
  let zone: Promise<string | null> | undefined;
  const ensureReward = async (scope: string, choice: RewardChoice, fallbackName: string): Promise<string | null | false> => {
    if (choice.mode === 'none') return null;
    if (choice.mode === 'existing') return choice.rewardId;
    const { rewardExpiryType, rewardExpiryAt } = choice.draft;
    let timezone: string | null = null;
    if (rewardExpiryType === 'absolute') {
      timezone = await (zone ??= deps.timezone());
      const refusal = lastDayRefusal(rewardExpiryAt, todayIn(timezone), deps.fieldWords);
      if (refusal) {
        errors[`${scope}.rewardExpiryAt`] = refusal;
        problems.push({ scope, message: words.refused });
        return false;
      }
    }
    const created = await createFromValues(api, 'reward', rewardValues(choice.draft, fallbackName, timezone));
    if (!created.ok) {
      refuse(scope, created.failure);
      return false;
    }
    if (choice.draft.codes === 'shopify') await deps.discounts.setShopifyDiscount(deps.shop, created.data.id, true);
    Object.assign(choice, { mode: 'existing', rewardId: created.data.id });
    return created.data.id;
  };

  // A PATCH carries only what changed, and nothing changed is no call at all.
  const write = async (
    slug: ProgramKind | 'milestone',
    id: string | null,
    values: Record<string, unknown>,
    previous: Record<string, unknown>,
  ) => {
    if (!id) return createFromValues(api, slug, values);
    const patch = changed(values, previous);
    return Object.keys(patch).length ? updateFromValues(api, slug, id, patch) : { ok: true as const, data: { id } };
  };

  const plan = planMilestones(draft, before);
  const saveMilestone = async (m: MilestoneDraft) => {
    const scope = `milestones.${m.key}`;
    if (!draft.id) {
      problems.push({ scope, message: words.notTried });
      return;
    }
    const rewardId = await ensureReward(`${scope}.reward`, m.reward, m.name);
    if (rewardId === false) return;
    const values = milestoneValues(m, rewardId);
    const old = m.id ? before?.milestones.find((b) => b.id === m.id) : undefined;
    const result = old
      ? await write('milestone', old.id, values, milestoneValues(old, old.reward.rewardId || null))
      : await write('milestone', null, { ...values, linkedSchemaSlug: draft.kind, linkedSchemaRecordId: draft.id }, {});
    if (!result.ok) return refuse(scope, result.failure);
    m.id = result.data.id;
  };

  for (const id of plan.remove) {
    const removed = await removeRecord(api, 'milestone', id);
    if (!removed.ok) {
      // Still there: the editor shows it again, with the reason.
      const kept = before!.milestones.find((m) => m.id === id)!;
      draft.milestones.push(kept);
      refuse(`milestones.${kept.key}`, removed.failure);
    }
  }
  for (const m of plan.before) await saveMilestone(m);

  let definitionSaved = false;
  const rewardId = draft.kind === 'mission' ? await ensureReward('completionReward', draft.completionReward, draft.settings.name) : null;
  if (rewardId === false) {
    problems.push({ scope: 'settings', message: words.notTried });
  } else {
    const values = definitionValues(draft, rewardId);
    const result = before
      ? await write(draft.kind, before.id, values, definitionValues(before, before.completionReward.rewardId || null))
      : await write(draft.kind, null, values, {});
    if (result.ok) {
      draft.id = result.data.id;
      definitionSaved = true;
      // The app's own part of the program: what feeds it by itself.
      await deps.rules.set(deps.shop, draft.id, earningRuleOf(draft));
    } else refuse('settings', result.failure);
  }
  for (const m of plan.after) await saveMilestone(m);

  if (!draft.id) return { draft, saved: null, errors, problems };
  const after = await loadProgram(api, draft.kind, draft.id, deps.rules, deps.shop);
  if (!after.ok) {
    refuse('settings', after.failure);
    return { draft, saved: null, errors, problems };
  }
  const saved = after.draft;
  const savedById = new Map(saved.milestones.map((m) => [m.id!, m]));
  const refused = (m: MilestoneDraft) => problems.some((p) => p.scope.startsWith(`milestones.${m.key}`));
  // Parts saved (or left alone) read back as the core has them; the rest stay as the merchant entered them.
  const next: ProgramDraft = {
    ...draft,
    settings: definitionSaved ? saved.settings : draft.settings,
    earning: definitionSaved ? saved.earning : draft.earning,
    completionReward: definitionSaved ? saved.completionReward : draft.completionReward,
    milestones: draft.milestones.map((m) => (m.id && savedById.has(m.id) && !refused(m) ? savedById.get(m.id)! : m)),
  };
  return { draft: next, saved, errors, problems };
}
