import { JWT } from 'google-auth-library';
import { retryableStatus, SEND_TIMEOUT_MS, SendFailure } from './errors.js';

/** The parts of a push service account the sender uses (the integration's sealed serviceAccountJSON). */
export interface ServiceAccount {
  project_id: string;
  private_key_id: string;
  private_key: string;
  client_email: string;
  token_uri?: string;
}

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

/** A JWT-bearer OAuth client for a service account, honouring its `token_uri` (the assertion's audience and where it is posted). */
function oauthClient(account: ServiceAccount): JWT {
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
      options.timeout = SEND_TIMEOUT_MS;
      return options;
    },
  });
  return jwt;
}

interface HttpError {
  status?: number;
  response?: { status?: number };
  message?: string;
}

/** A refused grant (bad key, unknown account) is permanent; an unreachable or failing token endpoint is not. */
function tokenFailure(err: unknown): SendFailure {
  const e = err as HttpError;
  const status = e.response?.status ?? e.status;
  const permanent = status !== undefined && !retryableStatus(status);
  return new SendFailure(`Push OAuth token${status ? ` (HTTP ${status})` : ''}: ${e.message ?? String(err)}`, permanent);
}

/** The push provider's HTTP v1 API: one `messages:send` per device token of the member. */
export class PushTransport {
  private readonly clients = new Map<string, JWT>();

  constructor(private readonly apiUrl: string | undefined) {}

  /** `key` names the credential version (integration id and update time): a changed service account gets a new client. */
  private client(key: string, account: ServiceAccount): JWT {
    let jwt = this.clients.get(key);
    if (!jwt) {
      if (this.clients.size >= MAX_CLIENTS) this.clients.delete(this.clients.keys().next().value!);
      jwt = oauthClient(account);
      this.clients.set(key, jwt);
    }
    return jwt;
  }

  /**
   * Sends to every token; resolves to the provider's message names when at least one device got the
   * message (a stale token among live ones does not fail the notification). When none did, throws the
   * first failure, retryable if any device's failure was.
   */
  async send(key: string, account: ServiceAccount, tokens: string[], message: PushMessage): Promise<string> {
    let accessToken: string | null | undefined;
    try {
      accessToken = (await this.client(key, account).getAccessToken()).token;
    } catch (err) {
      throw tokenFailure(err);
    }
    if (!accessToken) throw new SendFailure('Push OAuth token: the token endpoint returned no access token.', true);
    const url = `${(this.apiUrl ?? DEFAULT_API_URL).replace(/\/$/, '')}/v1/projects/${encodeURIComponent(account.project_id)}/messages:send`;
    const results = await Promise.all(tokens.map((token) => this.sendOne(url, accessToken, token, message)));
    const names = results.filter((r): r is string => typeof r === 'string');
    if (names.length) return names.join(' ');
    const failures = results as SendFailure[];
    throw new SendFailure(
      failures[0]!.message,
      failures.every((f) => f.permanent),
    );
  }

  private async sendOne(url: string, accessToken: string, token: string, m: PushMessage): Promise<string | SendFailure> {
    const notification: Record<string, string> = { title: m.title, body: m.body };
    if (m.imageUrl) notification.image = m.imageUrl;
    const body = { message: { token, notification, ...(m.data && Object.keys(m.data).length ? { data: m.data } : {}) } };
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
        redirect: 'error',
      });
    } catch (err) {
      return new SendFailure(`Push messages:send: ${(err as Error).message}`, false);
    }
    const text = await res.text().catch(() => '');
    let parsed: { name?: unknown; error?: { status?: unknown; message?: unknown } } = {};
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      // A body that is not JSON (a proxy's error page) is reported by status alone.
    }
    if (res.ok && typeof parsed.name === 'string') return parsed.name;
    if (res.ok) return new SendFailure('Push messages:send answered without a message name.', false);
    const reason = [parsed.error?.status, parsed.error?.message].filter((v) => typeof v === 'string').join(': ') || res.statusText;
    return new SendFailure(`Push messages:send (HTTP ${res.status}): ${reason}`, !retryableStatus(res.status));
  }
}
