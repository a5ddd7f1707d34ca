/**
 * The program editor's model, shared by the browser and the server: a streak, challenge or mission
 * with its milestones and their rewards as one draft of texts the merchant edits, how a draft is
 * read from the core's records, and the bodies a draft becomes. Errors are keyed by where they show:
 * `settings.<field>` (tasks `settings.tasks.<i>.<field>`), `completionReward.<field>`,
 * `milestones.<key>.<field>` and `milestones.<key>.reward.<field>`.
 */
import { isJsonObject } from '../json';
import { endOfDay } from './reward-draft';
import type { RewardKind } from '../shopify/reward-issuing';

export const PROGRAM_KINDS = ['streak', 'challenge', 'mission'] as const;
export type ProgramKind = (typeof PROGRAM_KINDS)[number];

/** The value when it is one of `options`, else `fallback`: how a select's text or a record's field becomes its type. */
export const oneOf = <T extends string>(options: readonly T[], value: unknown, fallback: T): T =>
  options.find((option) => option === value) ?? fallback;

export const isProgramKind = (value: string | undefined): value is ProgramKind => PROGRAM_KINDS.some((kind) => kind === value);

export const PERIODS = ['daily', 'weekly', 'monthly'] as const;
export type Period = (typeof PERIODS)[number];
export const METHODS = ['count', 'sum'] as const;
export type Method = (typeof METHODS)[number];
export const STATUSES = ['draft', 'live', 'paused'] as const;
export type Status = (typeof STATUSES)[number];

/** How a reward's codes reach the shopper: the app's Shopify discount, the core's generated codes, or an uploaded pool. */
export const CODE_SOURCES = ['shopify', 'generated', 'pool'] as const;
export type CodeSource = (typeof CODE_SOURCES)[number];
export const DISCOUNT_TYPES = ['percentage', 'fixed_amount'] as const;
export const EXPIRY_TYPES = ['no_expiry', 'relative', 'absolute'] as const;
export const REWARD_MODES = ['none', 'existing', 'new'] as const;
/** What feeds a streak or challenge by itself (CONTRACT §17): nothing (Flow or the API), paid orders, visits (streaks). */
export const EARNING_SOURCES = ['none', 'orders', 'visits'] as const;
export type EarningSourceChoice = (typeof EARNING_SOURCES)[number];
/** The holds the editor offers, in days; a definition holding another (set through the API) shows it too. */
export const HOLD_DAYS = ['0', '14', '30'] as const;

// Drafts are type aliases, not interfaces, so that they are JSON values the editor can submit as they are.
export type NewReward = {
  name: string;
  description: string;
  discountType: (typeof DISCOUNT_TYPES)[number];
  discountValue: string;
  rewardExpiryType: (typeof EXPIRY_TYPES)[number];
  rewardExpiryInDays: string;
  /** The last day (YYYY-MM-DD), a day of the shop's: the reward ends at its end, as the rewards editor's do. */
  rewardExpiryAt: string;
  codes: CodeSource;
  couponCodePrefix: string;
  eudTitle: string;
};

export type RewardChoice = {
  mode: (typeof REWARD_MODES)[number];
  rewardId: string;
  draft: NewReward;
};

export type TaskDraft = {
  key: string;
  id: string | null;
  name: string;
  activityId: string;
  aggregationMethod: Method;
  targetValue: string;
};

export type MilestoneDraft = {
  /** The record id once saved; a draft's own key before. */
  key: string;
  id: string | null;
  name: string;
  description: string;
  target: string;
  status: Status;
  eudTitle: string;
  reward: RewardChoice;
};

export type Settings = {
  name: string;
  description: string;
  status: Status;
  aggregationPeriod: Period;
  aggregationMethod: Method;
  aggregationTargetValue: string;
  completionTargetValue: string;
  toBeBrokenWarningHours: string;
  toBeFailedWarningHours: string;
  maxFreezes: string;
  freezeEarnEveryPeriods: string;
  startAt: string;
  endAt: string;
  isRepeatable: boolean;
  tasks: TaskDraft[];
  eudTitle: string;
  eudDescription: string;
  eudMilestoneAchievedMessage: string;
  eudCompletedMessage: string;
  /** Days a reward waits before it is issued, so a refund in that time can revoke it; '0': none. */
  rewardHoldDays: string;
  /** The share of members held out of the program (CONTRACT §18), 0..50; '0': none. */
  holdoutPercent: string;
};

