import { Session } from '@shopify/shopify-api';
import type { SessionStorage } from '@shopify/shopify-app-session-storage';
import type pg from 'pg';
import { decrypt, encrypt } from './crypto.server';

/**
 * Shopify sessions in the app's PostgreSQL, on the app's own pool. A session carries the shop's
 * Admin API access token, so its properties are stored encrypted (AES-256-GCM, bound to the id).
 */
export class PgSessionStorage implements SessionStorage {
  constructor(
    private readonly pool: pg.Pool,
    private readonly key: Buffer,
    private readonly ready: Promise<void>,
  ) {}

  async storeSession(session: Session): Promise<boolean> {
    await this.ready;
    const data = encrypt(this.key, JSON.stringify(session.toPropertyArray(true)), session.id);
    await this.pool.query(
      `insert into shopify_sessions (id, shop, data) values ($1, $2, $3)
       on conflict (id) do update set shop = excluded.shop, data = excluded.data, updated_at = now()`,
      [session.id, session.shop, data],
    );
    return true;
  }

  async loadSession(id: string): Promise<Session | undefined> {
    await this.ready;
    const { rows } = await this.pool.query<{ id: string; data: string }>('select id, data from shopify_sessions where id = $1', [id]);
    return rows[0] ? this.toSession(rows[0]) : undefined;
  }

  async deleteSession(id: string): Promise<boolean> {
    return this.deleteSessions([id]);
  }

  async deleteSessions(ids: string[]): Promise<boolean> {
    await this.ready;
    await this.pool.query('delete from shopify_sessions where id = any($1)', [ids]);
    return true;
  }

  async findSessionsByShop(shop: string): Promise<Session[]> {
    await this.ready;
    const { rows } = await this.pool.query<{ id: string; data: string }>('select id, data from shopify_sessions where shop = $1', [shop]);
    return rows.map((row) => this.toSession(row));
  }

  private toSession(row: { id: string; data: string }): Session {
    return Session.fromPropertyArray(JSON.parse(decrypt(this.key, row.data, row.id)) as [string, string | number | boolean][], true);
  }
}
