import { createCipheriv, createDecipheriv, hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** AES-256-GCM for secrets at rest: version byte, 12-byte IV, 16-byte tag, ciphertext, base64. */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('master key must be 32 bytes');
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([Buffer.from([1]), iv, cipher.getAuthTag(), body]).toString('base64');
  }

  open(sealed: string): string {
    const raw = Buffer.from(sealed, 'base64');
    if (raw[0] !== 1) throw new Error('unknown secret format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(1, 13));
    decipher.setAuthTag(raw.subarray(13, 29));
    return Buffer.concat([decipher.update(raw.subarray(29)), decipher.final()]).toString('utf8');
  }
}

// One-shot: no Hash object per call, on every API-key request.
export const sha256 = (value: string): Buffer => hash('sha256', value, 'buffer');

/** Constant-time string equality; hashing first makes unequal lengths take the same time. */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(sha256(a), sha256(b));
}

/** `safeEqual` against a digest kept from `sha256`, for a secret compared on every request. */
export function safeEqualDigest(digest: Buffer, b: string): boolean {
  return timingSafeEqual(digest, sha256(b));
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Unbiased random string over an alphabet (rejection sampling). */
export function randomString(length: number, alphabet = ALPHANUMERIC): string {
  const out: string[] = [];
  const limit = 256 - (256 % alphabet.length);
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit) out.push(alphabet[byte % alphabet.length]!);
      if (out.length === length) break;
    }
  }
  return out.join('');
}