/** The definition's earning rule as the editor shows it (streaks and challenges; a mission's tasks name their activities). */
export type EarningDraft = {
  source: EarningSourceChoice;
  /** A challenge fed by order amounts counts only products of these collections (GIDs); none: every product. */
  collectionIds: string[];
};

export type ProgramDraft = {
  kind: ProgramKind;
  id: string | null;
  settings: Settings;
  earning: EarningDraft;
  /** A mission's reward for finishing every task. */
  completionReward: RewardChoice;
  milestones: MilestoneDraft[];
};

/** A reward as the editor lists it: to pick, and to describe a milestone's reward. */
export type RewardSummary = {
  id: string;
  name: string;
  /** What the customer gets: the rewards editor's choice when it was made there, else the core's discount type. */
  kind: RewardKind;
  discountValue: number;
  shopifyDiscount: boolean;
};

type SettingKey = Exclude<keyof Settings, 'tasks' | 'isRepeatable'>;

/** The settings the merchant types as text (the others are chosen from a list). */
export type TextSettingKey = Exclude<SettingKey, 'status' | 'aggregationPeriod' | 'aggregationMethod'>;

/** The definition fields each kind's editor shows, besides tasks, isRepeatable and the mission's reward. */
export const SETTING_FIELDS: Record<ProgramKind, SettingKey[]> = {
  streak: [
    'name',
    'description',
    'status',
    'aggregationPeriod',
    'aggregationMethod',
    'aggregationTargetValue',
    'completionTargetValue',
    'toBeBrokenWarningHours',
    'maxFreezes',
    'freezeEarnEveryPeriods',
    'rewardHoldDays',
    'holdoutPercent',
    'eudTitle',
    'eudDescription',
    'eudMilestoneAchievedMessage',
    'eudCompletedMessage',
  ],
  challenge: [
    'name',
    'description',
    'status',
    'aggregationPeriod',
    'aggregationMethod',
    'completionTargetValue',
    'startAt',
    'endAt',
    'toBeFailedWarningHours',
    'rewardHoldDays',
    'holdoutPercent',
    'eudTitle',
    'eudDescription',
    'eudMilestoneAchievedMessage',
    'eudCompletedMessage',
  ],
  mission: [
    'name',
    'description',
    'status',
    'aggregationPeriod',
    'rewardHoldDays',
    'holdoutPercent',
    'eudTitle',
    'eudDescription',
    'eudCompletedMessage',
  ],
};

const NUMBER_FIELDS = new Set<string>([
  'aggregationTargetValue',
  'completionTargetValue',
  'toBeBrokenWarningHours',
  'toBeFailedWarningHours',
  'maxFreezes',
  'freezeEarnEveryPeriods',
  'rewardHoldDays',
  'holdoutPercent',
]);
/** Numbers the core always keeps one of (each has its default): left empty, the form asks for one. Others, empty, mean none. */
const FILLED_NUMBERS = new Set<string>([
  'aggregationTargetValue',
  'toBeBrokenWarningHours',
  'toBeFailedWarningHours',
  'maxFreezes',
  'rewardHoldDays',
  'holdoutPercent',
]);
const ENUM_FIELDS = new Set<string>(['status', 'aggregationPeriod', 'aggregationMethod']);

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

export function blankReward(): NewReward {
  return {
    name: '',
    description: '',
    discountType: 'percentage',
    discountValue: '',
    rewardExpiryType: 'no_expiry',
    rewardExpiryInDays: '',
    rewardExpiryAt: '',
    codes: 'shopify',
    couponCodePrefix: '',
    eudTitle: '',
  };
}

const rewardChoice = (rewardId: unknown): RewardChoice =>
  rewardId ? { mode: 'existing', rewardId: String(rewardId), draft: blankReward() } : { mode: 'none', rewardId: '', draft: blankReward() };

export function blankSettings(kind: ProgramKind): Settings {
  return {
    name: '',
    description: '',
    status: 'draft',
    aggregationPeriod: kind === 'mission' ? 'weekly' : 'daily',
    aggregationMethod: 'count',
    aggregationTargetValue: '1',
    completionTargetValue: '',
    toBeBrokenWarningHours: '4',
    toBeFailedWarningHours: '24',
    maxFreezes: '0',
    freezeEarnEveryPeriods: '',
    startAt: '',
    endAt: '',
    isRepeatable: false,
    tasks: [],
    eudTitle: '',
    eudDescription: '',
    eudMilestoneAchievedMessage: '',
    eudCompletedMessage: '',
    rewardHoldDays: '0',
    holdoutPercent: '0',
  };
}

