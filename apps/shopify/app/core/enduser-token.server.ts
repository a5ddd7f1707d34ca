import type { ShopAccount } from '../storage/shops.server';
import { errorAnswer, noStore } from '../http.server';
import { accountClient } from './client.server';

/** The answer for a shop the app is not installed in (never, or not since it was uninstalled). */
export const notInstalled = () => errorAnswer(404, 'not_installed', 'The loyalty app is not set up for this shop.');

type Minted = { accessToken: string; expiresAt: string };

/**
 * Asked before a token is minted anew (not when one is handed out again): a refusal, or null to
 * mint. POS checks with it that the customer a staff member names exists.
 */
export type Admit = () => Promise<Response | null>;

/** A shopper's page waits this long for a token at most; the storefront asks again on the next page. */
const MINT_TIMEOUT_MS = 10_000;
/** Tokens last 30 minutes; one is handed out again while at least 10 are left. */
const TOKEN_SECONDS = 1800;
const REUSE_MS = 10 * 60_000;
/** Customers whose tokens a process keeps; the oldest are forgotten past it. */
const KEPT_TOKENS = 10_000;
const kept = new Map<string, Minted>();

/**
 * Mints a 30-minute end-user token for the shop's customer (`externalId` = the customer's gid, the
 * member Flow and the app proxy use). Both the app proxy and the customer account page answer with
 * it, so the two surfaces always reach the same member. A customer's token is handed out again
 * while it has 10 minutes left (per shop key, so a rotated key mints anew): a storefront asking on
 * every page, or a shopper replaying a session token, does not spend the shop key's rate limit.
 */
export async function mintEndUserToken(
  coreUrl: string,
  account: ShopAccount | null,
  externalId: string,
  admit?: Admit,
): Promise<Minted | Response> {
  if (!account) return notInstalled();
  const key = `${account.apiKeyId}:${externalId}`;
  const reused = kept.get(key);
  if (reused && Date.parse(reused.expiresAt) - Date.now() > REUSE_MS) return reused;
  const refused = admit && (await admit());
  if (refused) return refused;
  const minted = await mintAnew(coreUrl, account, externalId);
  if (minted instanceof Response) return minted;
  kept.delete(key);
  kept.set(key, minted);
  if (kept.size > KEPT_TOKENS) kept.delete(kept.keys().next().value!);
  return minted;
}

async function mintAnew(coreUrl: string, account: ShopAccount, externalId: string): Promise<Minted | Response> {
  let result;
  try {
    result = await accountClient(coreUrl, account, { timeoutMs: MINT_TIMEOUT_MS }).POST('/enduser/token', {
      body: { externalId, expiresInSeconds: TOKEN_SECONDS },
    });
  } catch {
    return errorAnswer(503, 'unavailable', 'The loyalty service is unreachable.');
  }
  if (!result.data) return errorAnswer(503, 'unavailable', `The loyalty service answered ${result.response.status}.`);
  const { accessToken, expiresAt } = result.data.data;
  return { accessToken, expiresAt };
}

/**
 * What the customer account page, the checkout and POS get for a customer: their end-user token,
 * the shop's account, where the browser reads the core (`corePublicUrl`) and the shop's currency
 * (null until the admin's first opening reads it; fixed amounts and the earning rate are in it),
 * plus what a route adds (`extra`); or the refusal (app not set up, core unreachable, or `admit`'s).
 * One body for every such route, so the surfaces always answer alike.
 */
export async function endUserAnswer(
  core: { coreUrl: string; corePublicUrl: string },
  account: ShopAccount | null,
  externalId: string,
  { extra = {}, admit }: { extra?: Record<string, unknown>; admit?: Admit } = {},
): Promise<Response> {
  const minted = await mintEndUserToken(core.coreUrl, account, externalId, admit);
  if (minted instanceof Response) return minted;
  // Minted, so the shop has its account.
  const { accountId, currencyCode } = account!;
  return Response.json(
    { ...minted, accountId, coreUrl: core.corePublicUrl, currency: currencyCode ?? null, ...extra },
    { headers: noStore },
  );
}
