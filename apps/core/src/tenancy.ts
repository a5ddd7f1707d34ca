import type { Knex } from 'knex';
import { generateApiKeyPair } from './auth/api-keys.js';
import type { SecretBox } from './auth/crypto.js';
import { type LanguageCode, UUID } from './formats.js';

export interface NewAccount {
  organizationName: string;
  accountName: string;
  timezone?: string;
  defaultLanguageCode?: LanguageCode;
  externalRef?: string;
}

export interface ProvisionedAccount {
  organization: Record<string, unknown>;
  account: Record<string, unknown>;
  apiKey: { id: string; name: string; apiKey: string; apiSecret: string; status: 'live' };
}

const iso = (d: unknown) => (d instanceof Date ? d.toISOString() : d);

function present(organization: Record<string, unknown>, account: Record<string, unknown>) {
  return {
    organization: {
      id: organization.id,
      name: organization.name,
      createdAt: iso(organization.created_at),
      updatedAt: iso(organization.updated_at),
    },
    account: {
      id: account.id,
      organizationId: account.organization_id,
      name: account.name,
      timezone: account.timezone,
      defaultLanguageCode: account.default_language_code,
      externalRef: account.external_ref,
      createdAt: iso(account.created_at),
      updatedAt: iso(account.updated_at),
    },
  };
}

/**
 * Creates an organization, an account and a live API key. With an `externalRef` it is idempotent:
 * the existing organization and account come back with a new key. A transaction-level advisory
 * lock on the reference serialises concurrent installs of one shop.
 */
export async function provisionAccount(db: Knex, box: SecretBox, input: NewAccount): Promise<ProvisionedAccount> {
  return db.transaction(async (trx) => {
    let account: Record<string, unknown> | undefined;
    let organization: Record<string, unknown> | undefined;
    if (input.externalRef) {
      await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`account:${input.externalRef}`]);
      account = await trx('account').where({ external_ref: input.externalRef }).first();
      if (account) organization = await trx('organization').where({ id: account.organization_id }).first();
    }
    if (!account || !organization) {
      [organization] = await trx('organization').insert({ name: input.organizationName }).returning('*');
      [account] = await trx('account')
        .insert({
          organization_id: organization!.id,
          name: input.accountName,
          timezone: input.timezone ?? 'UTC',
          default_language_code: input.defaultLanguageCode ?? 'en',
          external_ref: input.externalRef ?? null,
        })
        .returning('*');
    }
    const pair = generateApiKeyPair();
    const name = `platform-${new Date().toISOString()}-${pair.apiKey.slice(-6)}`;
    const [key] = await trx('apikey')
      .insert({
        account_id: account!.id,
        name,
        description: 'Issued by the platform API',
        status: 'live',
        api_key: pair.apiKey,
        api_secret_enc: box.seal(pair.apiSecret),
      })
      .returning(['id']);
    return {
      ...present(organization!, account!),
      apiKey: { id: key.id as string, name, apiKey: pair.apiKey, apiSecret: pair.apiSecret, status: 'live' as const },
    };
  });
}

/** Erases an account and, through cascading keys, all of its data. False when there is none. */
export async function deleteAccount(db: Knex, id: string): Promise<boolean> {
  // A malformed id names no account (404); PostgreSQL would reject it as a uuid instead.
  if (!UUID.test(id)) return false;
  const organizationId = (await db('account').where({ id }).first('organization_id'))?.organization_id;
  if (!organizationId) return false;
  await db.transaction(async (trx) => {
    await trx('account').where({ id }).delete();
    const others = await trx('account').where({ organization_id: organizationId }).first('id');
    if (!others) await trx('organization').where({ id: organizationId }).delete();
  });
  return true;
}