/**
 * Whether a request's body has a draft's shape, as the editor sends it: its texts are then checked
 * by checkProgram, and its values by the core.
 */
export function isProgramDraft(value: unknown): value is ProgramDraft {
  if (!isJsonObject(value) || !(value.id === undefined || isId(value.id))) return false;
  const { settings, earning, completionReward, milestones } = value;
  return (
    shapedLike(settings, blankSettings('streak')) &&
    settings.tasks.every((task) => shapedLike(task, blankTask(''))) &&
    shapedLike(earning, noEarning()) &&
    earning.collectionIds.every((id) => typeof id === 'string') &&
    isRewardChoice(completionReward) &&
    Array.isArray(milestones) &&
    milestones.every((m) => shapedLike(m, blankMilestone('')) && isRewardChoice(m.reward))
  );
}

const isId = (value: unknown) => value === null || typeof value === 'string';

/**
 * Whether `value` has each of `model`'s fields, of its type (an id: a text or null; an array or an
 * object: one, its members checked by the caller), so that reading the draft cannot throw.
 */
function shapedLike<T extends object>(value: unknown, model: T): value is { [K in keyof T]: T[K] extends unknown[] ? unknown[] : unknown } {
  if (!isJsonObject(value)) return false;
  return Object.entries(model).every(([key, like]) =>
    key === 'id'
      ? isId(value[key])
      : Array.isArray(like)
        ? Array.isArray(value[key])
        : typeof like === 'object'
          ? isJsonObject(value[key])
          : typeof value[key] === typeof like,
  );
}

const isRewardChoice = (value: unknown): boolean => shapedLike(value, rewardChoice(null)) && shapedLike(value.draft, blankReward());

export function blankProgram(kind: ProgramKind): ProgramDraft {
  return { kind, id: null, settings: blankSettings(kind), earning: noEarning(), completionReward: rewardChoice(null), milestones: [] };
}

export const noEarning = (): EarningDraft => ({ source: 'none', collectionIds: [] });

export function blankMilestone(key: string): MilestoneDraft {
  return { key, id: null, name: '', description: '', target: '', status: 'live', eudTitle: '', reward: rewardChoice(null) };
}

export function blankTask(key: string): TaskDraft {
  return { key, id: null, name: '', activityId: '', aggregationMethod: 'count', targetValue: '1' };
}

export function milestoneFromRecord(record: Record<string, unknown>): MilestoneDraft {
  const id = String(record.id);
  return {
    key: id,
    id,
    name: text(record.name),
    description: text(record.description),
    target: text(record.milestoneTargetValue),
    status: oneOf(STATUSES, record.status, 'live'),
    eudTitle: text(record.eudTitle),
    reward: rewardChoice(record.rewardId),
  };
}

/** The draft a definition, its milestones (ascending target) and its earning rule read as. */
export function programFromRecords(
  kind: ProgramKind,
  definition: Record<string, unknown>,
  milestones: Record<string, unknown>[],
  rule: { source: string; collectionIds: string[] } | null,
): ProgramDraft {
  const settings = blankSettings(kind);
  for (const key of SETTING_FIELDS[kind]) {
    if (key === 'status') settings.status = oneOf(STATUSES, definition.status, settings.status);
    else if (key === 'aggregationPeriod')
      settings.aggregationPeriod = oneOf(PERIODS, definition.aggregationPeriod, settings.aggregationPeriod);
    else if (key === 'aggregationMethod')
      settings.aggregationMethod = oneOf(METHODS, definition.aggregationMethod, settings.aggregationMethod);
    else settings[key] = text(definition[key]);
  }
  if (kind === 'mission') {
    settings.isRepeatable = definition.isRepeatable === true;
    settings.tasks = (Array.isArray(definition.tasks) ? definition.tasks.filter(isJsonObject) : []).map((t) => ({
      key: String(t.id),
      id: String(t.id),
      name: text(t.name),
      activityId: text(t.activityId),
      aggregationMethod: oneOf(METHODS, t.aggregationMethod, 'count'),
      targetValue: text(t.targetValue),
    }));
  }
  return {
    kind,
    id: String(definition.id),
    settings,
    earning:
      rule && kind !== 'mission' ? { source: oneOf(EARNING_SOURCES, rule.source, 'none'), collectionIds: rule.collectionIds } : noEarning(),
    completionReward: rewardChoice(kind === 'mission' ? definition.rewardId : null),
    milestones: milestones.map(milestoneFromRecord),
  };
}

