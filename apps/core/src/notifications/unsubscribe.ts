import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * Unsubscribe tokens: the account id and member id (16 bytes each) followed by a 128-bit HMAC-SHA256
 * tag over both, base64url. The tag makes a token unguessable and the ids make it verifiable without a
 * lookup table. The HMAC key is derived from the master key (HKDF) so that it never doubles as the
 * encryption key and rotating the master key invalidates old links along with everything else.
 */
const UUID_BYTES = 16;
const TAG_BYTES = 16;
const TOKEN_BYTES = 2 * UUID_BYTES + TAG_BYTES;

const keys = new WeakMap<Buffer, Buffer>();
function hmacKey(masterKey: Buffer): Buffer {
  let key = keys.get(masterKey);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'loyalty unsubscribe link v1', 32));
    keys.set(masterKey, key);
  }
  return key;
}

const uuidBytes = (uuid: string) => Buffer.from(uuid.replaceAll('-', ''), 'hex');
const uuidOf = (bytes: Buffer) => {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};
const tag = (masterKey: Buffer, ids: Buffer) => createHmac('sha256', hmacKey(masterKey)).update(ids).digest().subarray(0, TAG_BYTES);

export function unsubscribeToken(masterKey: Buffer, accountId: string, memberId: string): string {
  const ids = Buffer.concat([uuidBytes(accountId), uuidBytes(memberId)]);
  return Buffer.concat([ids, tag(masterKey, ids)]).toString('base64url');
}

export function unsubscribeUrl(publicUrl: string, masterKey: Buffer, accountId: string, memberId: string): string {
  return `${publicUrl}/u/${unsubscribeToken(masterKey, accountId, memberId)}`;
}

export interface Subscriber {
  accountId: string;
  memberId: string;
}

/** The member a token names, or undefined when it is malformed or its tag does not verify. */
export function readUnsubscribeToken(masterKey: Buffer, token: string): Subscriber | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(token)) return undefined;
  const raw = Buffer.from(token, 'base64url');
  if (raw.length !== TOKEN_BYTES || raw.toString('base64url') !== token) return undefined;
  const ids = raw.subarray(0, 2 * UUID_BYTES);
  if (!timingSafeEqual(raw.subarray(2 * UUID_BYTES), tag(masterKey, ids))) return undefined;
  return { accountId: uuidOf(ids.subarray(0, UUID_BYTES)), memberId: uuidOf(ids.subarray(UUID_BYTES)) };
}

/**
 * Records the member's opt-out; following the link again changes nothing. Returns the language to
 * answer in (the member's, else the account's), or undefined when the member no longer exists.
 */
export async function optOut(db: Knex, who: Subscriber, now: Date): Promise<string | undefined> {
  const member = (await db('account_user')
    .join('account', 'account.id', 'account_user.account_id')
    .where({ 'account_user.account_id': who.accountId, 'account_user.id': who.memberId })
    .first('account_user.language_code', 'account.default_language_code', 'account_user.unsubscribed_at')) as
    | { language_code: string | null; default_language_code: string; unsubscribed_at: Date | null }
    | undefined;
  if (!member) return undefined;
  if (!member.unsubscribed_at) {
    await db('account_user')
      .where({ account_id: who.accountId, id: who.memberId })
      .whereNull('unsubscribed_at')
      .update({ unsubscribed_at: now, updated_at: db.fn.now() });
  }
  return member.language_code ?? member.default_language_code;
}
