import type pg from 'pg';

import { RETENTION_MONTHS } from './settings';

/**
 * How long the order facts of CONTRACT §18 are kept: each shop sets it in months on the dashboard
 * (24 unless changed); the worker role drops older ones.
 */

export async function orderRetentionMonths(pool: pg.Pool, shop: string): Promise<number> {
  const { rows } = await pool.query<{ months: number }>('select order_retention_months as months from shops where shop = $1', [shop]);
  return rows[0]?.months ?? RETENTION_MONTHS.default;
}

export async function setOrderRetentionMonths(pool: pg.Pool, shop: string, months: number): Promise<void> {
  await pool.query('update shops set order_retention_months = $2 where shop = $1', [shop, months]);
}

/** Drops every shop's order facts older than its retention; answers how many went. */
export async function dropExpiredOrderFacts(pool: pg.Pool): Promise<number> {
  const { rowCount } = await pool.query(
    `delete from order_facts f using shops s
     where f.shop = s.shop and f.processed_at < now() - make_interval(months => s.order_retention_months)`,
  );
  return rowCount ?? 0;
}