/** The checks the editor makes before the core sees anything: what a form can tell (filled in, a number). */
export function checkProgram(draft: ProgramDraft, words: CheckWords): Record<string, string> {
  const errors: Record<string, string> = {};
  // `whole`: what counts activities, periods or tasks takes no fraction (2.5 days is no goal a member can meet).
  const number = (key: string, value: string, required: boolean, whole = false) => {
    if (!value.trim()) {
      if (required) errors[key] = words.required;
    } else if (!Number.isFinite(Number(value))) errors[key] = words.number;
    else if (whole && !Number.isInteger(Number(value))) errors[key] = words.whole;
  };
  const s = draft.settings;
  const counted = s.aggregationMethod === 'count';
  if (!s.name.trim()) errors['settings.name'] = words.required;
  for (const key of SETTING_FIELDS[draft.kind])
    if (NUMBER_FIELDS.has(key))
      number(
        `settings.${key}`,
        s[key],
        FILLED_NUMBERS.has(key) || (draft.kind === 'challenge' && key === 'completionTargetValue'),
        (counted && (key === 'aggregationTargetValue' || key === 'completionTargetValue')) || key.endsWith('Hours'),
      );
  if (draft.kind === 'mission') {
    if (!s.tasks.length) errors['settings.tasks'] = words.tasksRequired;
    s.tasks.forEach((t, i) => {
      if (!t.name.trim()) errors[`settings.tasks.${i}.name`] = words.required;
      if (!t.activityId.trim()) errors[`settings.tasks.${i}.activityId`] = words.required;
      number(`settings.tasks.${i}.targetValue`, t.targetValue, true, t.aggregationMethod === 'count');
    });
    checkReward('completionReward', draft.completionReward, errors, words);
  }
  // A streak's milestones count periods, a mission's tasks, a counting challenge's activities.
  const wholeTargets = draft.kind !== 'challenge' || counted;
  for (const m of draft.milestones) {
    if (!m.name.trim()) errors[`milestones.${m.key}.name`] = words.required;
    number(`milestones.${m.key}.target`, m.target, true, wholeTargets);
    checkReward(`milestones.${m.key}.reward`, m.reward, errors, words);
  }
  return errors;
}

export interface CheckWords {
  required: string;
  number: string;
  whole: string;
  tasksRequired: string;
  chooseReward: string;
}

function checkReward(prefix: string, choice: RewardChoice, errors: Record<string, string>, words: CheckWords) {
  if (choice.mode === 'existing' && !choice.rewardId) errors[`${prefix}.rewardId`] = words.chooseReward;
  if (choice.mode !== 'new') return;
  const r = choice.draft;
  if (!r.discountValue.trim()) errors[`${prefix}.discountValue`] = words.required;
  else if (!Number.isFinite(Number(r.discountValue))) errors[`${prefix}.discountValue`] = words.number;
  if (r.rewardExpiryType === 'relative') {
    if (!r.rewardExpiryInDays.trim()) errors[`${prefix}.rewardExpiryInDays`] = words.required;
    else if (!Number.isFinite(Number(r.rewardExpiryInDays))) errors[`${prefix}.rewardExpiryInDays`] = words.number;
  }
  if (r.rewardExpiryType === 'absolute' && !r.rewardExpiryAt) errors[`${prefix}.rewardExpiryAt`] = words.required;
}

const numberOrNull = (value: string) => (value.trim() ? Number(value) : null);

/**
 * The earning rule a draft saves in the app (null: nothing feeds it by itself). Visits feed streaks
 * only, collections limit challenges only; a mission's tasks name their activities instead.
 */
export function earningRuleOf(
  draft: ProgramDraft,
): { kind: 'streak' | 'challenge'; source: 'orders' | 'visits'; collectionIds: string[] } | null {
  const { source, collectionIds } = draft.earning;
  if (draft.kind === 'mission' || source === 'none' || (source === 'visits' && draft.kind !== 'streak')) return null;
  return { kind: draft.kind, source, collectionIds: draft.kind === 'challenge' && source === 'orders' ? collectionIds : [] };
}
const textOrNull = (value: string) => (value.trim() ? value : null);

