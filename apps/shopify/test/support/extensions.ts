import { getJwt, TEST_SHOP_NAME } from '@shopify/shopify-api/test-helpers';
import { BROWSER } from './orders';
import { SHOPIFY } from './stack';

/**
 * What a UI extension's request to the app carries: the session token Shopify signs for it (HS256
 * with the app's secret, `dest` the shop) and the origin of the worker or web view it runs in.
 */

/** Checkout, customer account and POS UI extensions all run on Shopify's CDN. */
export const EXTENSION_ORIGIN = 'https://extensions.shopifycdn.com';

/** A session token as Shopify signs it for a shop (or with another secret, a forgery): `claims` over the test helpers' defaults. */
export async function extensionToken(
  claims: Record<string, unknown>,
  { shopName = TEST_SHOP_NAME, secret = SHOPIFY.apiSecretKey as string } = {},
): Promise<string> {
  return (await getJwt(shopName, SHOPIFY.apiKey, secret, claims)).token;
}

export type TokenOptions = Parameters<typeof extensionToken>[1];

/** A request as the extension's `fetch` sends it: from its origin, in a browser, with its token when it has one. */
export function fromExtension(url: URL | string, token: string | null, method = 'GET'): Promise<Response> {
  const headers: Record<string, string> = { origin: EXTENSION_ORIGIN, 'user-agent': BROWSER };
  if (token) headers.authorization = `Bearer ${token}`;
  return fetch(url, { method, headers });
}

type Sign = (claims: Record<string, unknown>, options?: TokenOptions) => Promise<string>;

/**
 * The tokens an extension's route must refuse, made as the test signs a valid one (`sign`): none,
 * not a JWT, another app's secret, a valid one whose claims were changed after signing (`tamper`),
 * an expired one, one not yet valid, one for another app and one without an expiry.
 */
export async function refusedTokens(sign: Sign, tamper: Record<string, unknown>): Promise<(string | null)[]> {
  const [header, payload, signature] = (await sign({})).split('.');
  const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
  const tampered = Buffer.from(JSON.stringify({ ...claims, ...tamper })).toString('base64url');
  const now = Date.now() / 1000;
  return [
    null,
    'not-a-jwt',
    await sign({}, { secret: 'another-apps-secret' }),
    `${header}.${tampered}.${signature}`,
    await sign({ exp: now - 60, nbf: now - 3600, iat: now - 3600 }),
    await sign({ nbf: now + 3600 }),
    // Signed with the secret, but for another app, or for ever.
    await sign({ aud: 'another-apps-client-id' }),
    await sign({ exp: undefined }),
  ];
}
