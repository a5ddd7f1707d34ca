import { resolve } from 'node:path';
import { writeFileSync } from 'node:fs';
import type { Knex } from 'knex';
import type { SecretBox } from './auth/crypto.js';
import { readIfExists } from './config.js';
import { provisionAccount } from './tenancy.js';

export interface DemoCredentials {
  organizationId: string;
  accountId: string;
  apiKey: string;
  apiSecret: string;
}

/**
 * The demo account (externalRef "demo"), with credentials remembered in the data dir so every
 * start prints the same live key instead of minting a new one.
 */
export async function ensureDemoAccount(db: Knex, box: SecretBox, dataDir: string): Promise<DemoCredentials> {
  const path = resolve(dataDir, 'demo.json');
  const saved = readIfExists(path);
  if (saved) {
    const creds = JSON.parse(saved) as DemoCredentials;
    const key = await db('apikey').where({ account_id: creds.accountId, api_key: creds.apiKey, status: 'live' }).first('id');
    if (key) return creds;
  }
  const made = await provisionAccount(db, box, { organizationName: 'Demo Shop Inc.', accountName: 'Demo Shop', externalRef: 'demo' });
  const creds: DemoCredentials = {
    organizationId: made.organization.id as string,
    accountId: made.account.id as string,
    apiKey: made.apiKey.apiKey,
    apiSecret: made.apiKey.apiSecret,
  };
  writeFileSync(path, JSON.stringify(creds, null, 2), { mode: 0o600 });
  return creds;
}
