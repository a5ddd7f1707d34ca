import type { Resolver } from 'node:dns/promises';
import type { JWT } from 'google-auth-library';
import { z } from 'zod';
import { refusedAddressOf } from '../../webhooks/addresses.js';
import { retryAfterMs, retryableStatus, SEND_TIMEOUT_MS, type Sent, SendFailure } from './errors.js';

/**
 * The parts of a push service account the sender uses, read from the integration's sealed
 * serviceAccountJSON (checked in full when it was written).
 */
const serviceAccount = z.object({
  project_id: z.string(),
  private_key_id: z.string(),
  private_key: z.string(),
  client_email: z.string(),
  token_uri: z.string().optional(),
});
export type ServiceAccount = z.infer<typeof serviceAccount>;

export const parseServiceAccount = (json: string): ServiceAccount => serviceAccount.parse(JSON.parse(json));

export interface PushMessage {
  title: string;
  body: string;
  imageUrl: string | null;
  data: Record<string, string> | null;
}

/** The token endpoint the auth library is built for; a service account's own `token_uri` replaces it. */
const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
const SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
const DEFAULT_API_URL = 'https://fcm.googleapis.com';
/** Access tokens are cached per integration; this bounds how many integrations keep one. */
const MAX_CLIENTS = 200;

/**
 * A JWT-bearer OAuth client for a service account, honouring its `token_uri` (the assertion's
 * audience and where it is posted). The library is loaded with the first push, not at start.
 */
async function oauthClient(account: ServiceAccount, timeoutMs: number): Promise<JWT> {
  const { JWT } = await import('google-auth-library');
  const tokenUri = account.token_uri ?? GOOGLE_TOKEN_URL;
  const jwt = new JWT({
    email: account.client_email,
    key: account.private_key,
    keyId: account.private_key_id,
    scopes: [SCOPE],
    additionalClaims: { aud: tokenUri },
  });
  jwt.transporter.interceptors.request.add({
    resolved: async (options) => {
      if (options.url.href === GOOGLE_TOKEN_URL) options.url = new URL(tokenUri);
      // The sender retries on its own schedule; retries inside the library would hold the lease.
      options.retryConfig = { ...options.retryConfig, retry: 0, noResponseRetries: 0 };
      // Set here the library's own time-out came too late to bound the exchange: a token endpoint
      // that accepted the connection and never answered held the sender's round.
      options.timeout = timeoutMs;
      options.signal = AbortSignal.timeout(timeoutMs);
      return options;
    },
  });
  return jwt;
}

/** The response of the auth library's failed request, if it got one. */
function responseOf(err: unknown): object | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  return 'response' in err && typeof err.response === 'object' && err.response !== null ? err.response : undefined;
}

/** The HTTP status of the auth library's failed request: its response's, else the error's own. */
function httpStatus(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const response = responseOf(err);
  if (response && 'status' in response && typeof response.status === 'number') return response.status;
  return 'status' in err && typeof err.status === 'number' ? err.status : undefined;
}

/** A refused grant (bad key, unknown account) is permanent; an unreachable or failing token endpoint is not. */
function tokenFailure(err: unknown): SendFailure {
  const status = httpStatus(err);
  const permanent = status !== undefined && !retryableStatus(status);
  const message = err instanceof Error ? err.message : String(err);
  const response = responseOf(err);
  // The auth library's responses carry a fetch Headers (of its own fetch's, so not instanceof the global one).
  const headers = response && 'headers' in response ? (response.headers as { get?: unknown } | null | undefined) : undefined;
  const retryAfter = typeof headers?.get === 'function' ? (headers.get('retry-after') as unknown) : undefined;
  return new SendFailure(
    `Push OAuth token request${status ? ` (HTTP ${status})` : ''}: ${message}`,
    permanent,
    retryAfterMs(typeof retryAfter === 'string' ? retryAfter : undefined),
  );
}

/** The push provider's HTTP v1 API: one `messages:send` per device token of the member. */
export class PushTransport {
  private readonly clients = new Map<string, Promise<JWT>>();

  private readonly timeoutMs: number;

  /**
   * `resolver` checks a service account's `token_uri` before each token request: an account's
   * own address, refused unless `allowPrivate` when it is not public, as a webhook's is.
   */
  constructor(
    private readonly apiUrl: string | undefined,
    private readonly addresses: { allowPrivate: boolean; resolver: Resolver },
    { timeoutMs = SEND_TIMEOUT_MS }: { timeoutMs?: number } = {},
  ) {
    this.timeoutMs = timeoutMs;
  }

