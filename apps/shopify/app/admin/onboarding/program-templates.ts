import type { StorefrontTexts } from './storefront-texts';

/**
 * The onboarding's ready-made programs: what each one creates in the core (a definition, its
 * rewards, its milestones, optionally a leaderboard; or, for points and tiers, the account's points
 * setting, rewards to redeem and tiers), with its texts from one language's set.
 * Pure data, so a test can hold a template to what it promises.
 */
export const TEMPLATE_IDS = ['daily-visit', 'weekly-freezes', 'monthly-spend', 'welcome-mission', 'points-tiers'] as const;
export type TemplateId = (typeof TEMPLATE_IDS)[number];
export const isTemplateId = (value: unknown): value is TemplateId => TEMPLATE_IDS.some((id) => id === value);
/** The templates that make a streak, challenge or mission (all but points and tiers). */
export type ProgramTemplateId = Exclude<TemplateId, 'points-tiers'>;
export const isProgramTemplate = (id: TemplateId): id is ProgramTemplateId => id !== 'points-tiers';

export interface RewardPlan {
  key: string;
  discountType: 'percentage' | 'fixed_amount';
  discountValue: number;
  /** For codes the core generates (when the merchant does not choose Shopify discounts). */
  couponCodePrefix: string;
  title: string;
  /** What redeeming it costs in points (CONTRACT §19); absent: it is earned, not redeemed. */
  pointsCost?: number;
}

export interface MilestonePlan {
  target: number;
  rewardKey: string;
  title: string;
}

export interface ProgramPlan {
  slug: 'streak' | 'challenge' | 'mission';
  /** The definition's own fields, texts included; the status and the mission's rewardId are added on creation. */
  definition: Record<string, unknown>;
  /** What feeds a streak or challenge by itself (a mission's tasks name their built-in activities). */
  earning?: 'orders' | 'visits';
  /** A mission's reward for completing every task. */
  completionRewardKey?: string;
  rewards: RewardPlan[];
  milestones: MilestonePlan[];
  leaderboard?: Record<string, unknown>;
}

/** How long a reward's code stays valid after it is issued. */
export const REWARD_VALID_DAYS = 30;
/** Days a reward earned with orders waits before it is issued: the usual return window (CONTRACT §17). */
export const ORDER_HOLD_DAYS = 14;
/** The monthly spend challenge's target, in the shop's currency. */
export const SPEND_TARGET = 200;
/** What the spend challenge's rewards take off at half and at the full target, in the shop's currency. */
export const SPEND_REWARDS_OFF = { half: 5, full: 15 } as const;
/** What the points template's fixed reward takes off, in the shop's currency. */
export const POINTS_FIXED_OFF = 5;

type TemplateAmounts = Record<'target' | 'half' | 'halfOff' | 'fullOff' | 'pointsOff', string>;

/**
 * The templates' amounts of money in the shop's `currency` as readers of `language` write them, by
 * the placeholders the cards and texts name them with (`{target}`, `{half}`, `{halfOff}`,
 * `{fullOff}`, `{pointsOff}`): the records and the onboarding's cards say the same.
 */
export function templateAmounts(language: string, currency: string | null): TemplateAmounts {
  const amount = (n: number) => money(n, language, currency);
  return {
    target: amount(SPEND_TARGET),
    half: amount(SPEND_TARGET / 2),
    halfOff: amount(SPEND_REWARDS_OFF.half),
    fullOff: amount(SPEND_REWARDS_OFF.full),
    pointsOff: amount(POINTS_FIXED_OFF),
  };
}

/**
 * A template's records in `t`'s language; amounts of money (the spend challenge's target and its
 * fixed rewards) in the shop's `currency` as shoppers of `language` read them.
 */
