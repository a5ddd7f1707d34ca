import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';
import { z } from 'zod';
import { invalidInput, unauthenticated } from '../errors.js';
import { isPlainObject } from '../db/json.js';
import { prepared } from '../db/prepared.js';
import { EMAIL, type LanguageCode, textFlaw, UUID } from '../formats.js';
import { type SecretBox, safeEqualDigest, sha256 } from './crypto.js';

export type Flow = 'apikey' | 'enduser' | 'guest';

export interface AccountInfo {
  id: string;
  organizationId: string;
  name: string;
  timezone: string;
  defaultLanguageCode: LanguageCode;
}

export interface Identity {
  flow: Flow;
  account: AccountInfo | undefined;
  apiKeyId?: string;
  /** The caller's API key and its plain secret, for minting end-user tokens. */
  apiKey?: { key: string; secret: string };
  memberId?: string;
  /** A guest's `x-account-id`: absent, or naming no account. */
  guestAccount: 'absent' | 'known' | 'unknown';
}

type Headers = Record<string, string | string[] | undefined>;

const header = (headers: Headers, name: string): string | undefined => {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
};

const ACCOUNT_COLUMNS = [
  'account.id as account_id',
  'account.organization_id',
  'account.name as account_name',
  'account.timezone as account_timezone',
  'account.default_language_code',
];

/** ACCOUNT_COLUMNS as a query returns them. */
export interface AccountColumns {
  account_id: string;
  organization_id: string;
  account_name: string;
  account_timezone: string;
  default_language_code: LanguageCode;
}

export function accountInfo(row: AccountColumns): AccountInfo {
  return {
    id: row.account_id,
    organizationId: row.organization_id,
    name: row.account_name,
    timezone: row.account_timezone,
    defaultLanguageCode: row.default_language_code,
  };
}

export async function loadAccount(db: Knex, id: string): Promise<AccountInfo | undefined> {
  if (!UUID.test(id)) return undefined;
  const row = await db('account').where('account.id', id).first<AccountColumns | undefined>(ACCOUNT_COLUMNS);
  return row ? accountInfo(row) : undefined;
}

/** Text the database keeps as it was signed: a NUL would fail the member's write, a lone surrogate make two ids one. */
const storable = (text: z.ZodString) => text.refine((value) => textFlaw(value) === undefined);

/** An end user's details carried in the token; anything malformed makes the token invalid. */
export const userData = z.object({
  externalId: storable(z.string().min(1).max(256)),
  firstName: storable(z.string().max(256)).optional(),
  lastName: storable(z.string().max(256)).optional(),
  email: z.email({ pattern: EMAIL }).max(320).optional(),
});
export type UserData = z.infer<typeof userData>;

const MAX_TOKEN_LIFETIME_SECONDS = 86_400;
const HS256_SIGNATURE = /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;
/** How far the signer's clock may differ from ours, for `exp` and `iat` alike (CONTRACT §5). */
const CLOCK_SKEW_SECONDS = 60;
/** A fixed sealed value keeps the timing of an unknown key close to that of a wrong secret. */
const DUMMY_SECRET_DIGEST = sha256('x'.repeat(64));

/** The channel on which changes to API keys and accounts are announced (see the migration). */
export const CREDENTIALS_CHANNEL = 'loyalty_credentials';
/** How long a verified key is trusted without asking the database, should a change notice be lost. */
const KEY_CACHE_MS = 30_000;
const KEY_CACHE_MAX = 10_000;

/** The API key columns read to authenticate (auth sits below the resources that define them). */
interface KeyColumns {
  id: string;
  status: string;
  api_secret_enc: string;
}

/** Finds or creates the member an end-user token names (the member schema maps its fields). */
export type UpsertMember = (account: AccountInfo, user: UserData) => Promise<string>;

interface CachedKey {
  id: string;
  status: string;
  secret: string;
  /** The secret's sha256, so a request hashes only the secret it sent. */
  secretDigest: Buffer;
  account: AccountInfo;
  until: number;
}

interface CachedSigner {
  key: KeyObject;
  account: AccountInfo;
  until: number;
}

export class Authenticator {
  /**
   * Keys found in the database, by key: a request with a cached key needs no query. Dropped on
   * any change to a key or an account, in this process (`forget`) or announced by another.
   */
  private readonly keys = new Map<string, CachedKey>();
  /** End-user token keys by account and key, kept and dropped as `keys` is. */
  private readonly signers = new Map<string, CachedSigner>();

  constructor(
    private readonly db: Knex,
    private readonly box: SecretBox,
    private readonly upsertMember: UpsertMember,
  ) {}

  forget(): void {
    this.keys.clear();
    this.signers.clear();
  }

  async identify(headers: Headers): Promise<Identity> {
    const key = header(headers, 'x-api-key');
    const secret = header(headers, 'x-api-secret');
    const token = header(headers, 'x-enduser-access-token');
    const accountId = header(headers, 'x-account-id');
    if ((key !== undefined || secret !== undefined) && token !== undefined) {
      throw invalidInput('Send either API-key headers or an end-user token, not both.', [
        { field: 'x-enduser-access-token', code: 'conflicting_credentials', message: 'Both credential kinds were sent.' },
      ]);
    }
    if (key !== undefined || secret !== undefined) return this.apiKey(key, secret);
    if (token !== undefined) return this.endUser(token, accountId);
    if (accountId === undefined) return { flow: 'guest', account: undefined, guestAccount: 'absent' };
    const account = await loadAccount(this.db, accountId);
    return { flow: 'guest', account, guestAccount: account ? 'known' : 'unknown' };
  }

