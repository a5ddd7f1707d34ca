import createClient, { type Client, defaultPathSerializer } from 'openapi-fetch';
import type { components, paths } from './generated/schema.js';

export type { components, paths };
/** A resource record as the API returns it, e.g. `Schema<'Streak'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];
export type ApiError = components['schemas']['Error']['error'];

export type Credentials = { apiKey: string; apiSecret: string } | { accessToken: string; accountId: string } | { accountId?: string };

function credentialHeaders(credentials: Credentials): Record<string, string> {
  if ('apiKey' in credentials) return { 'x-api-key': credentials.apiKey, 'x-api-secret': credentials.apiSecret };
  if ('accessToken' in credentials) return { 'x-enduser-access-token': credentials.accessToken, 'x-account-id': credentials.accountId };
  return credentials.accountId ? { 'x-account-id': credentials.accountId } : {};
}

/**
 * A typed client for the loyalty API: every path, parameter, body and response is typed from the
 * core's OpenAPI document. `baseUrl` ends with the version prefix, e.g. `http://host:4000/api/v1.0`.
 */
export function createLoyaltyClient(baseUrl: string, credentials: Credentials, fetchImpl?: typeof fetch): Client<paths> {
  return createClient<paths>({ baseUrl, headers: credentialHeaders(credentials), fetch: fetchImpl, pathSerializer: wellFormedPath });
}

/**
 * Path parameters as openapi-fetch puts them in, but a lone surrogate (which a JSON body can carry
 * into an id, and on which `encodeURIComponent` throws) as U+FFFD: the service then answers the id
 * that names no record as it answers any other, instead of the call throwing.
 */
const wellFormedPath = (path: string, params: Record<string, unknown>) =>
  defaultPathSerializer(
    path,
    Object.fromEntries(Object.entries(params ?? {}).map(([k, v]) => [k, typeof v === 'string' ? v.toWellFormed() : v])),
  );

export { verifyWebhook, WebhookVerificationError, type WebhookEnvelope, type WebhookEvent } from './webhooks.js';
