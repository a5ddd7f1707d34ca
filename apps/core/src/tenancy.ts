import type { Knex } from 'knex';
import { generateApiKeyPair } from './auth/api-keys.js';
import type { SecretBox } from './auth/crypto.js';
import { invalidInput } from './errors.js';
import { type LanguageCode, UUID } from './formats.js';
import type { RowOf } from './records/row-types.js';
import type { apikey } from './resources/apikey.js';
import { transaction } from './db/transaction.js';

type ApikeyRow = RowOf<typeof apikey>;

export interface NewAccount {
  organizationName: string;
  accountName: string;
  timezone?: string;
  defaultLanguageCode?: LanguageCode;
  externalRef?: string;
}

interface OrganizationRow {
  id: string;
  name: string;
  created_at: Date;
  updated_at: Date;
}

interface AccountRow {
  id: string;
  organization_id: string;
  name: string;
  timezone: string;
  default_language_code: LanguageCode;
  external_ref: string | null;
  created_at: Date;
  updated_at: Date;
}

function present(organization: OrganizationRow, account: AccountRow) {
  return {
    organization: {
      id: organization.id,
      name: organization.name,
      createdAt: organization.created_at.toISOString(),
      updatedAt: organization.updated_at.toISOString(),
    },
    account: {
      id: account.id,
      organizationId: account.organization_id,
      name: account.name,
      timezone: account.timezone,
      defaultLanguageCode: account.default_language_code,
      externalRef: account.external_ref,
      createdAt: account.created_at.toISOString(),
      updatedAt: account.updated_at.toISOString(),
    },
  };
}

export type ProvisionedAccount = ReturnType<typeof present> & {
  apiKey: { id: string; name: string; apiKey: string; apiSecret: string; status: 'live' };
};

/**
 * Whether PostgreSQL's own zone data has the zone. The account's zone also reaches SQL (reports' days,
 * points' months), where a name Node's ICU still takes and the database's data retired
 * (`US/Pacific-New`) would fail every such statement; an offset Node may take (`+03:00`) PostgreSQL
 * would read as POSIX, with its sign reversed. Names are matched as PostgreSQL matches them, in any case.
 */
async function databaseKnowsZone(trx: Knex.Transaction, zone: string): Promise<boolean> {
  const { rows } = await trx.raw<{ rows: { known: boolean }[] }>(
    'select exists (select 1 from pg_timezone_names where lower(name) = lower(?)) as known',
    [zone],
  );
  return rows[0]!.known;
}

/**
 * Creates an organization, an account and a live API key. With an `externalRef` it is idempotent:
 * the existing organization and account come back with a new key. A transaction-level advisory
 * lock on the reference serialises concurrent installs of one shop.
 */
export async function provisionAccount(db: Knex, box: SecretBox, input: NewAccount): Promise<ProvisionedAccount> {
  return transaction(db, async (trx) => {
    if (input.timezone && !(await databaseKnowsZone(trx, input.timezone)))
      throw invalidInput('The body has invalid fields.', [
        { field: 'timezone', code: 'invalid', message: 'Expected an IANA time zone that PostgreSQL’s zone data has.' },
      ]);
    let account: AccountRow | undefined;
    let organization: OrganizationRow | undefined;
    if (input.externalRef) {
      await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`account:${input.externalRef}`]);
      account = await trx<AccountRow>('account').where({ external_ref: input.externalRef }).first();
      if (account) organization = await trx<OrganizationRow>('organization').where({ id: account.organization_id }).first();
    }
    if (!account || !organization) {
      const [made] = await trx<OrganizationRow>('organization').insert({ name: input.organizationName }).returning('*');
      organization = made!;
      [account] = await trx<AccountRow>('account')
        .insert({
          organization_id: organization.id,
          name: input.accountName,
          timezone: input.timezone ?? 'UTC',
          default_language_code: input.defaultLanguageCode ?? 'en',
          external_ref: input.externalRef ?? null,
        })
        .returning('*');
      // Every account has its points setting from its creation (CONTRACT §19), off until the merchant turns it on.
      await trx('points_setting').insert({ account_id: account!.id });
    }
    const pair = generateApiKeyPair();
    const name = `platform-${new Date().toISOString()}-${pair.apiKey.slice(-6)}`;
    const [key] = await trx<ApikeyRow>('apikey')
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
      apiKey: { id: key!.id, name, apiKey: pair.apiKey, apiSecret: pair.apiSecret, status: 'live' as const },
    };
  });
}

/** Erases an account and, through cascading keys, all of its data. False when there is none. */
export async function deleteAccount(db: Knex, id: string): Promise<boolean> {
  // A malformed id names no account (404); PostgreSQL would reject it as a uuid instead.
  if (!UUID.test(id)) return false;
  const organizationId = (await db('account').where({ id }).first('organization_id'))?.organization_id;
  if (!organizationId) return false;
  await transaction(db, async (trx) => {
    await trx('account').where({ id }).delete();
    const others = await trx('account').where({ organization_id: organizationId }).first('id');
    if (!others) await trx('organization').where({ id: organizationId }).delete();
  });
  return true;
}
