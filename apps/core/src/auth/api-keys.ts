import { randomString } from './crypto.js';

/** A new API key pair: a 32-character public key and a 64-character secret (spec limits). */
export function generateApiKeyPair(): { apiKey: string; apiSecret: string } {
  return { apiKey: `lk_${randomString(29)}`, apiSecret: randomString(64) };
}