export function programPlan(id: ProgramTemplateId, t: StorefrontTexts, language: string, currency: string | null): ProgramPlan {
  const amounts = templateAmounts(language, currency);
  const spent = (text: string) => text.replace('{target}', amounts.target).replace('{half}', amounts.half);
  switch (id) {
    case 'daily-visit':
      return {
        slug: 'streak',
        earning: 'visits',
        definition: {
          name: t.daily.title,
          aggregationPeriod: 'daily',
          aggregationMethod: 'count',
          aggregationTargetValue: 1,
          completionTargetValue: 7,
          eudTitle: t.daily.title,
          eudDescription: t.daily.description,
          eudCompletedMessage: t.daily.completed,
        },
        rewards: [
          { key: 'day3', discountType: 'percentage', discountValue: 10, couponCodePrefix: 'STREAK3-', title: t.daily.reward3 },
          { key: 'day7', discountType: 'percentage', discountValue: 20, couponCodePrefix: 'STREAK7-', title: t.daily.reward7 },
        ],
        milestones: [
          { target: 3, rewardKey: 'day3', title: t.daily.day3 },
          { target: 7, rewardKey: 'day7', title: t.daily.day7 },
        ],
      };
    case 'weekly-freezes':
      return {
        slug: 'streak',
        earning: 'orders',
        definition: {
          name: t.weekly.title,
          aggregationPeriod: 'weekly',
          aggregationMethod: 'count',
          aggregationTargetValue: 1,
          // Endless: the run goes on while the shopper keeps coming; freezes carry it over a missed week.
          completionTargetValue: null,
          maxFreezes: 2,
          freezeEarnEveryPeriods: 4,
          rewardHoldDays: ORDER_HOLD_DAYS,
          eudTitle: t.weekly.title,
          eudDescription: t.weekly.description,
        },
        rewards: [
          { key: 'week4', discountType: 'percentage', discountValue: 10, couponCodePrefix: 'WEEK4-', title: t.weekly.reward4 },
          { key: 'week12', discountType: 'percentage', discountValue: 25, couponCodePrefix: 'WEEK12-', title: t.weekly.reward12 },
        ],
        milestones: [
          { target: 4, rewardKey: 'week4', title: t.weekly.week4 },
          { target: 12, rewardKey: 'week12', title: t.weekly.week12 },
        ],
      };
    case 'monthly-spend':
      return {
        slug: 'challenge',
        earning: 'orders',
        definition: {
          name: t.spend.title,
          aggregationPeriod: 'monthly',
          aggregationMethod: 'sum',
          completionTargetValue: SPEND_TARGET,
          rewardHoldDays: ORDER_HOLD_DAYS,
          eudTitle: t.spend.title,
          eudDescription: spent(t.spend.description),
          eudCompletedMessage: t.spend.completed,
        },
        rewards: [
          {
            key: 'half',
            discountType: 'fixed_amount',
            discountValue: SPEND_REWARDS_OFF.half,
            couponCodePrefix: 'SPEND100-',
            title: t.spend.reward.replace('{amount}', amounts.halfOff),
          },
          {
            key: 'full',
            discountType: 'fixed_amount',
            discountValue: SPEND_REWARDS_OFF.full,
            couponCodePrefix: 'SPEND200-',
            title: t.spend.reward.replace('{amount}', amounts.fullOff),
          },
        ],
        milestones: [
          { target: SPEND_TARGET / 2, rewardKey: 'half', title: spent(t.spend.half) },
          { target: SPEND_TARGET, rewardKey: 'full', title: spent(t.spend.full) },
        ],
        leaderboard: {
          name: t.spend.leaderboard,
          rankBy: 'window_progress',
          size: 10,
          displayName: 'first_name_initial',
          eudTitle: t.spend.leaderboard,
          eudDescription: t.spend.leaderboardDescription,
        },
      };
    case 'welcome-mission':
      return {
        slug: 'mission',
        definition: {
          name: t.welcome.title,
          aggregationPeriod: 'monthly',
          isRepeatable: false,
          rewardHoldDays: ORDER_HOLD_DAYS,
          // Built-in activities: the app's customers/create and orders/paid webhooks do them (CONTRACT §17).
          tasks: [
            {
              name: t.welcome.account,
              activityId: 'account_created',
              aggregationMethod: 'count',
              targetValue: 1,
              eudTitle: t.welcome.account,
            },
            { name: t.welcome.order, activityId: 'first_order', aggregationMethod: 'count', targetValue: 1, eudTitle: t.welcome.order },
          ],
          eudTitle: t.welcome.title,
          eudDescription: t.welcome.description,
          eudCompletedMessage: t.welcome.completed,
        },
        completionRewardKey: 'welcome',
        rewards: [{ key: 'welcome', discountType: 'percentage', discountValue: 15, couponCodePrefix: 'WELCOME-', title: t.welcome.reward }],
        milestones: [],
      };
  }
}

