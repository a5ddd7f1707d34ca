import type pg from 'pg';

/**
 * Referred friends' gifts (points_setting.referralRewardId): the one-time Shopify discount code a
 * friend claimed with their e-mail through a member's link, one per e-mail and shop, so a claim
 * made again answers the same code and an order using the code names its referrer even where the
 * cart carried no link. `claimed_at` is when a request last took the code's creation on: a row
 * still without its discount long after was left by a crashed request, and the next claim finishes it.
 */
export async function up(db: pg.ClientBase): Promise<void> {
  await db.query(`create table shopify_referral_gifts (
    shop text not null,
    email text not null,
    code text not null,
    referrer_code text not null,
    reward_id text not null,
    title text not null,
    discount_gid text,
    claimed_at timestamptz not null default now(),
    created_at timestamptz not null default now(),
    primary key (shop, email),
    unique (shop, code)
  )`);
  await db.query('create index shopify_referral_gifts_referrer_idx on shopify_referral_gifts (shop, referrer_code, created_at)');
}
