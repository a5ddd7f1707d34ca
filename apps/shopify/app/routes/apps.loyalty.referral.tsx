import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { config } from '../config.server';
import { type AccountClient, accountClient } from '../core/client.server';
import { notInstalled } from '../core/enduser-token.server';
import { claimGift, isRefusal, offerOf, type Refusal } from '../earning/referral-gifts.server';
import { outbox } from '../loop/outbox.server';
import type { AdminGraphql } from '../shopify/admin-api.server';
import { authenticateProxy } from '../shopify.server';
import { pool } from '../storage/pool.server';
import { shops } from '../storage/stores.server';
import { boundedBody, errorAnswer, jsonOf, noStore, PerKeyLimit, postOnly } from '../http.server';
import { objectOf } from '../json';

/** An e-mail and a code are a few hundred bytes; nothing bigger is read. */
const MAX_BODY = 4_096;
/**
 * Per shop and process: each offer or claim asks the core three or four things (and a claim
 * Shopify one), so a bot posting codes or e-mails at this route could otherwise spend the shop's
 * core rate limit (200/s) that its orders and admin share. Friends arriving from one post fit in it.
 */
const GUESTS = new PerKeyLimit(20, 100);

/**
 * App proxy /apps/loyalty/referral (referral-gifts.server.ts): GET `?code=` says what gift a
 * member's link offers a friend; POST `{code, email}` claims it, answering the friend's one-time
 * code and Shopify's link that applies it. Anyone may ask (the friend is a guest); Shopify's proxy
 * signature says which shop (400 when wrong), past whose guests' limit it is 429 with Retry-After.
 * What the core or Shopify cannot answer now is 503.
 */
async function answer(
  request: Request,
  work: (at: { shop: string; api: AccountClient; admin: AdminGraphql }) => Promise<object | Refusal>,
): Promise<Response> {
  const { session, admin } = await authenticateProxy(request);
  const account = session ? await shops.findInstalled(session.shop) : null;
  if (!account || !admin) return notInstalled();
  const wait = GUESTS.take(account.shop);
  if (wait)
    return errorAnswer(429, 'rate_limited', 'Too many requests for this shop’s gifts: try again in a moment.', {
      'retry-after': String(Math.ceil(wait)),
    });
  try {
    const result = await work({ shop: account.shop, api: accountClient(config.coreUrl, account), admin });
    if (isRefusal(result)) return errorAnswer(result.status, result.code, result.message);
    return Response.json(result, { headers: noStore });
  } catch (err) {
    console.error(`[loyalty-referrals] ${account.shop}: ${err instanceof Error ? err.message : String(err)}`);
    return errorAnswer(503, 'unavailable', 'The rewards service is unreachable: try again in a moment.');
  }
}

export const loader = async ({ request }: LoaderFunctionArgs) => {
  if (request.method === 'OPTIONS') return new Response(null, { status: 405, headers: { allow: 'GET, POST' } });
  const code = new URL(request.url).searchParams.get('code') ?? '';
  return answer(request, async ({ shop, api }) => {
    const offer = await offerOf(api, shop, outbox, code);
    return isRefusal(offer) ? offer : { offer };
  });
};

export const action = async ({ request }: ActionFunctionArgs) => {
  if (request.method !== 'POST') return postOnly();
  return answer(request, async ({ shop, api, admin }) => {
    const body = await boundedBody(request, MAX_BODY);
    const input = body ? objectOf(jsonOf(body)) : {};
    return claimGift({ pool: pool(), api, admin, rewards: outbox }, shop, { code: input.code, email: input.email });
  });
};
