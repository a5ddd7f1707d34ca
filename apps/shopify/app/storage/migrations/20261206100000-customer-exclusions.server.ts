import type pg from 'pg';

/**
 * Customers left out of the program by their Shopify tags (wholesale buyers, staff).
 * `shop_exclusions`: the shop's excluded tags as the merchant typed them, and when they last
 * changed (by the tags compared whatever their case); a change asks for a sweep over the shop's
 * customers. `exclusion_sweeps`: the worker's progress, apart from the merchant's setting: the
 * change it swept up to (`swept_at`, behind `changed_at` while one is due), and when one that
 * failed is tried again.
 * `customer_exclusions`: a customer's tags as the app last read them, lower-cased (`tags_at`,
 * Shopify's `updated_at` of what it read them from, so an older payload worked off later changes
 * nothing), and whether the app has paused their member in the core for them. Kept for the shops
 * that exclude, and for customers whose member it paused.
 */
export async function up(db: pg.ClientBase): Promise<void> {
  await db.query(`create table shop_exclusions (
    shop text primary key,
    tags text[] not null,
    changed_at timestamptz not null default now()
  )`);
  await db.query(`create table exclusion_sweeps (
    shop text primary key,
    swept_at timestamptz,
    sweep_again_at timestamptz
  )`);
  await db.query(`create table customer_exclusions (
    shop text not null,
    customer_id text not null,
    tags text[] not null,
    paused boolean not null default false,
    tags_at timestamptz not null,
    primary key (shop, customer_id)
  )`);
}
