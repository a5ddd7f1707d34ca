import { dateFormat, fill, moneyText, numberFormat, pluralRules, type Strings } from './i18n.js';
import type {
  ChallengeProgress,
  Definition,
  Milestone,
  MilestoneReward,
  MissionProgress,
  Period,
  RewardLog,
  StreakProgress,
  Task,
} from './model.js';

const DAY_MS = 86_400_000;

/**
 * Start of the period that ends at `end`. Calendar periods in the member's time zone are not
 * known here; a DST change makes this off by at most an hour, enough to tell which period `now`
 * falls in.
 */
function periodStart(end: number, period: Period): number {
  if (period === 'daily') return end - DAY_MS;
  if (period === 'weekly') return end - 7 * DAY_MS;
  const d = new Date(end);
  d.setUTCMonth(d.getUTCMonth() - 1);
  return d.getTime();
}

export interface StreakView {
  /** Consecutive completed periods, 0 once the run has lapsed. */
  length: number;
  /** Progress within the current period. */
  value: number;
  target: number;
  completed: boolean;
}

/** The member's run on a streak as of `now`, from its latest in-progress or completed progress. */
export function streakView(def: Definition, progress: StreakProgress | undefined, now: number): StreakView {
  const target = def.aggregationTargetValue ?? 1;
  if (!progress) return { length: 0, value: 0, target, completed: false };
  if (progress.streakProgressStatus === 'completed')
    return { length: progress.currentProgressValue, value: target, target, completed: true };
  const deadline = progress.streakToBeBrokenAt ? Date.parse(progress.streakToBeBrokenAt) : Number.POSITIVE_INFINITY;
  // Past its deadline the run is lost, even before the scheduler's sweep marks it broken.
  if (deadline <= now) return { length: 0, value: 0, target, completed: false };
  const task = progress.taskProgress;
  const length = progress.currentProgressValue;
  if (!task) return { length, value: 0, target, completed: false };
  // An unfinished period is the one the deadline closes: the current one.
  if (task.taskProgressStatus !== 'completed')
    return { length, value: task.currentProgressValue, target: task.targetValue, completed: false };
  // The latest period is done: now is either still in it, or in the next one, which ends at the deadline.
  const inNext = now >= periodStart(deadline, def.aggregationPeriod);
  return { length, value: inNext ? 0 : task.currentProgressValue, target: task.targetValue, completed: false };
}

/** A period of a streak's run: completed, covered by a freeze, or the next one to complete. */
export interface Slot {
  key: string;
  state: 'done' | 'frozen' | 'next';
}

/** Period keys (CONTRACT §8: `2026-11-21`, `2026-W47`, `2026-11`) as the UTC instant their calendar period starts. */
export function keyStart(key: string, period: Period): number {
  if (period !== 'weekly') return Date.parse(period === 'daily' ? key : `${key}-01`);
  const [year, week] = key.split('-W').map(Number) as [number, number];
  const jan4 = Date.UTC(year, 0, 4);
  // Week 1 is the one with 4 January; weeks start on Monday.
  return jan4 - ((new Date(jan4).getUTCDay() + 6) % 7) * DAY_MS + (week - 1) * 7 * DAY_MS;
}

/** The key of the period starting at `at` (for weeks, a Monday). */
function keyAt(at: number, period: Period): string {
  if (period !== 'weekly') return new Date(at).toISOString().slice(0, period === 'daily' ? 10 : 7);
  const thursday = at + 3 * DAY_MS;
  const year = new Date(thursday).getUTCFullYear();
  return `${year}-W${String(Math.floor((thursday - Date.UTC(year, 0, 1)) / (7 * DAY_MS)) + 1).padStart(2, '0')}`;
}

function shift(key: string, period: Period, by: number): string {
  const start = new Date(keyStart(key, period));
  if (period === 'monthly') start.setUTCMonth(start.getUTCMonth() + by);
  else start.setTime(start.getTime() + by * (period === 'daily' ? 1 : 7) * DAY_MS);
  return keyAt(start.getTime(), period);
}

/**
 * The latest periods of a live run, oldest first, at most `size`. Keys alone rebuild it, with no
 * time zone: walking back from the latest period known (the current task's or the last frozen
 * one), a period is frozen when listed, else completed while the run's length lasts; after a
 * completed or frozen latest period comes the next one to complete.
 */