export interface TierPlan {
  key: string;
  pointsThreshold: number;
  /** One decimal at most (CONTRACT §19). */
  earnMultiplier: number;
  title: string;
  description: string;
}

/** The points and tiers template: the account's points setting, rewards to redeem for points, tiers. */
export interface PointsPlan {
  /** The template's name as the merchant reads it (the setting itself has none). */
  name: string;
  /** The points setting's fields, the currency name localisable; its status is added on creation. */
  setting: {
    pointsPerCurrencyUnit: number;
    pointsPerOrder: number;
    pointsOnSignUp: number;
    pointsOnBirthday: number;
    pointsOnReferral: number;
    pointsOnReferredOrder: number;
    eudCurrencyName: string;
    eudCurrencyNameOne: string;
  };
  rewards: RewardPlan[];
  tiers: TierPlan[];
}

export const POINTS_RATES = {
  pointsPerCurrencyUnit: 1,
  pointsPerOrder: 0,
  pointsOnSignUp: 100,
  pointsOnBirthday: 100,
  // A referral brings a paying customer: the first reward's 500 points for the member who shared the link.
  pointsOnReferral: 500,
  pointsOnReferredOrder: 250,
} as const;

/**
 * An amount of the shop's currency as shoppers of `language` read it ("€5", "5 €"), whole units;
 * the bare number when the currency is unknown.
 */
export function money(amount: number, language: string, currency: string | null): string {
  if (!currency) return String(amount);
  try {
    return new Intl.NumberFormat(language, { style: 'currency', currency, maximumFractionDigits: 0, minimumFractionDigits: 0 }).format(
      amount,
    );
  } catch {
    return String(amount);
  }
}

/**
 * Points and tiers in `t`'s language: 1 point per unit of the shop's currency spent, 100 on
 * sign-up and 100 on a birthday; 500 points buy a fixed amount off (in the shop's `currency`), 1000 points 10% off;
 * Silver from 500 points earned in the tier window (×1.2), Gold from 1500 (×1.5).
 */
export function pointsPlan(t: StorefrontTexts, language: string, currency: string | null): PointsPlan {
  const p = t.points;
  return {
    name: p.title,
    setting: { ...POINTS_RATES, eudCurrencyName: p.currency, eudCurrencyNameOne: p.currencyOne },
    rewards: [
      {
        key: 'fixed500',
        discountType: 'fixed_amount',
        discountValue: POINTS_FIXED_OFF,
        couponCodePrefix: 'PTS500-',
        title: p.rewardFixed.replace('{amount}', templateAmounts(language, currency).pointsOff),
        pointsCost: 500,
      },
      {
        key: 'percent1000',
        discountType: 'percentage',
        discountValue: 10,
        couponCodePrefix: 'PTS1000-',
        title: p.rewardPercent,
        pointsCost: 1000,
      },
    ],
    tiers: [
      { key: 'silver', pointsThreshold: 500, earnMultiplier: 1.2, title: p.silver, description: p.silverDescription },
      { key: 'gold', pointsThreshold: 1500, earnMultiplier: 1.5, title: p.gold, description: p.goldDescription },
    ],
  };
}
