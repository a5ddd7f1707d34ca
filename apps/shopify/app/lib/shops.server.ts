import type pg from 'pg';
import { decrypt, encrypt } from './crypto.server';

/** A shop's loyalty account and the API key the app uses for it (decrypted only in memory). */
export interface ShopAccount {
  shop: string;
  organizationId: string;
  accountId: string;
  apiKeyId: string;
  apiKey: string;
  apiSecret: string;
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
}

export class ShopStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly key: Buffer,
    private readonly ready: Promise<void>,
  ) {}

  /** Stores the shop's credentials; returns the API key id they replace, if any. */
  async save(account: ShopAccount): Promise<string | null> {
    await this.ready;
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      // The row lock orders concurrent re-provisionings of one shop, so each sees the key it replaces.
      const { rows } = await client.query<{ api_key_id: string }>('select api_key_id from shops where shop = $1 for update', [account.shop]);
      await client.query(
        `insert into shops (shop, organization_id, account_id, api_key_id, api_key_encrypted, api_secret_encrypted)
         values ($1, $2, $3, $4, $5, $6)
         on conflict (shop) do update set organization_id = excluded.organization_id, account_id = excluded.account_id,
           api_key_id = excluded.api_key_id, api_key_encrypted = excluded.api_key_encrypted,
           api_secret_encrypted = excluded.api_secret_encrypted, updated_at = now()`,
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
      client.release();
    }
  }

  async find(shop: string): Promise<ShopAccount | null> {
    await this.ready;
    const { rows } = await this.pool.query<ShopRow>('select * from shops where shop = $1', [shop]);
    const row = rows[0];
    if (!row) return null;
    return {
      shop: row.shop,
      organizationId: row.organization_id,
      accountId: row.account_id,
      apiKeyId: row.api_key_id,
      apiKey: decrypt(this.key, row.api_key_encrypted, row.shop),
      apiSecret: decrypt(this.key, row.api_secret_encrypted, row.shop),
    };
  }

  async remove(shop: string): Promise<void> {
    await this.ready;
    await this.pool.query('delete from data_requests where shop = $1', [shop]);
    await this.pool.query('delete from shops where shop = $1', [shop]);
  }

  async saveDataRequest(shop: string, requestId: string, externalId: string, data: unknown): Promise<void> {
    await this.ready;
    await this.pool.query(
      `insert into data_requests (shop, request_id, customer_external_id, export) values ($1, $2, $3, $4)
       on conflict (shop, request_id) do update set export = excluded.export`,
      [shop, requestId, externalId, JSON.stringify(data)],
    );
  }

  /** The shop's data requests, newest first; `created_at` is when the first delivery arrived. */
  async listDataRequests(shop: string, limit = 100): Promise<DataRequest[]> {
    await this.ready;
    const { rows } = await this.pool.query<{ request_id: string; customer_external_id: string; created_at: Date }>(
      'select request_id, customer_external_id, created_at from data_requests where shop = $1 order by created_at desc, request_id desc limit $2',
      [shop, limit],
    );
    return rows.map((r) => ({ requestId: r.request_id, customerExternalId: r.customer_external_id, receivedAt: r.created_at }));
  }

  /** One request with its export as stored; null when this shop has none with that id. */
  async findDataRequest(shop: string, requestId: string): Promise<(DataRequest & { data: unknown }) | null> {
    await this.ready;
    const { rows } = await this.pool.query<{ request_id: string; customer_external_id: string; created_at: Date; export: unknown }>(
      'select request_id, customer_external_id, created_at, export from data_requests where shop = $1 and request_id = $2',
      [shop, requestId],
    );
    const row = rows[0];
    if (!row) return null;
    return { requestId: row.request_id, customerExternalId: row.customer_external_id, receivedAt: row.created_at, data: row.export };
  }
}