export function streakStrip(progress: StreakProgress, period: Period, size = 7): Slot[] {
  const frozen = progress.frozenPeriodKeys;
  const task = progress.taskProgress;
  const latest = [task?.periodKey ?? '', frozen[frozen.length - 1] ?? ''].sort().pop();
  if (!latest) return [];
  const open = task?.periodKey === latest && task.taskProgressStatus !== 'completed' && !frozen.includes(latest);
  const slots: Slot[] = open ? [] : [{ key: shift(latest, period, 1), state: 'next' }];
  let done = progress.currentProgressValue;
  for (let key = latest; slots.length < size; key = shift(key, period, -1)) {
    if (frozen.includes(key)) slots.unshift({ key, state: 'frozen' });
    else if (open && key === latest) slots.unshift({ key, state: 'next' });
    else if (done-- > 0) slots.unshift({ key, state: 'done' });
    else break;
  }
  return slots;
}

/** The progress of the challenge's current window, if the member has one. */
export function currentChallenge(def: Definition, progresses: ChallengeProgress[], now: number): ChallengeProgress | undefined {
  return progresses.find(
    (p) =>
      p.challengeId === def.id &&
      p.challengeProgressStatus !== 'failed' &&
      (!p.challengeToBeFailedAt || Date.parse(p.challengeToBeFailedAt) > now),
  );
}

/** The member's latest mission progress that still counts: completed, or in progress within its window. */
export function currentMission(def: Definition, progresses: MissionProgress[], now: number): MissionProgress | undefined {
  return progresses.find(
    (p) =>
      p.missionId === def.id &&
      (p.missionProgressStatus === 'completed' || !p.missionToBeFailedAt || Date.parse(p.missionToBeFailedAt) > now),
  );
}

/** The first milestone not yet reached at `value`; milestones arrive in ascending target order. */
export const nextMilestone = (milestones: Milestone[], value: number): Milestone | undefined =>
  milestones.find((m) => m.milestoneTargetValue > value);

/** A milestone as shown: reached and next only mean something for a member. */
export type MilestoneRow = Milestone & { reached: boolean; next: boolean };

export function milestoneRows(milestones: Milestone[], value: number, member: boolean): MilestoneRow[] {
  const next = nextMilestone(milestones, value);
  return milestones.map((m) => ({ ...m, reached: member && m.milestoneTargetValue <= value, next: member && m === next }));
}

/**
 * An earned entry times a tier's multiplier, rounded down, as the core credits it (CONTRACT §19); a
 * rate per unit of currency is no entry, so it keeps its hundredths (2 × 1.5 = 3, 1.5 × 1.5 = 2.25).
 */
export const multiplied = (points: number, multiplier: number, rate = false): number =>
  multiplier === 1 ? points : rate ? Math.floor(points * multiplier * 100 + 1e-6) / 100 : Math.floor(points * multiplier + 1e-9);

/** What points are called by how many there are, in a language's plural categories: one Star, other Stars. */
export interface PointsName {
  one: string;
  other: string;
}

/** An amount of points with their name: "1 Star", "1,250 Stars". */
export const pointsText = (n: number, name: PointsName, lang: string | undefined): string =>
  `${numberFormat(lang, { maximumFractionDigits: 2 }).format(n)} ${pluralRules(lang).select(n) === 'one' ? name.one : name.other}`;

/**
 * How a storefront writes what is earned: what points are called (the merchant's name, else the
 * interface's word), the shop's currency when the page says it, and a member's tier multiplier.
 */
export interface Earnings {
  points?: PointsName;
  currency?: string;
  multiplier?: number;
}

/**
 * What a reward gives, in words: points with their name times a member's tier multiplier, or what
 * it takes off in the shopper's language; null for a fixed amount when the storefront does not
 * say the shop's currency, and for nothing off (free shipping or a free product, which only
 * their title names).
 */
export function rewardGives(
  r: MilestoneReward,
  t: Strings,
  lang: string | undefined,
  { points = { one: t.point, other: t.points }, currency, multiplier = 1 }: Earnings = {},
): string | null {
  if (r.rewardKind === 'points' && r.pointsValue) return `+${pointsText(multiplied(r.pointsValue, multiplier), points, lang)}`;
  if (!r.discountValue) return null;
  const off =
    r.discountType === 'percentage'
      ? numberFormat(lang, { style: 'percent', maximumFractionDigits: 2 }).format(r.discountValue / 100)
      : r.discountType === 'fixed_amount' && moneyText(r.discountValue, currency, lang);
  return off ? fill(t.off, { v: off }) : null;
}