/** The definition's values as the core takes them (every shown field; `rewardId` is the mission's chosen reward). */
export function definitionValues(draft: ProgramDraft, rewardId: string | null): Record<string, unknown> {
  const s = draft.settings;
  const values: Record<string, unknown> = {};
  for (const key of SETTING_FIELDS[draft.kind]) {
    const value = s[key];
    values[key] = NUMBER_FIELDS.has(key) ? numberOrNull(value) : ENUM_FIELDS.has(key) || key === 'name' ? value : textOrNull(value);
  }
  if (draft.kind === 'mission') {
    values.isRepeatable = s.isRepeatable;
    values.rewardId = rewardId;
    values.tasks = s.tasks.map((t) => ({
      ...(t.id ? { id: t.id } : {}),
      name: t.name,
      activityId: t.activityId,
      aggregationMethod: t.aggregationMethod,
      targetValue: Number(t.targetValue),
    }));
  }
  return values;
}

export function milestoneValues(m: MilestoneDraft, rewardId: string | null): Record<string, unknown> {
  return {
    name: m.name,
    // The core requires a description; the merchant's name for the milestone serves when none is given.
    description: m.description.trim() ? m.description : m.name,
    milestoneTargetValue: Number(m.target),
    status: m.status,
    eudTitle: textOrNull(m.eudTitle),
    rewardId,
  };
}

/**
 * A new reward's body; `fallbackName` (the milestone's or the program's) names it when the merchant
 * left the name blank, and a last day ends in the shop's `timezone`.
 */
export function rewardValues(r: NewReward, fallbackName: string, timezone: string | null): Record<string, unknown> {
  const name = r.name.trim() ? r.name : fallbackName;
  return {
    name,
    description: r.description.trim() ? r.description : name,
    discountType: r.discountType,
    discountValue: Number(r.discountValue),
    rewardExpiryType: r.rewardExpiryType,
    ...(r.rewardExpiryType === 'relative' ? { rewardExpiryInDays: Number(r.rewardExpiryInDays) } : {}),
    ...(r.rewardExpiryType === 'absolute' ? { rewardExpiryAt: endOfDay(r.rewardExpiryAt, timezone) } : {}),
    // A Shopify discount is issued by the app, so the core must not hand out a code of its own.
    handleCoupon: r.codes !== 'shopify',
    handleCouponAutoGeneration: r.codes === 'generated',
    ...(r.codes === 'generated' && r.couponCodePrefix.trim() ? { couponCodePrefix: r.couponCodePrefix.trim() } : {}),
    ...(r.eudTitle.trim() ? { eudTitle: r.eudTitle } : {}),
  };
}

/** The fields of `next` that differ from `before` (a PATCH sends only what the merchant changed). */
export function changed(next: Record<string, unknown>, before: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(next).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(before[key])));
}

/** Whether the draft differs from what the core holds (or, for a new program, from a blank one). */
export function isDirty(draft: ProgramDraft, baseline: ProgramDraft): boolean {
  return JSON.stringify(draft) !== JSON.stringify(baseline);
}

/**
 * The order a save runs its milestone changes in, so that no step is refused for a state a later
 * step would fix: deletions and lowered targets before the definition (a lower completion target
 * must not strand a milestone), raised targets and new milestones after it (a higher completion
 * target must exist before a milestone can reach it).
 */
export function planMilestones(
  draft: ProgramDraft,
  saved: ProgramDraft | null,
): { remove: string[]; before: MilestoneDraft[]; after: MilestoneDraft[] } {
  const previous = new Map((saved?.milestones ?? []).map((m) => [m.id!, m]));
  const kept = new Set(draft.milestones.flatMap((m) => (m.id ? [m.id] : [])));
  const remove = [...previous.keys()].filter((id) => !kept.has(id));
  const before: MilestoneDraft[] = [];
  const after: MilestoneDraft[] = [];
  for (const m of draft.milestones) {
    const old = m.id ? previous.get(m.id) : undefined;
    if (old && JSON.stringify(old) === JSON.stringify(m)) continue;
    if (old && Number(m.target) < Number(old.target)) before.push(m);
    else after.push(m);
  }
  return { remove, before, after };
}
