import { createLoyaltyClient, type paths } from '@loyalty/client';
import type { ShopAccount } from '../storage/shops.server';
import type { CoreErrorBody } from './failure';

/** The core's API prefix; every client the app makes talks to it. */
export function apiBase(coreUrl: string): string {
  return `${coreUrl}/api/v1.0`;
}

/** How long a call to the core may take: the longest report answers in seconds; past this the core hangs. */
export const CORE_TIMEOUT_MS = 30_000;

/**
 * `fetch` given up after `timeoutMs`: a core that stops answering (a stopped process, a held
 * connection) fails the call as an unreachable one does, instead of holding a shopper's or a
 * merchant's request for good.
 */
function timedFetch(timeoutMs: number): typeof fetch {
  return (input, init) => {
    const own = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    const timeout = AbortSignal.timeout(timeoutMs);
    return fetch(input, { ...init, signal: own ? AbortSignal.any([own, timeout]) : timeout });
  };
}

/** A typed client acting for one shop's account with the key the app keeps for it. */
export function accountClient(
  coreUrl: string,
  account: Pick<ShopAccount, 'apiKey' | 'apiSecret'>,
  { timeoutMs = CORE_TIMEOUT_MS }: { timeoutMs?: number } = {},
) {
  return createLoyaltyClient(apiBase(coreUrl), { apiKey: account.apiKey, apiSecret: account.apiSecret }, timedFetch(timeoutMs));
}

export type AccountClient = ReturnType<typeof accountClient>;

/**
 * For an admin page's client: a core it cannot reach answers as a core that cannot serve does (503
 * `unavailable`), so a page shows the outage in the merchant's words instead of failing whole.
 */
export function unreachableAsUnavailable(api: AccountClient): AccountClient {
  api.use({
    onError: () =>
      Response.json({ error: { code: 'unavailable', message: 'The loyalty service is unreachable.', details: [] } }, { status: 503 }),
  });
  return api;
}

/** A new account as the platform API takes it (CONTRACT §4). */
type NewAccount = NonNullable<paths['/platform/accounts']['post']['requestBody']>['content']['application/json'];

/** A typed client for the platform API (CONTRACT §4), authenticated with the platform token. */
export function platformClient(coreUrl: string, platformToken: string) {
  const client = createLoyaltyClient(apiBase(coreUrl), {}, timedFetch(CORE_TIMEOUT_MS));
  const headers = { authorization: `Bearer ${platformToken}` };
  return {
    /** Creates the shop's organization and account, or finds them again by `externalRef`, with a fresh API key. */
    async provision(body: NewAccount & { externalRef: string }) {
      const { data, error, response } = await client.POST('/platform/accounts', { body, headers });
      if (!data) throw new CoreError(response.status, error);
      return data.data;
    },
    /** Erases an account; an account already gone counts as erased. */
    async erase(accountId: string): Promise<void> {
      const { error, response } = await client.DELETE('/platform/accounts/{id}', { params: { path: { id: accountId } }, headers });
      if (!response.ok && response.status !== 404) throw new CoreError(response.status, error);
    },
  };
}

/** A core answer that was not a success, with the core's error body when it sent one. */
export class CoreError extends Error {
  constructor(
    readonly status: number,
    readonly body?: CoreErrorBody,
  ) {
    super(`loyalty core answered ${status}${body?.error?.code ? ` ${body.error.code}` : ''}`);
  }
}
