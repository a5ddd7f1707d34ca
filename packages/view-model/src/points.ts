import { type Api, ApiError, NEWEST_FIRST, redemptionWith, whereIn } from './api.js';
import { dateFormat, fill, moneyText, numberFormat, type Strings } from './i18n.js';
import type { Definition, Member, PointEntry, PointsSetting, Redemption, Reward, RewardLog, Tier } from './model.js';
import { type Earnings, multiplied, type PointsName, pointsText, rewardGives } from './progress.js';
import { type FollowOffer, followOffers, networkName } from './social.js';

/** The points program as the storefront shows it (CONTRACT §19). */
export interface Points {
  setting: PointsSetting;
  /** Cheapest first. */
  rewards: Reward[];
  /** Lowest threshold first. */
  tiers: Tier[];
  /** Null for a guest. */
  member: Member | null;
  /** The member's newest entries, newest first, when the read asked for them (their history). */
  history?: PointEntry[];
}

const ascending = (fieldSlug: string) => ({ sortBy: [{ fieldSlug, order: 'ASC' }] });

/**
 * The live program, or null while the merchant has points off (the setting then reads as none);
 * with `history`, a member's newest entries too, read beside their record.
 */
export async function loadPoints(api: Api, { history = false } = {}): Promise<Points | null> {
  const [setting] = await api.list('points_setting');
  if (!setting) return null;
  const [rewards, tiers, member, entries] = await Promise.all([
    api.list('reward', ascending('pointsCost')),
    api.list('tier', ascending('pointsThreshold')),
    api.member ? api.me() : null,
    history && api.member ? loadPointHistory(api) : undefined,
  ]);
  return { setting, rewards, tiers, member, ...(entries ? { history: entries } : {}) };
}

/** The outcome of the last redemption, shown under its reward. */
export type RedeemOutcome = { id: string; log: RewardLog } | { id: string; error: string };

/** Sets one piece of a view's state, as a Preact state hook's setter does. */
type Setter<T> = (next: T | ((current: T) => T)) => void;

/** The state of a view that a redemption changes. */
export interface RedeemView {
  setBusy: Setter<string | undefined>;
  setOutcome: Setter<RedeemOutcome | undefined>;
  setMember: Setter<Member | null>;
  setLogs: Setter<RewardLog[]>;
  setHistory: Setter<PointEntry[]>;
}

