import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';
import { type Channel, CHANNELS } from '../schema/members.js';

/**
 * Unsubscribe tokens: the account id and member id (16 bytes each), then for channels other than
 * email one byte naming the channel, then a 128-bit HMAC-SHA256 tag over what precedes it,
 * base64url. The tag makes a token unguessable and the ids make it verifiable without a lookup
 * table. Email tokens carry no channel byte, so links in emails sent before opt-outs were per
 * channel still verify, and mean email. The HMAC key is derived from the master key (HKDF) so that
 * it never doubles as the encryption key and rotating the master key invalidates old links along
 * with everything else.
 */
const UUID_BYTES = 16;
const TAG_BYTES = 16;
const IDS_BYTES = 2 * UUID_BYTES;

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
const tag = (masterKey: Buffer, signed: Buffer) => createHmac('sha256', hmacKey(masterKey)).update(signed).digest().subarray(0, TAG_BYTES);

export function unsubscribeToken(masterKey: Buffer, accountId: string, memberId: string, channel: Channel): string {
  const ids = Buffer.concat([uuidBytes(accountId), uuidBytes(memberId)]);
  const signed = channel === 'email' ? ids : Buffer.concat([ids, Buffer.of(CHANNELS.indexOf(channel))]);
  return Buffer.concat([signed, tag(masterKey, signed)]).toString('base64url');
}

/** The link a message on `channel` carries: following it opts the member out of that channel only. */
export function unsubscribeUrl(publicUrl: string, masterKey: Buffer, accountId: string, memberId: string, channel: Channel): string {
  return `${publicUrl}/u/${unsubscribeToken(masterKey, accountId, memberId, channel)}`;
}

export interface Subscriber {
  accountId: string;
  memberId: string;
  channel: Channel;
}

/** The member and channel a token names, or undefined when it is malformed or its tag does not verify. */
export function readUnsubscribeToken(masterKey: Buffer, token: string): Subscriber | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(token)) return undefined;
  const raw = Buffer.from(token, 'base64url');
  if (raw.toString('base64url') !== token) return undefined;
  const signedBytes = raw.length - TAG_BYTES;
  if (signedBytes !== IDS_BYTES && signedBytes !== IDS_BYTES + 1) return undefined;
  const signed = raw.subarray(0, signedBytes);
  if (!timingSafeEqual(raw.subarray(signedBytes), tag(masterKey, signed))) return undefined;
  const channel = signedBytes === IDS_BYTES ? 'email' : CHANNELS[signed[IDS_BYTES]!];
  if (!channel) return undefined;
  return { accountId: uuidOf(signed.subarray(0, UUID_BYTES)), memberId: uuidOf(signed.subarray(UUID_BYTES, IDS_BYTES)), channel };
}

/**
 * Records the member's opt-out of the token's channel; following the link again changes nothing.
 * Returns the language to answer in (the member's, else the account's), or undefined when the
 * member no longer exists.
 */
export async function optOut(db: Knex, who: Subscriber): Promise<string | undefined> {
  const member = await db('account_user')
    .join('account', 'account.id', 'account_user.account_id')
    .where({ 'account_user.account_id': who.accountId, 'account_user.id': who.memberId })
    .first<{ language_code: string | null; default_language_code: string } | undefined>(
      'account_user.language_code',
      'account.default_language_code',
    );
  if (!member) return undefined;
  // One conditional statement: a repeated or concurrent click never lists the channel twice.
  await db('account_user')
    .where({ account_id: who.accountId, id: who.memberId })
    .whereRaw('not (? = any(unsubscribed_channels))', [who.channel])
    .update({ unsubscribed_channels: db.raw('array_append(unsubscribed_channels, ?)', [who.channel]), updated_at: db.fn.now() });
  return member.language_code ?? member.default_language_code;
}
