import type pg from 'pg';

export const formerly = '005_shopify_loop';

/** The rewards a shop issues as Shopify discounts (the reward's "Issue as a Shopify discount"). */
export async function up(db: pg.ClientBase): Promise<void> {
  await db.query(`create table shopify_discount_rewards (
    shop text not null,
    reward_id uuid not null,
    created_at timestamptz not null default now(),
    primary key (shop, reward_id)
  )`);
}
