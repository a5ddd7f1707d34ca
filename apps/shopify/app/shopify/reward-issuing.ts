/**
 * How the app issues a reward itself (the rewards editor's choices the core has no field for),
 * shared by the editor, the outbox and the sender.
 */

/** What the customer gets: an amount off (percentage or fixed), free shipping, one item of a product free, or store credit. */
export const REWARD_KINDS = ['percentage', 'fixed_amount', 'free_shipping', 'free_product', 'store_credit'] as const;
export type RewardKind = (typeof REWARD_KINDS)[number];

/** Free shipping and a free product have no amount of their own: the shipping's or the item's price is what they take off. */
export const takesNoAmount = (kind: RewardKind) => kind === 'free_shipping' || kind === 'free_product';

/** How a discount's codes are made: a Shopify discount per reward, codes the merchant uploads, or codes the core generates. */
export const CODE_MAKERS = ['shopify', 'upload', 'generate'] as const;
export type CodeMaker = (typeof CODE_MAKERS)[number];

export interface CombinesWith {
  orderDiscounts: boolean;
  productDiscounts: boolean;
  shippingDiscounts: boolean;
}

export type MinimumRequirement = { subtotal: number } | { quantity: number } | null;

/** What the app keeps for a reward it issues (table reward_issuing). */
export interface IssuingSpec {
  kind: RewardKind;
  minimum: MinimumRequirement;
  /** The chosen collections, with the titles the editor shows; none: all products. */
  collections: { id: string; title: string }[];
  /** A free product's variant (its GID) with the title the editor shows; null for every other kind. */
  variant: { id: string; title: string } | null;
  combinesWith: CombinesWith;
  /** The shop's currency when the reward was saved: fixed amounts, minimums and store credit are in it. */
  currencyCode: string;
}

/**
 * A Shopify code discount's reach by the editor's choices, as both the outbox's discounts and the
 * referral gifts' make it: the minimum, the collections, a free product's variant, the combinations.
 */
export const discountReach = (issuing: IssuingSpec) => ({
  minimum: issuing.minimum,
  collections: issuing.collections.map((c) => c.id),
  ...(issuing.variant ? { variant: issuing.variant.id } : {}),
  combinesWith: issuing.combinesWith,
});

export const NO_COMBINATIONS: CombinesWith = { orderDiscounts: false, productDiscounts: false, shippingDiscounts: false };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** When a reward issued at `issuedAt` (ms) ends by its own expiry setting: a date, days after, or never (null). */
export function rewardEndsAt(
  reward: { rewardExpiryType?: string | null; rewardExpiryInDays?: number | null; rewardExpiryAt?: string | null },
  issuedAt: number,
): string | null {
  if (reward.rewardExpiryType === 'absolute') return reward.rewardExpiryAt ?? null;
  if (reward.rewardExpiryType === 'relative' && reward.rewardExpiryInDays)
    return new Date(issuedAt + reward.rewardExpiryInDays * 86_400_000).toISOString();
  return null;
}

/** A stored spec read field by field; null when it is none. */
export function issuingSpecOf(value: unknown): IssuingSpec | null {
  if (!isObject(value) || !REWARD_KINDS.includes(value.kind as RewardKind)) return null;
  const minimum = isObject(value.minimum) ? value.minimum : null;
  const combines = isObject(value.combinesWith) ? value.combinesWith : {};
  return {
    kind: value.kind as RewardKind,
    minimum:
      minimum && typeof minimum.subtotal === 'number'
        ? { subtotal: minimum.subtotal }
        : minimum && typeof minimum.quantity === 'number'
          ? { quantity: minimum.quantity }
          : null,
    collections: Array.isArray(value.collections)
      ? value.collections.flatMap((c) => (isObject(c) && typeof c.id === 'string' ? [{ id: c.id, title: String(c.title ?? '') }] : []))
      : [],
    variant:
      value.kind === 'free_product' && isObject(value.variant) && typeof value.variant.id === 'string'
        ? { id: value.variant.id, title: String(value.variant.title ?? '') }
        : null,
    combinesWith: {
      orderDiscounts: combines.orderDiscounts === true,
      productDiscounts: combines.productDiscounts === true,
      shippingDiscounts: combines.shippingDiscounts === true,
    },
    currencyCode: typeof value.currencyCode === 'string' ? value.currencyCode : 'USD',
  };
}

/**
 * What a store credit's reward log is stamped with (its `couponCode`, CONTRACT §6/§16): the reward
 * log carries no other field the widget and the customer account page show, and a stamp is what
 * issues it there (with `rewardIssuedAt` and `rewardExpiryAt`). The amount with its ISO currency
 * reads the same in every language the shopper may use and cannot be mistaken for a code to type,
 * and the reward's redeem instruction (the editor's default for store credit) says it is credited.
 */
export function storeCreditStamp(amount: number, currencyCode: string): string {
  return `${amount.toFixed(2)} ${currencyCode}`;
}
