import { Session } from '@shopify/shopify-api';
import type { SessionStorage } from '@shopify/shopify-app-session-storage';
import type pg from 'pg';
import { decrypt, encrypt } from './crypto.server';

type Property = [string, string | number | boolean];

const isProperty = (entry: unknown): entry is Property =>
  Array.isArray(entry) &&
  entry.length === 2 &&
  typeof entry[0] === 'string' &&
  (typeof entry[1] === 'string' || typeof entry[1] === 'number' || typeof entry[1] === 'boolean');

/**
 * Shopify sessions in the app's PostgreSQL, on the app's own pool. A session carries the shop's
 * Admin API access token, so its properties are stored encrypted (AES-256-GCM, bound to the id).
 */
export class PgSessionStorage implements SessionStorage {
  constructor(
    private readonly db: () => pg.Pool,
    private readonly key: Buffer,
  ) {}

  async storeSession(session: Session): Promise<boolean> {
    const data = encrypt(this.key, JSON.stringify(session.toPropertyArray(true)), session.id);
    await this.db().query(
      `insert into shopify_sessions (id, shop, data) values ($1, $2, $3)
       on conflict (id) do update set shop = excluded.shop, data = excluded.data, updated_at = now()`,
      [session.id, session.shop, data],
    );
    return true;
  }

  async loadSession(id: string): Promise<Session | undefined> {
    const { rows } = await this.db().query<{ id: string; data: string }>('select id, data from shopify_sessions where id = $1', [id]);
    return rows[0] ? this.toSession(rows[0]) : undefined;
  }

  async deleteSession(id: string): Promise<boolean> {
    return this.deleteSessions([id]);
  }

  async deleteSessions(ids: string[]): Promise<boolean> {
    await this.db().query('delete from shopify_sessions where id = any($1)', [ids]);
    return true;
  }

  async findSessionsByShop(shop: string): Promise<Session[]> {
    const { rows } = await this.db().query<{ id: string; data: string }>('select id, data from shopify_sessions where shop = $1', [shop]);
    return rows.map((row) => this.toSession(row));
  }

  private toSession(row: { id: string; data: string }): Session {
    const properties: unknown = JSON.parse(decrypt(this.key, row.data, row.id));
    if (!Array.isArray(properties) || !properties.every(isProperty)) throw new Error(`session ${row.id}: unreadable properties`);
    return Session.fromPropertyArray(properties, true);
  }
}