  /** `key` names the credential version (integration id and update time): a changed service account gets a new client. */
  private client(key: string, account: ServiceAccount): Promise<JWT> {
    let jwt = this.clients.get(key);
    if (!jwt) {
      if (this.clients.size >= MAX_CLIENTS) this.clients.delete(this.clients.keys().next().value!);
      jwt = oauthClient(account, this.timeoutMs);
      this.clients.set(key, jwt);
    }
    return jwt;
  }

  /**
   * Sends to every token; resolves to the provider's message names when at least one device got the
   * message (a stale token among live ones does not fail the notification; the devices not reached
   * are noted, as a retry would send the others theirs twice). When none did, throws the first
   * failure, retryable if any device's failure was, after the longest `Retry-After` asked.
   */
  async send(key: string, account: ServiceAccount, tokens: string[], message: PushMessage): Promise<Sent> {
    let accessToken: string | null | undefined;
    const refused =
      account.token_uri && !this.addresses.allowPrivate ? await refusedAddressOf(account.token_uri, this.addresses.resolver) : undefined;
    if (refused)
      throw new SendFailure(`Push OAuth token request: token_uri resolves to ${refused.address}, which is not a public address.`, true);
    try {
      accessToken = (await (await this.client(key, account)).getAccessToken()).token;
    } catch (err) {
      throw tokenFailure(err);
    }
    if (!accessToken) throw new SendFailure('Push OAuth token request: the token endpoint returned no access token.', true);
    const url = `${(this.apiUrl ?? DEFAULT_API_URL).replace(/\/$/, '')}/v1/projects/${encodeURIComponent(account.project_id)}/messages:send`;
    const results = await Promise.all(tokens.map((token) => this.sendOne(url, accessToken, token, message)));
    const sent = results.filter((r): r is Sent => !(r instanceof SendFailure));
    const failures = results.filter((r) => r instanceof SendFailure);
    if (sent.length) {
      const names = sent.flatMap((r) => r.messageId ?? []);
      const missed = failures.length ? `${failures.length} of ${tokens.length} devices were not reached: ${failures[0]!.message}` : null;
      const notes = [...sent.flatMap((r) => r.note ?? []), ...(missed ? [missed] : [])];
      return { messageId: names.length ? names.join(' ') : null, note: notes.length ? notes.join(' ') : null };
    }
    const waits = failures.flatMap((f) => f.retryAfterMs ?? []);
    throw new SendFailure(
      failures[0]!.message,
      failures.every((f) => f.permanent),
      waits.length ? Math.max(...waits) : undefined,
    );
  }

  private async sendOne(url: string, accessToken: string, token: string, m: PushMessage): Promise<Sent | SendFailure> {
    const notification: Record<string, string> = { title: m.title, body: m.body };
    if (m.imageUrl) notification.image = m.imageUrl;
    const body = { message: { token, notification, ...(m.data && Object.keys(m.data).length ? { data: m.data } : {}) } };
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'error',
      });
    } catch (err) {
      return new SendFailure(`Push messages:send: ${err instanceof Error ? err.message : String(err)}`, false);
    }
    const text = await res.text().catch(() => '');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      // A body that is not JSON (a proxy's error page) is reported by status alone.
    }
    const answer = typeof parsed === 'object' && parsed !== null ? parsed : {};
    const name = 'name' in answer ? answer.name : undefined;
    if (res.ok && typeof name === 'string') return { messageId: name, note: null };
    // A 2xx is the provider taking the message: sent again it would reach the device twice.
    if (res.ok) return { messageId: null, note: `Push messages:send took the message (HTTP ${res.status}) but answered without its name.` };
    const error = 'error' in answer && typeof answer.error === 'object' && answer.error !== null ? answer.error : {};
    const status = 'status' in error ? error.status : undefined;
    const message = 'message' in error ? error.message : undefined;
    const reason = [status, message].filter((v) => typeof v === 'string').join(': ') || res.statusText;
    return new SendFailure(
      `Push messages:send (HTTP ${res.status}): ${reason}`,
      !retryableStatus(res.status),
      retryAfterMs(res.headers.get('retry-after')),
    );
  }
}