  private async apiKey(key: string | undefined, secret: string | undefined): Promise<Identity> {
    if (!key || !secret) throw unauthenticated('Both x-api-key and x-api-secret are required.');
    // No key is longer: refused as any unknown key is, without a lookup.
    if (key.length > 64) throw unauthenticated('Invalid API credentials.');
    const found = await this.findKey(key);
    const matches = safeEqualDigest(found?.secretDigest ?? DUMMY_SECRET_DIGEST, secret);
    if (!found || !matches || found.status !== 'live') throw unauthenticated('Invalid API credentials.');
    return {
      flow: 'apikey',
      account: found.account,
      apiKeyId: found.id,
      apiKey: { key, secret: found.secret },
      guestAccount: 'absent',
    };
  }

  private async findKey(key: string): Promise<CachedKey | undefined> {
    const cached = this.keys.get(key);
    if (cached && cached.until > Date.now()) return cached;
    const row = await prepared(
      this.db('apikey')
        .join('account', 'account.id', 'apikey.account_id')
        .where('apikey.api_key', key)
        .first<(KeyColumns & AccountColumns) | undefined>(['apikey.id', 'apikey.status', 'apikey.api_secret_enc', ...ACCOUNT_COLUMNS]),
    );
    // Unknown keys are not remembered: a caller could fill the cache with them.
    if (!row) return undefined;
    const secret = this.box.open(row.api_secret_enc);
    const entry: CachedKey = {
      id: row.id,
      status: row.status,
      secret,
      secretDigest: sha256(secret),
      account: accountInfo(row),
      until: Date.now() + KEY_CACHE_MS,
    };
    if (this.keys.size >= KEY_CACHE_MAX) this.keys.clear();
    this.keys.set(key, entry);
    return entry;
  }

  private async endUser(token: string, accountId: string | undefined): Promise<Identity> {
    const invalid = () => unauthenticated('Invalid end-user access token.');
    if (!accountId) throw unauthenticated('x-account-id is required with an end-user token.');
    if (!UUID.test(accountId)) throw unauthenticated('x-account-id must be an account id (a UUID).');
    const parts = token.split('.');
    const header = parts.length === 3 ? parseSegment(parts[0]!) : undefined;
    const kid = header?.alg === 'HS256' && header.crit === undefined && typeof header.kid === 'string' ? header.kid : undefined;
    if (!kid || kid.length > 64) throw invalid();
    const signer = await this.findSigner(accountId, kid);
    if (!signer) throw invalid();
    // The one spelling of HS256's 32 bytes: Buffer would decode a signature with padding or other characters appended alike.
    if (!HS256_SIGNATURE.test(parts[2]!)) throw invalid();
    const signature = Buffer.from(parts[2]!, 'base64url');
    const expected = createHmac('sha256', signer.key).update(`${parts[0]}.${parts[1]}`).digest();
    if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) throw invalid();
    const payload = parseSegment(parts[1]!);
    const now = Date.now() / 1000;
    const { exp, iat, nbf, sub } = payload ?? {};
    if (typeof exp !== 'number' || typeof iat !== 'number' || sub !== accountId) throw invalid();
    if (exp <= now - CLOCK_SKEW_SECONDS || (nbf !== undefined && (typeof nbf !== 'number' || nbf > now + CLOCK_SKEW_SECONDS)))
      throw invalid();
    if (exp - iat > MAX_TOKEN_LIFETIME_SECONDS) throw invalid();
    // A token issued in the future would otherwise outlive the lifetime limit (its `exp` ten years ahead).
    if (iat > now + CLOCK_SKEW_SECONDS) throw invalid();
    const user = userData.safeParse(payload!.userData);
    if (!user.success) throw invalid();
    const memberId = await this.upsertMember(signer.account, user.data);
    return { flow: 'enduser', account: signer.account, memberId, guestAccount: 'absent' };
  }

  /**
   * The live key of the account that signs end-user tokens, cached as the API keys are: widgets
   * send a token with every read, and opening the sealed secret each time costs more than the read.
   */
  private async findSigner(accountId: string, kid: string): Promise<CachedSigner | undefined> {
    const id = `${accountId}:${kid}`;
    const cached = this.signers.get(id);
    if (cached && cached.until > Date.now()) return cached;
    const row = await prepared(
      this.db('apikey')
        .join('account', 'account.id', 'apikey.account_id')
        .where({ 'apikey.account_id': accountId, 'apikey.api_key': kid, 'apikey.status': 'live' })
        .first<(Pick<KeyColumns, 'api_secret_enc'> & AccountColumns) | undefined>(['apikey.api_secret_enc', ...ACCOUNT_COLUMNS]),
    );
    if (!row) return undefined;
    const entry: CachedSigner = {
      key: createSecretKey(Buffer.from(this.box.open(row.api_secret_enc), 'utf8')),
      account: accountInfo(row),
      until: Date.now() + KEY_CACHE_MS,
    };
    if (this.signers.size >= KEY_CACHE_MAX) this.signers.clear();
    this.signers.set(id, entry);
    return entry;
  }
}

/** A JWT segment's JSON object, or undefined when it is not one. */
function parseSegment(segment: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return isPlainObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