/** A redemption's uniqueIdentifier: random, and made where `crypto.randomUUID` is not (a page over plain HTTP). */
function redemptionKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `redeem-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * The key of each reward's redemption whose answer never came, per reader: the next click sends it
 * again, so a redemption that did happen is found (409 duplicate_unique_identifier) rather than
 * made twice. A redemption answered either way gives its key up.
 */
const unanswered = new WeakMap<object, Map<string, string>>();

/** The reward log a redemption made, found through its `redeemed` entry; null when it cannot be read. */
async function redeemedWith(api: Pick<Api, 'list'>, key: string): Promise<RewardLog | null> {
  const [entry] = await api.list('point_entry', { filters: redemptionWith(key) });
  if (!entry?.linkedSchemaRecordId) return null;
  const [log] = await api.list('reward_log', { filters: whereIn('id', [entry.linkedSchemaRecordId]) });
  return log ?? null;
}

/**
 * Redeems a reward for the member and shows what came of it: the reward busy while it runs, then
 * the reward log (first among the member's, its entry read again with their history) and the
 * balance after, or the refusal in words. The redemption is the member's newest entry, so it moves
 * their points' expiry. Each redemption has a uniqueIdentifier: one whose answer was lost (the
 * network, a time-out) is sent again with it on the next click, and is then shown as made, never
 * made twice. After a refusal or a lost answer the member and their history are read again: the
 * balance moved (an order refunded, another tab, the lost redemption itself).
 */
export async function redeemInto(
  api: Pick<Api, 'redeem' | 'me' | 'list'>,
  rewardId: string,
  t: Strings,
  name: PointsName,
  view: RedeemView,
): Promise<void> {
  view.setBusy(rewardId);
  view.setOutcome(undefined);
  let keys = unanswered.get(api);
  if (!keys) unanswered.set(api, (keys = new Map()));
  const key = keys.get(rewardId) ?? redemptionKey();
  keys.set(rewardId, key);
  const reread = () => {
    api.me().then(view.setMember, () => undefined);
    loadPointHistory(api).then(view.setHistory, () => undefined);
  };
  // An answer of the core settles the key; none (the network, a time-out, a gateway) leaves it for the next click.
  const answered = (err: unknown) => err instanceof ApiError && err.status < 500 && err.status !== 408 && err.status !== 429;
  let answer: Redemption;
  try {
    // Without an answer, asked again at once with the same key, which the core makes at most once: a
    // redemption made but unanswered is then shown, though the balance left may no longer allow a click.
    answer = await api.redeem(rewardId, key).catch((err: unknown) => (answered(err) ? Promise.reject(err) : api.redeem(rewardId, key)));
    keys.delete(rewardId);
  } catch (err) {
    if (answered(err)) keys.delete(rewardId);
    const replayed = err instanceof ApiError && err.code === 'duplicate_unique_identifier';
    const made = replayed ? await redeemedWith(api, key).catch(() => null) : null;
    view.setBusy(undefined);
    if (made) {
      view.setOutcome({ id: rewardId, log: made });
      view.setLogs((list) => [made, ...list.filter((l) => l.id !== made.id)]);
    } else {
      const short = err instanceof ApiError && err.code === 'insufficient_points';
      view.setOutcome({ id: rewardId, error: short ? fill(t.notEnough, { name: name.other }) : t.error });
    }
    reread();
    return;
  }
  view.setBusy(undefined);
  const { rewardLog, pointsBalance } = answer;
  view.setMember((m) => m && { ...m, pointsBalance, lastPointEntryAt: new Date().toISOString() });
  view.setOutcome({ id: rewardId, log: rewardLog });
  view.setLogs((list) => [rewardLog, ...list]);
  loadPointHistory(api).then(view.setHistory, () => undefined);
}

/** What points are called: the merchant's names in the read's language, else the interface's words. */
export function pointsName(setting: PointsSetting | undefined, t: Strings): PointsName {
  const named = setting?.eudCurrencyName;
  return named ? { one: setting.eudCurrencyNameOne || named, other: named } : { one: t.point, other: t.points };
}

/** A way to earn: what to do, and the points it earns. */
export interface EarnRow {
  key: string;
  label: string;
  earns: string;
  /** A social profile to follow: the row's button opens it and credits the follow, once. */
  follow?: FollowOffer;
}

/** A points setting's bonus points event, as the Shopify app earns by it and the storefront says it. */
export type BonusEvent = Pick<PointsSetting, 'bonusMultiplier' | 'bonusStartsAt' | 'bonusEndsAt'>;

/** The bonus points event running at `now` (from its start, until its end): its multiplier and end; null when none runs. */
export function bonusNow(setting: BonusEvent, now = Date.now()): { multiplier: number; endsAt: Date } | null {
  const { bonusMultiplier: multiplier = 1, bonusStartsAt, bonusEndsAt } = setting;
  if (multiplier <= 1 || !bonusStartsAt || !bonusEndsAt) return null;
  const endsAt = new Date(bonusEndsAt);
  return now >= Date.parse(bonusStartsAt) && now < endsAt.getTime() ? { multiplier, endsAt } : null;
}

/** A multiplier as the shopper's language writes it, to one decimal ("1.5", "1,5"). */
const multiple = (n: number, lang: string | undefined): string => numberFormat(lang, { maximumFractionDigits: 1 }).format(n);

/** The bonus points event running now in words ("2× points on orders until 13 December, 23:59"); null when none runs. */
export function bonusText(setting: PointsSetting, t: Strings, lang: string | undefined, now = Date.now()): string | null {
  const bonus = bonusNow(setting, now);
  if (!bonus) return null;
  const date = dateFormat(lang, { day: 'numeric', month: 'long', hour: 'numeric', minute: '2-digit' }).format(bonus.endsAt);
  return fill(t.bonusUntil, { n: multiple(bonus.multiplier, lang), date });
}

/** What the reminder beside the launcher is made of: the live setting and, for a member, their record and the rewards by cost. */
export type Nudge = Pick<Points, 'setting' | 'rewards' | 'member'>;

/** Reads what `nudgeText` needs and no more (a guest's is the setting alone); null while points are off. */
export async function loadNudge(api: Api): Promise<Nudge | null> {
  const [setting] = await api.list('points_setting');
  if (!setting) return null;
  const [rewards, member] = api.member ? await Promise.all([api.list('reward', ascending('pointsCost')), api.me()]) : [[], null];
  return { setting, rewards, member };
}

/** Whether the member earns and redeems: a member the shop paused (the Shopify app's customers left out by tag) does neither. */
export const takesPart = (member: Pick<Member, 'status'>): boolean => (member.status ?? 'live') === 'live';

/** The member when they take part; null for none, or for one the shop paused, to whom nothing is offered that the core would refuse. */
export const participant = (member: Member | null | undefined): Member | null => (member && takesPart(member) ? member : null);

/** What a reward is called where it is offered for points: its title, else what it gives; null when neither says anything. */
export const rewardTitle = (reward: Reward, t: Strings, lang: string | undefined, earnings: Earnings): string | null =>
  reward.eudTitle || rewardGives(reward, t, lang, earnings);

/**
 * What the storefront reminds a shopper of beside the launcher, once a session, in one sentence: a
 * member, the best reward their balance covers (what its Redeem button calls it), else a bonus
 * points event running `now`, else the nearest reward and what it still takes (as its row in the
 * panel says it); a guest, what creating an account earns, else the bonus event. Null when there
 * is nothing to say.
 */
export function nudgeText(points: Nudge, t: Strings, lang: string | undefined, currency?: string, now = Date.now()): string | null {
  const { setting, member } = points;
  const name = pointsName(setting, t);
  const say = (n: number) => pointsText(n, name, lang);
  if (!member)
    return setting.pointsOnSignUp > 0 ? fill(t.nudgeJoin, { points: say(setting.pointsOnSignUp) }) : bonusText(setting, t, lang, now);
  // A member the shop paused earns and redeems nothing: nothing to remind them of.
  if (!takesPart(member)) return null;
  // Cheapest first: the last the balance covers is the best, the first it does not the nearest.
  let best: string | undefined;
  let nearest: string | undefined;
  for (const reward of points.rewards) {
    const title = rewardTitle(reward, t, lang, { points: name, currency });
    const short = reward.pointsCost - member.pointsBalance;
    if (title && short > 0) nearest ??= `${title}: ${fill(t.toGo, { n: say(short) })}`;
    else if (title) best = title;
  }
  if (best) return fill(t.nudgeRedeem, { points: say(member.pointsBalance), reward: best });
  return bonusText(setting, t, lang, now) ?? nearest ?? null;
}

/**
 * The program's rates (the ones set above 0; an order's times a bonus event running `now`), the
 * social profiles to follow, then each live milestone whose reward is points, under its
 * definition's title: all the storefront can tell of how points are earned. With a member's tier
 * `multiplier` (`earnMultiplier`), what that member earns: every earned entry multiplied and
 * rounded down, as the core credits it.
 */
export function waysToEarn(
  setting: PointsSetting,
  defs: Definition[],
  t: Strings,
  lang: string | undefined,
  currency?: string,
  multiplier = 1,
  /** The networks the member has followed already (`socialFollows`). */
  followed: readonly string[] = [],
  now = Date.now(),
): EarnRow[] {
  const name = pointsName(setting, t);
  const earns = (n: number, rate = false) => `+${pointsText(multiplied(n, multiplier, rate), name, lang)}`;
  const bonus = bonusNow(setting, now)?.multiplier ?? 1;
  const rates: [string, string, number][] = [
    // As the app earns them: the rate times the bonus, a per-order amount rounded down.
    ['spend', fill(t.perSpend, { amount: moneyText(1, currency, lang) ?? '1' }), setting.pointsPerCurrencyUnit * bonus],
    ['order', t.perOrder, Math.floor(setting.pointsPerOrder * bonus + 1e-9)],
    ['signup', t.onSignUp, setting.pointsOnSignUp],
    ['newsletter', t.onNewsletter, setting.pointsOnNewsletter],
    ['birthday', t.onBirthday, setting.pointsOnBirthday],
    ['referral', t.referFriend, setting.pointsOnReferral],
  ];
  return [
    ...rates.filter(([, , n]) => n > 0).map(([key, label, n]) => ({ key, label, earns: earns(n, key === 'spend') })),
    ...followOffers(setting, followed).map((follow) => ({
      key: `follow:${follow.network}`,
      label: fill(t.followOn, { network: networkName(follow.network) }),
      earns: earns(setting.pointsOnFollow ?? 0),
      follow,
    })),
    ...defs.flatMap((def) =>
      def.milestones.flatMap(({ id, eudTitle, reward }) =>
        reward?.rewardKind === 'points' && reward.pointsValue
          ? [{ key: id, label: [def.eudTitle, eudTitle].filter(Boolean).join(' · '), earns: earns(reward.pointsValue) }]
          : [],
      ),
    ),
  ];
}

/** A tier's multiplier as the shopper's language writes it ("×1.5", "×1,5"); null when it multiplies nothing. */
export const multiplierText = (tier: Pick<Tier, 'earnMultiplier'> | undefined, lang: string | undefined): string | null =>
  tier && tier.earnMultiplier > 1 ? `×${multiple(tier.earnMultiplier, lang)}` : null;

/** A member's tier as the storefront names it: its title, else "Your tier" (its `name` is not public). */
export const tierTitle = (tier: Pick<Tier, 'eudTitle'>, t: Pick<Strings, 'yourTier'>): string => tier.eudTitle || t.yourTier;

/**
 * The tier beside the ways to earn, with what it multiplies them by ("Gold ×1.5"; untitled, "Your
 * tier ×1.5" with `t`, else the multiplier alone); null when it multiplies nothing.
 */
export function tierBoost(
  tier: Pick<Tier, 'earnMultiplier' | 'eudTitle'> | undefined,
  lang: string | undefined,
  t?: Pick<Strings, 'yourTier'>,
): string | null {
  const multiplier = multiplierText(tier, lang);
  if (!tier || !multiplier) return null;
  return [t ? tierTitle(tier, t) : tier.eudTitle, multiplier].filter(Boolean).join(' ');
}

/** What a member's earned entries are multiplied by: their tier's `earnMultiplier`; 1 for a guest or a member without a tier. */
export async function earnMultiplier(api: Api): Promise<number> {
  if (!api.member) return 1;
  const [tiers, member] = await Promise.all([api.list('tier', ascending('pointsThreshold')), api.me()]);
  return tierView(tiers, member).current?.earnMultiplier ?? 1;
}

/** The member's tier, the next one up, and how far they are from it. */
export interface TierView {
  current: Tier | undefined;
  next: Tier | undefined;
  earned: number;
}

/**
 * The core keeps the member's tier (raised with their next entry, lowered once a day); until then a
 * member is shown in the highest tier the window reaches when it is above the kept one, as the rule
 * puts them there (a new member in a tier from 0, a tier made since their last entry). The next one
 * is the first above both it and what the member has earned in the window.
 */
export function tierView(tiers: Tier[], member: Member): TierView {
  const earned = member.pointsEarnedInTierWindow;
  const kept = tiers.find((tier) => tier.id === member.tierId);
  const reached = tiers.findLast((tier) => tier.pointsThreshold <= earned);
  const current = reached && (!kept || reached.pointsThreshold > kept.pointsThreshold) ? reached : kept;
  const floor = Math.max(current?.pointsThreshold ?? -1, earned);
  const next = tiers.find((tier) => tier.pointsThreshold > floor);
  return { current, next, earned };
}

/** `at` plus calendar months in UTC, the day kept within the month (Jan 31 + 1 month: Feb 28), as the core counts them. */
function plusMonths(at: Date, months: number): Date {
  const d = new Date(at);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  d.setUTCDate(Math.min(day, new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate()));
  return d;
}

/**
 * "Your 250 Stars expire on Mar 3, 2027 unless you earn or redeem some before then" (the core's
 * daily pass carries it out that day, or later if it warned late); null as `pointsExpireAt` is. A
 * paused member's points expire as well, but earning or redeeming is not theirs to do: they read
 * the date alone.
 */
export function pointsExpiry(
  setting: PointsSetting,
  member: Member,
  t: Strings,
  name: PointsName,
  lang: string | undefined,
): string | null {
  const at = pointsExpireAt(setting.expiryMonthsOfInactivity, member);
  if (!at) return null;
  const date = dateFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' }).format(at);
  return fill(takesPart(member) ? t.expiresOn : t.expiresOnPaused, { points: pointsText(member.pointsBalance, name, lang), date });
}

/**
 * When a member's points expire without an entry before (CONTRACT §19): their newest entry plus
 * `months` of inactivity, in calendar months; null when points never expire (0), or the member holds
 * none or has no entry yet. The admin's member page says it too.
 */
export function pointsExpireAt(months: number, member: Pick<Member, 'pointsBalance' | 'lastPointEntryAt'>): Date | null {
  if (!months || member.pointsBalance <= 0 || !member.lastPointEntryAt) return null;
  return plusMonths(new Date(member.lastPointEntryAt), months);
}

/** "350 Stars to Gold"; "350 Stars to the next tier" when it has no title (its `name` is not public). */
export function toNextTier(view: TierView, name: PointsName, t: Strings, lang: string | undefined): string {
  const n = pointsText(view.next!.pointsThreshold - view.earned, name, lang);
  const tier = view.next!.eudTitle;
  return tier ? fill(t.toNextTier, { n, tier }) : fill(t.toNextTierPlain, { n });
}

/** A member's newest point entries, as many as a history shows. */
export const loadPointHistory = (api: Pick<Api, 'list'>): Promise<PointEntry[]> => api.list('point_entry', { ...NEWEST_FIRST, limit: 20 });

/** One line of the history: when, what, and the points with their sign and name. */
export interface HistoryRow {
  key: string;
  date: string;
  what: string;
  points: string;
  /** Whether the entry added points (shown as a gain) rather than took them. */
  gained: boolean;
}

/** What an entry's links say it came from: an order by its name (with the bonus event's multiplier it earned with), signing up, a referral either way, or a reward log. */
export type PointSource =
  | { kind: 'order'; name: string; bonus?: number }
  | { kind: 'signUp' }
  | { kind: 'newsletter' }
  | { kind: 'birthday' }
  | { kind: 'follow'; network: string }
  | { kind: 'referral' }
  | { kind: 'referredOrder' }
  | { kind: 'reward'; logId: string };

/** An entry's links, as any reader of entries has them (the core's list answers, the app's typed client). */
export interface EntryLinks {
  linkedSchemaSlug?: string | null;
  linkedSchemaRecordId?: string | null;
  note?: string | null;
}

/**
 * The note the Shopify app writes on an order's entry: the order's name, and the multiplier of the
 * bonus points event the order was placed in (` ×2`), which the member's history says beside it.
 */
export const orderNote = (name: string, bonus = 1): string => (bonus > 1 ? `${name} ×${bonus}` : name);
const ORDER_NOTE = /^(.*\S) ×(\d+(?:\.\d+)?)$/;

/**
 * Where an entry came from, by the links the Shopify app and the core write (CONTRACT §19): the app
 * links an order's entry `shopify_order` and notes the order's name (`orderNote`), a sign-up's `shopify_customer`,
 * a newsletter subscription's `shopify_newsletter`, a referrer's points for a referred friend's first
 * order `shopify_referral` (without a note, so without the friend's order) and the friend's own on
 * it `shopify_referred_order`; the core links a reward's `reward_log`, a birthday's `birthday`
 * and a social follow's `social_follow` (the network as its record). An entry taking back another
 * (linked `point_entry`) came from what that one came from, when it is among `byId`. The admin's
 * member page reads them too.
 */
export function pointSource(e: EntryLinks, byId: ReadonlyMap<string, EntryLinks>): PointSource | null {
  const from = e.linkedSchemaSlug === 'point_entry' && e.linkedSchemaRecordId ? byId.get(e.linkedSchemaRecordId) : e;
  if (!from) return null;
  if (from.linkedSchemaSlug === 'shopify_order' && from.note) {
    const bonus = ORDER_NOTE.exec(from.note);
    return bonus ? { kind: 'order', name: bonus[1]!, bonus: Number(bonus[2]) } : { kind: 'order', name: from.note };
  }
  if (from.linkedSchemaSlug === 'shopify_customer') return { kind: 'signUp' };
  if (from.linkedSchemaSlug === 'shopify_newsletter') return { kind: 'newsletter' };
  if (from.linkedSchemaSlug === 'birthday') return { kind: 'birthday' };
  if (from.linkedSchemaSlug === 'social_follow' && from.linkedSchemaRecordId) return { kind: 'follow', network: from.linkedSchemaRecordId };
  if (from.linkedSchemaSlug === 'shopify_referral') return { kind: 'referral' };
  if (from.linkedSchemaSlug === 'shopify_referred_order') return { kind: 'referredOrder' };
  if (from.linkedSchemaSlug === 'reward_log' && from.linkedSchemaRecordId) return { kind: 'reward', logId: from.linkedSchemaRecordId };
  return null;
}

/**
 * A member's point entries, newest first, in words: what each came from (`pointSource`; a reward by
 * its title, from the reward logs read beside them), an adjustment by the shop's note. Never an id
 * or a reason code.
 */
export function pointHistory(
  entries: PointEntry[],
  logs: RewardLog[],
  t: Strings,
  name: PointsName,
  lang: string | undefined,
): HistoryRow[] {
  const titles = new Map(logs.map((log) => [log.id, log.eudRewardTitle]));
  const byId = new Map(entries.map((e) => [e.id, e]));
  const source = (e: PointEntry): string | null => {
    const from = pointSource(e, byId);
    if (!from) return null;
    if (from.kind === 'order')
      return from.bonus
        ? fill(t.historyOrderBonus, { name: from.name, n: multiple(from.bonus, lang) })
        : fill(t.historyOrder, { name: from.name });
    if (from.kind === 'signUp') return t.onSignUp;
    if (from.kind === 'newsletter') return t.onNewsletter;
    if (from.kind === 'birthday') return t.onBirthday;
    if (from.kind === 'follow') return fill(t.followOn, { network: networkName(from.network) });
    if (from.kind === 'referral') return t.historyReferral;
    if (from.kind === 'referredOrder') return t.historyReferred;
    return titles.get(from.logId) ?? null;
  };
  const what = (e: PointEntry): string => {
    switch (e.reason) {
      case 'earned':
        return source(e) ?? e.note ?? t.historyEarned;
      case 'redeemed': {
        const title = source(e);
        return title ? fill(t.historyRedeemed, { title }) : t.redeemed;
      }
      case 'reversed': {
        const from = source(e);
        return from ? fill(t.historyTakenBack, { what: from }) : t.historyTakenBackPlain;
      }
      case 'expired':
        return t.historyExpired;
      default:
        return e.note ?? t.historyAdjusted;
    }
  };
  const day = dateFormat(lang, { dateStyle: 'medium' });
  return entries.map((e) => ({
    key: e.id,
    date: day.format(new Date(e.createdAt)),
    what: what(e),
    points: `${e.points > 0 ? '+' : '−'}${pointsText(Math.abs(e.points), name, lang)}`,
    gained: e.points > 0,
  }));
}