/** What a milestone earns, in words: what its reward gives, else the milestone's or the reward's name; null without a reward. */
export function milestoneEarns(m: Milestone, t: Strings, lang: string | undefined, earnings: Earnings = {}): string | null {
  const r = m.reward;
  return (r && rewardGives(r, t, lang, earnings)) || m.eudMilestoneRewardTitle || r?.eudTitle || null;
}

/** A mission's tasks with the member's progress on each (capped at the target) and how many are done. */
export function missionTasks(
  def: Definition,
  progress: MissionProgress | undefined,
): { done: number; rows: (Task & { value: number; complete: boolean })[] } {
  const rows = (def.tasks ?? []).map((task) => {
    // A mission has a handful of tasks: a scan is cheaper in bytes than a map, and as fast.
    const p = progress?.taskProgresses.find((t) => t.taskId === task.id);
    return { ...task, value: Math.min(p?.currentProgressValue ?? 0, task.targetValue), complete: p?.taskProgressStatus === 'completed' };
  });
  return { done: rows.filter((r) => r.complete).length, rows };
}

/** Whether a reward log gave points (CONTRACT §19) rather than a code to use. */
export const gavePoints = (log: RewardLog): boolean => log.reward?.rewardKind === 'points';

/**
 * The store credit a reward log stands for: the Shopify app stamps a credit's amount and currency on
 * it as its code ("7.50 EUR"), credited to the customer's account and never a code to apply.
 */
export function storeCredit(log: RewardLog): { amount: number; currency: string } | null {
  const stamp = /^(\d+\.\d{2}) ([A-Z]{3})$/.exec(log.couponCode ?? '');
  return stamp ? { amount: Number(stamp[1]), currency: stamp[2]! } : null;
}

/**
 * Shopify's link that applies a discount code to the shopper's cart, then shows `then` (a path of
 * the storefront, such as a language's cart: `/fr/cart`): on the storefront at `origin`
 * (`https://shop.example`), or on the page's own without one.
 */
export const applyCodeLink = (code: string, { origin = '', then = '/cart' }: { origin?: string; then?: string } = {}): string =>
  `${origin.replace(/\/+$/, '')}/discount/${encodeURIComponent(code)}?redirect=${encodeURIComponent(then)}`;

/** Whether a reward log's code or credit has stopped working by `now`. */
export const expired = (log: RewardLog, now = Date.now()): boolean => log.rewardExpiryAt !== null && Date.parse(log.rewardExpiryAt) <= now;

/**
 * Whether a reward log is, or will be, a code to apply: not taken back or expired, nor points or
 * store credit, which need no code (checkout and POS list these as the customer's codes).
 */
export const offersCode = (log: RewardLog, now = Date.now()): boolean =>
  log.rewardLogStatus !== 'revoked' && !expired(log, now) && !gavePoints(log) && !storeCredit(log);

/**
 * What a reward shows under its title: its code, the store credit it gave, when a held one comes,
 * that it was taken back or has expired (`gone`: shown as no longer there), that its points went
 * to the balance, or that its code is on its way.
 */
export type RewardView =
  { kind: 'code'; code: string } | { kind: 'credit'; amount: string } | { kind: 'note'; text: string; gone: boolean };

export function rewardView(log: RewardLog, t: Strings, lang: string | undefined, now = Date.now()): RewardView {
  const long = (iso: string) => dateFormat(lang, { dateStyle: 'long' }).format(new Date(iso));
  if (log.rewardLogStatus === 'revoked') return { kind: 'note', text: t.revoked, gone: true };
  if (log.rewardLogStatus === 'pending' && log.confirmAt)
    return { kind: 'note', text: fill(t.heldUntil, { date: long(log.confirmAt) }), gone: false };
  if (gavePoints(log)) return { kind: 'note', text: t.credited, gone: false };
  if (log.couponCode && expired(log, now)) return { kind: 'note', text: fill(t.expired, { date: long(log.rewardExpiryAt!) }), gone: true };
  const credit = storeCredit(log);
  if (credit) return { kind: 'credit', amount: moneyText(credit.amount, credit.currency, lang) ?? log.couponCode! };
  return log.couponCode ? { kind: 'code', code: log.couponCode } : { kind: 'note', text: t.pending, gone: false };
}
