import type { ShopAccount } from '../storage/shops.server';
import { accountClient } from './client.server';

export const noStore = { 'cache-control': 'no-store' };

/** A JSON error answer that no cache keeps. */
export function tokenError(status: number, code: string, message: string): Response {
  return Response.json({ error: { code, message } }, { status, headers: noStore });
}

/**
 * Mints a 30-minute end-user token for the shop's customer (`externalId` = the customer's gid, the
 * member Flow and the app proxy use). Both the app proxy and the customer account page answer with
 * it, so the two surfaces always reach the same member.
 */
export async function mintEndUserToken(
  coreUrl: string,
  account: ShopAccount | null,
  externalId: string,
): Promise<{ accessToken: string; expiresAt: string } | Response> {
  if (!account) return tokenError(404, 'not_installed', 'The loyalty app is not set up for this shop.');
  let result;
  try {
    result = await accountClient(coreUrl, account).POST('/enduser/token', { body: { externalId, expiresInSeconds: 1800 } });
  } catch {
    return tokenError(503, 'unavailable', 'The loyalty service is unreachable.');
  }
  if (!result.data) return tokenError(503, 'unavailable', `The loyalty service answered ${result.response.status}.`);
  const { accessToken, expiresAt } = result.data.data;
  return { accessToken, expiresAt };
}

/**
 * What the customer account page, the checkout and POS get for a customer: their end-user token,
 * the shop's account, where the browser reads the core (`corePublicUrl`) and the shop's currency
 * (null until the admin's first opening reads it; fixed amounts and the earning rate are in it),
 * plus what a route adds (`extra`); or the refusal (app not set up, core unreachable). One body for
 * every such route, so the surfaces always answer alike.
 */
export async function endUserAnswer(
  core: { coreUrl: string; corePublicUrl: string },
  account: ShopAccount | null,
  externalId: string,
  extra: Record<string, unknown> = {},
): Promise<Response> {
  const minted = await mintEndUserToken(core.coreUrl, account, externalId);
  if (minted instanceof Response) return minted;
  // Minted, so the shop has its account.
  const { accountId, currencyCode } = account!;
  return Response.json(
    { ...minted, accountId, coreUrl: core.corePublicUrl, currency: currencyCode ?? null, ...extra },
    { headers: noStore },
  );
}
