import pg from 'pg';
import { decrypt, encrypt } from './crypto.server';

/** A shop's loyalty account and the API key the app uses for it (decrypted only in memory). */
export interface ShopAccount {
  shop: string;
  organizationId: string;
  accountId: string;
  apiKeyId: string;
  apiKey: string;
  apiSecret: string;
  /** The shop's currency (ISO 4217) as the admin's openings last read it (saveCurrency); null until one has. */
  currencyCode: string | null;
  /** When the app was first installed in the shop (a reinstall keeps it). */
  installedAt: Date;
}

/** A customers/data_request the app answered: the customer and when Shopify sent it. */
export interface DataRequest {
  requestId: string;
  customerExternalId: string;
  receivedAt: Date;
}

interface ShopRow {
  shop: string;
  organization_id: string;
  account_id: string;
  api_key_id: string;
  api_key_encrypted: string;
  api_secret_encrypted: string;
  currency_code: string | null;
  installed_at: Date;
}

export class ShopStore {
  /** `db` gives the app's pool, or one connection that holds a shop's provisioning lock. */
  constructor(
    private readonly db: () => pg.Pool | pg.PoolClient,
    private readonly key: Buffer,
  ) {}

  /**
   * Runs `work` holding the shop's provisioning lock (a PostgreSQL advisory lock, so app processes
   * exclude each other too), with a store on the lock's own connection: waiting for the lock never
   * needs a second connection from the pool.
   */
  async exclusive<T>(shop: string, work: (store: ShopStore) => Promise<T>): Promise<T> {
    const pool = this.db();
    if (!(pool instanceof pg.Pool)) throw new Error('ShopStore.exclusive: already exclusive');
    const client = await pool.connect();
    let unlocked: Error | undefined;
    try {
      await client.query('select pg_advisory_lock(hashtext($1))', [`loyalty_shopify_provision:${shop}`]);
      return await work(new ShopStore(() => client, this.key));
    } finally {
      await client
        .query('select pg_advisory_unlock(hashtext($1))', [`loyalty_shopify_provision:${shop}`])
        .catch((err: Error) => (unlocked = err));
      // A connection that may still hold the lock is closed rather than pooled, which releases it.
      client.release(unlocked);
    }
  }

  /** Stores the shop's credentials (and marks it installed); returns the API key id they replace, if any. */
  async save(account: Omit<ShopAccount, 'currencyCode' | 'installedAt'>): Promise<string | null> {
    const db = this.db();
    const client = db instanceof pg.Pool ? await db.connect() : db;
    try {
      await client.query('begin');
      // The row lock orders concurrent re-provisionings of one shop, so each sees the key it replaces.
      const { rows } = await client.query<{ api_key_id: string }>('select api_key_id from shops where shop = $1 for update', [
        account.shop,
      ]);
      await client.query(
        `insert into shops (shop, organization_id, account_id, api_key_id, api_key_encrypted, api_secret_encrypted)
         values ($1, $2, $3, $4, $5, $6)
         on conflict (shop) do update set organization_id = excluded.organization_id, account_id = excluded.account_id,
           api_key_id = excluded.api_key_id, api_key_encrypted = excluded.api_key_encrypted,
           api_secret_encrypted = excluded.api_secret_encrypted, uninstalled_at = null, updated_at = now()`,
        [
          account.shop,
          account.organizationId,
          account.accountId,
          account.apiKeyId,
          encrypt(this.key, account.apiKey, account.shop),
          encrypt(this.key, account.apiSecret, account.shop),
        ],
      );
      await client.query('commit');
      const previous = rows[0]?.api_key_id ?? null;
      return previous && previous !== account.apiKeyId ? previous : null;
    } catch (err) {
      await client.query('rollback');
      throw err;
    } finally {
      if (client !== db) client.release();
    }
  }

  async find(shop: string): Promise<ShopAccount | null> {
    return this.load(shop, false);
  }

  /** The shop's account if it is provisioned for the current installation (not since uninstalled). */
  async findInstalled(shop: string): Promise<ShopAccount | null> {
    return this.load(shop, true);
  }

  /** Records the shop's currency as Shopify reports it. */
  async saveCurrency(shop: string, currencyCode: string): Promise<void> {
    await this.db().query('update shops set currency_code = $2, updated_at = now() where shop = $1', [shop, currencyCode]);
  }

  /** app/uninstalled: the account stays (until shop/redact), but a reinstall provisions it again. */
  async markUninstalled(shop: string): Promise<void> {
    await this.db().query('update shops set uninstalled_at = now() where shop = $1', [shop]);
  }

