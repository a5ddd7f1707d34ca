import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { authenticateShop } from '../admin/authenticate.server';
import type { ShopifyDiscountCard } from '../components/ShopifyDiscount';
import { updateRecord } from '../core/records.server';
import { ADMIN_MESSAGES, claimedLanguage } from '../i18n';
import { objectOf } from '../json';
import { outbox } from '../loop/outbox.server';

/**
 * A reward's "Issue as a Shopify discount" setting (kept in the app's database) and the reward logs
 * whose discount failed after the retries, for the reward page (components/ShopifyDiscount.tsx).
 */
async function card(shop: string, rewardId: string, message: string | null): Promise<ShopifyDiscountCard> {
  const [enabled, failures] = await Promise.all([outbox.shopifyDiscountRewards(shop), outbox.failedDiscounts(shop, rewardId)]);
  return { enabled: enabled.has(rewardId), failures, message };
}

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { session } = await authenticateShop(request);
  return card(session.shop, params.id ?? '', null);
};

/** The card asks `{intent: 'toggle', enabled}` or `{intent: 'retry', rewardLogId}`, with the language it shows. */
export const action = async ({ request, params }: ActionFunctionArgs) => {
  const { session, api } = await authenticateShop(request);
  const rewardId = params.id ?? '';
  const input = objectOf(await request.json());
  const m = ADMIN_MESSAGES[claimedLanguage(input.language, request)].rewards.discount;
  if (input.intent === 'toggle') {
    const enabled = input.enabled === true;
    if (enabled) {
      // The app issues the code, so the core must not hand out one of its own.
      const updated = await updateRecord(api, 'reward', rewardId, { handleCoupon: false });
      if (!updated.ok) return card(session.shop, rewardId, updated.failure.message);
    }
    await outbox.setShopifyDiscount(session.shop, rewardId, enabled);
    return card(session.shop, rewardId, enabled ? m.enabled : m.disabled);
  }
  const retried = typeof input.rewardLogId === 'string' && (await outbox.retryDiscount(session.shop, input.rewardLogId));
  return card(session.shop, rewardId, retried ? m.retrying : m.notFailed);
};
