import { fill, type Strings } from './i18n.js';
import type { PointsSetting } from './model.js';
import { multiplied, type PointsName, pointsText } from './progress.js';

/**
 * Referrals (CONTRACT §19's referral rates, an addition): a member shares a link to the shop's
 * storefront carrying their code; the widget's loader keeps a code it finds there and writes it to
 * the cart, whose first paid order the Shopify app credits to the member.
 */

/** The storefront link's query parameter that carries a referral code. */
export const REFERRAL_PARAM = 'loyalty_ref';

/** A referral code as the core makes them: 8 characters of an alphabet without look-alikes (no 0/O, 1/I). */
export const REFERRAL_CODE = /^[2-9A-HJ-NP-Z]{8}$/;

/** The cart attribute the loader writes a link's code to, which the Shopify app reads from the order; `_` hides it at checkout. */
export const REFERRAL_ATTRIBUTE = '_loyalty_ref';

/** A member's referral link: the storefront at `origin` (`https://shop.example`) with `?loyalty_ref=<code>`. */
export const referralLink = (origin: string, code: string): string =>
  `${origin.replace(/\/+$/, '')}/?${REFERRAL_PARAM}=${encodeURIComponent(code)}`;

/**
 * What a referral earns, in one sentence: the friend's points on their first order and the
 * member's once it is placed, or whichever of the two is above 0; null while both are 0. The
 * member's are times their tier's `multiplier`, as the core credits them; the friend's are the rate
 * as set, as their own tier is not known here. A `gift` (the title of what the shop gives the
 * friend, a code for their first order) is said instead of the friend's points.
 */
export function referralOffer(
  setting: PointsSetting,
  t: Strings,
  name: PointsName,
  lang: string | undefined,
  multiplier = 1,
  gift?: string | null,
): string | null {
  const { pointsOnReferredOrder: friend, pointsOnReferral: member } = setting;
  const gives = pointsText(friend, name, lang);
  const gets = pointsText(multiplied(member, multiplier), name, lang);
  if (gift) return fill(member > 0 ? t.referralGiftBoth : t.referralGift, { gift, gets });
  if (friend > 0 && member > 0) return fill(t.referralBoth, { gives, gets });
  if (friend > 0) return fill(t.referralGives, { gives });
  return member > 0 ? fill(t.referralGets, { gets }) : null;
}
