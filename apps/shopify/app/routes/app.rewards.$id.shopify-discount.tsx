import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { ADMIN_MESSAGES, claimedLanguage } from '../i18n';
import { coreFailure } from '../lib/admin.server';
import { authenticateShop, loop } from '../shopify.server';

/**
 * A reward's "Issue as a Shopify discount" setting (kept in the app's database) and the reward logs
 * whose discount failed after the retries, for the reward page (components/ShopifyDiscount.tsx).
 */
async function state(shop: string, rewardId: string) {
  return { enabled: (await loop.shopifyDiscountRewards(shop)).has(rewardId), failures: await loop.failedDiscounts(shop, rewardId) };
}

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { session } = await authenticateShop(request);
  return { ...(await state(session.shop, params.id!)), message: null as string | null };
};

/** What the card asks, with the language it shows, for the answer's words. */
type Intent = { language?: string } & ({ intent: 'toggle'; enabled: boolean } | { intent: 'retry'; rewardLogId: string });

export const action = async ({ request, params }: ActionFunctionArgs) => {
  const { session, api } = await authenticateShop(request);
  const rewardId = params.id!;
  const input = (await request.json()) as Intent;
  const m = ADMIN_MESSAGES[claimedLanguage(input.language, request)].rewards.discount;
  let message: string | null = null;
  if (input.intent === 'toggle') {
    if (input.enabled) {
      // The app issues the code, so the core must not hand out one of its own.
      const { error, response } = await api.PATCH('/schema/reward/record/{id}', {
        params: { path: { id: rewardId } },
        body: { handleCoupon: false },
      });
      if (!response.ok) return { ...(await state(session.shop, rewardId)), message: coreFailure(response.status, error).message };
    }
    await loop.setShopifyDiscount(session.shop, rewardId, input.enabled);
    message = input.enabled ? m.enabled : m.disabled;
  } else {
    message = (await loop.retryDiscount(session.shop, input.rewardLogId)) ? m.retrying : m.notFailed;
  }
  return { ...(await state(session.shop, rewardId)), message };
};
