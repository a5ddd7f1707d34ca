import type pg from 'pg';

/**
 * Referrals (points_setting.pointsOnReferral and pointsOnReferredOrder): the points a referred
 * customer's first order earned the member who referred them and the customer, each the core's
 * `earned` entry, so the order refunded in full or cancelled takes them back once.
 */
export async function up(db: pg.ClientBase): Promise<void> {
  await db.query(`create table shopify_referrals (
    shop text not null,
    order_id text not null,
    referrer_entry_id text,
    referrer_points integer not null default 0,
    friend_entry_id text,
    friend_points integer not null default 0,
    taken_back boolean not null default false,
    refused text,
    created_at timestamptz not null default now(),
    primary key (shop, order_id)
  )`);
}
