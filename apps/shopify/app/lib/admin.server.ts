import type { ApiError } from '@loyalty/client';
import { accountClient } from './core.server';
import type { ShopStore } from './shops.server';

/** The admin page's view of a core failure: its message and its details by field. */
export interface CoreFailure {
  status: number;
  message: string;
  fieldErrors: Record<string, string>;
}

export function coreFailure(status: number, body: unknown): CoreFailure {
  const error = (body as { error?: ApiError } | undefined)?.error;
  const fieldErrors: Record<string, string> = {};
  for (const d of error?.details ?? []) {
    // `tasks[1].activityId` and `tasks.1.activityId` name the same input.
    const field = d.field?.replace(/\[(\d+)\]/g, '.$1');
    if (field && !fieldErrors[field]) fieldErrors[field] = d.message;
  }
  return { status, message: error?.message ?? `The loyalty service answered ${status}.`, fieldErrors };
}

/** The signed-in shop's account client; a shop that afterAuth has not linked yet cannot use the admin. */
export async function shopApi(shops: ShopStore, coreUrl: string, shop: string) {
  const account = await shops.find(shop);
  if (!account) throw new Response('This shop is not linked to a loyalty programme yet. Reload the app to finish the installation.', { status: 503 });
  return { account, api: accountClient(coreUrl, account) };
}
