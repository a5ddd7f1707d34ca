import type { Knex } from 'knex';

/**
 * API processes cache verified API keys (auth/authenticate.ts). Any change to a key or an
 * account, by whatever writer, notifies them to drop the cache.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    create function loyalty_credentials_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('loyalty_credentials', '');
      return null;
    end $$`);
  for (const table of ['apikey', 'account']) {
    await db.raw(
      `create trigger ${table}_credentials_changed after update or delete on ${table} for each statement execute function loyalty_credentials_changed()`,
    );
  }
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['apikey', 'account']) await db.raw(`drop trigger ${table}_credentials_changed on ${table}`);
  await db.raw('drop function loyalty_credentials_changed()');
}
