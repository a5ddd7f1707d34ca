import { createLoyaltyClient, type ApiError } from '@loyalty/client';
import type { ShopAccount } from './shops.server';

/** The core's API prefix; every client the app makes talks to it. */
export function apiBase(coreUrl: string): string {
  return `${coreUrl}/api/v1.0`;
}

/** A typed client acting for one shop's account with the key the app keeps for it. */
export function accountClient(coreUrl: string, account: Pick<ShopAccount, 'apiKey' | 'apiSecret'>) {
  return createLoyaltyClient(apiBase(coreUrl), { apiKey: account.apiKey, apiSecret: account.apiSecret });
}

export type AccountClient = ReturnType<typeof accountClient>;

/** The platform API answer of CONTRACT §4 (the OpenAPI document leaves it untyped). */
export interface ProvisionedAccount {
  organization: { id: string; name: string };
  account: { id: string; name: string };
  apiKey: { id: string; apiKey: string; apiSecret: string; status: string };
}

/** A typed client for the platform API, authenticated with the platform token. */
export function platformClient(coreUrl: string, platformToken: string) {
  const client = createLoyaltyClient(apiBase(coreUrl), {});
  const headers = { authorization: `Bearer ${platformToken}` };
  return {
    async provision(body: {
      organizationName: string;
      accountName: string;
      timezone?: string;
      externalRef: string;
    }): Promise<ProvisionedAccount> {
      const { data, error, response } = await client.POST('/platform/accounts', { body, headers });
      if (!response.ok) throw new CoreError(response.status, error as { error?: ApiError } | undefined);
      return (data as unknown as { data: ProvisionedAccount }).data;
    },
    /** Erases an account; an account already gone counts as erased. */
    async erase(accountId: string): Promise<void> {
      const { error, response } = await client.DELETE('/platform/accounts/{id}', { params: { path: { id: accountId } }, headers });
      if (!response.ok && response.status !== 404) throw new CoreError(response.status, error as { error?: ApiError } | undefined);
    },
  };
}

/** A core answer that was not a success, with the core's error body when it sent one. */
export class CoreError extends Error {
  constructor(
    readonly status: number,
    readonly body?: { error?: ApiError },
  ) {
    super(`loyalty core answered ${status}${body?.error?.code ? ` ${body.error.code}` : ''}`);
  }
}
