import type pg from 'pg';

/**
 * Holds the shop's customer to the end of the transaction: their membership and whether the shop
 * leaves them out are each read and written under it, so two of their webhooks worked at once take
 * turns. Re-entrant within a transaction, as PostgreSQL's advisory locks are.
 */
export async function lockCustomer(client: pg.PoolClient, shop: string, customerId: string): Promise<void> {
  await client.query('select pg_advisory_xact_lock(hashtext($1))', [`loyalty_customer:${shop}:${customerId}`]);
}
