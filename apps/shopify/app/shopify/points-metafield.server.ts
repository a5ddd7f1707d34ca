import { type AccountClient, CoreError } from '../core/client.server';
import { CORE_LANGUAGES, type CoreLanguage } from '../core/languages';
import { records, type Result, whereEquals } from '../core/records.server';
import { tagKey } from './order-payloads.server';

/**
 * What the points block (extensions/loyalty-theme/blocks/loyalty-points.liquid) needs to say "Earn
 * 25 Stars with this purchase" on a product page and "… with this order" on the cart page, with no
 * request of its own: the rates the order worker earns by (CONTRACT §19, earning/points.server.ts),
 * the bonus event, the shop's names for points in each language, the live tiers' multipliers by the
 * name the customer metafield `$app:loyalty.tier` holds, and the tags that leave a customer out. One
 * `json` shop metafield, written with the embed's ids (widget-metafields.server.ts).
 */

/** Its key in the app-owned namespace. */
export const POINTS_METAFIELD = 'points';

/** What a point is called where one is earned, and where several are. */
export interface PointNames {
  one: string;
  other: string;
}

export interface StorefrontPoints {
  /** Points per unit of the shop's currency spent; a product page says nothing while it is 0. */
  perUnit: number;
  /** Points per order, which the cart page adds. */
  perOrder: number;
  /** The bonus points event, from its start until its end: the block multiplies while the shopper's clock is within it. */
  bonus: { multiplier: number; startsAt: string; endsAt: string } | null;
  /** The shop's names for points by core language; a language without one speaks of points in the theme's words. */
  names: Partial<Record<CoreLanguage, PointNames>>;
  /** Each live tier's multiplier by its name; two tiers of one name promise the lower. */
  tiers: Record<string, number>;
  /** Excluded customer tags by `tagKey`: such a customer earns nothing, and is promised nothing. */
  excludedTags: string[];
}

const settled = <T>(result: Result<T>): T => {
  if (!result.ok) throw new CoreError(result.failure.status);
  return result.data;
};

/** What the block takes while the shop's points are live and orders earn them; null otherwise. */
export async function storefrontPoints(api: AccountClient, excluded: readonly string[]): Promise<StorefrontPoints | null> {
  const [setting] = settled(await records(api, 'points_setting').list({ limit: 1 }));
  if (setting?.status !== 'live' || !(setting.pointsPerCurrencyUnit || setting.pointsPerOrder)) return null;
  const [read, tiers] = await Promise.all([
    Promise.all(
      CORE_LANGUAGES.map(async (language) => [language, settled(await records(api, 'points_setting').get(setting.id, language))] as const),
    ),
    records(api, 'tier').list({ filters: whereEquals('status', 'live'), limit: 1000 }),
  ]);
  const names: StorefrontPoints['names'] = {};
  for (const [language, s] of read) {
    if (s.eudCurrencyName) names[language] = { one: s.eudCurrencyNameOne || s.eudCurrencyName, other: s.eudCurrencyName };
  }
  const multipliers: Record<string, number> = {};
  for (const tier of settled(tiers)) {
    if (!tier.name) continue;
    const multiplier = tier.earnMultiplier ?? 1;
    multipliers[tier.name] = Math.min(multipliers[tier.name] ?? multiplier, multiplier);
  }
  const { bonusStartsAt, bonusEndsAt } = setting;
  const bonusMultiplier = setting.bonusMultiplier ?? 1;
  return {
    perUnit: setting.pointsPerCurrencyUnit ?? 0,
    perOrder: setting.pointsPerOrder ?? 0,
    bonus:
      bonusMultiplier > 1 && bonusStartsAt && bonusEndsAt
        ? { multiplier: bonusMultiplier, startsAt: bonusStartsAt, endsAt: bonusEndsAt }
        : null,
    names,
    tiers: multipliers,
    excludedTags: [...new Set(excluded.map(tagKey))].sort(),
  };
}