  private async load(shop: string, installedOnly: boolean): Promise<ShopAccount | null> {
    const { rows } = await this.db().query<ShopRow>(
      `select * from shops where shop = $1${installedOnly ? ' and uninstalled_at is null' : ''}`,
      [shop],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      shop: row.shop,
      organizationId: row.organization_id,
      accountId: row.account_id,
      apiKeyId: row.api_key_id,
      apiKey: decrypt(this.key, row.api_key_encrypted, row.shop),
      apiSecret: decrypt(this.key, row.api_secret_encrypted, row.shop),
      currencyCode: row.currency_code,
      installedAt: row.installed_at,
    };
  }

  /** The core webhook the app registered for the shop, its secret decrypted; null when none is stored. */
  async coreWebhook(shop: string): Promise<{ id: string; secret: string } | null> {
    const { rows } = await this.db().query<{ core_webhook_id: string | null; core_webhook_secret_encrypted: string | null }>(
      'select core_webhook_id, core_webhook_secret_encrypted from shops where shop = $1',
      [shop],
    );
    const row = rows[0];
    if (!row?.core_webhook_id || !row.core_webhook_secret_encrypted) return null;
    return { id: row.core_webhook_id, secret: decrypt(this.key, row.core_webhook_secret_encrypted, shop) };
  }

  async saveCoreWebhook(shop: string, id: string, secret: string): Promise<void> {
    await this.db().query('update shops set core_webhook_id = $2, core_webhook_secret_encrypted = $3, updated_at = now() where shop = $1', [
      shop,
      id,
      encrypt(this.key, secret, shop),
    ]);
  }

  /** The installed shop whose loyalty account this is (a core delivery names only its account). */
  async shopOfAccount(accountId: string): Promise<string | null> {
    const { rows } = await this.db().query<{ shop: string }>('select shop from shops where account_id = $1 and uninstalled_at is null', [
      accountId,
    ]);
    return rows[0]?.shop ?? null;
  }

  async remove(shop: string): Promise<void> {
    for (const table of [
      'flow_trigger_usage',
      'flow_trigger_outbox',
      'shopify_discount_rewards',
      'reward_discounts',
      'flow_action_runs',
      'onboarding_checklists',
      'template_launches',
      'template_records',
      'shopify_webhooks',
      'shopify_orders',
      'shopify_order_logs',
      'shopify_order_points',
      'shopify_referrals',
      'shopify_referral_gifts',
      'customer_tiers',
      'shopify_first_orders',
      'earning_rules',
      'storefront_visits',
      'reward_log_revocations',
      'order_facts',
      'program_members',
      'program_codes',
      'reward_issuing',
      'store_credit_attempts',
      'points_import_rows',
      'points_imports',
      'customer_exclusions',
      'shop_exclusions',
      'exclusion_sweeps',
      'shopify_sessions',
    ]) {
      await this.db().query(`delete from ${table} where shop = $1`, [shop]);
    }
    await this.db().query('delete from data_requests where shop = $1', [shop]);
    await this.db().query('delete from shops where shop = $1', [shop]);
  }

  async saveDataRequest(shop: string, requestId: string, externalId: string, data: unknown): Promise<void> {
    await this.db().query(
      `insert into data_requests (shop, request_id, customer_external_id, export) values ($1, $2, $3, $4)
       on conflict (shop, request_id) do update set export = excluded.export`,
      [shop, requestId, externalId, JSON.stringify(data)],
    );
  }

  /** The shop's data requests, newest first; `created_at` is when the first delivery arrived. */
  async listDataRequests(shop: string, limit = 100): Promise<DataRequest[]> {
    const { rows } = await this.db().query<{ request_id: string; customer_external_id: string; created_at: Date }>(
      'select request_id, customer_external_id, created_at from data_requests where shop = $1 order by created_at desc, request_id desc limit $2',
      [shop, limit],
    );
    return rows.map((r) => ({ requestId: r.request_id, customerExternalId: r.customer_external_id, receivedAt: r.created_at }));
  }

  /** One request with its export as stored; null when this shop has none with that id. */
  async findDataRequest(shop: string, requestId: string): Promise<(DataRequest & { data: unknown }) | null> {
    // PostgreSQL's text holds no NUL, so no request is kept under such an id (the admin's URL can carry one).
    if (requestId.includes('\0')) return null;
    const { rows } = await this.db().query<{ request_id: string; customer_external_id: string; created_at: Date; export: unknown }>(
      'select request_id, customer_external_id, created_at, export from data_requests where shop = $1 and request_id = $2',
      [shop, requestId],
    );
    const row = rows[0];
    if (!row) return null;
    return { requestId: row.request_id, customerExternalId: row.customer_external_id, receivedAt: row.created_at, data: row.export };
  }
}
