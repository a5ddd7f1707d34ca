import type pg from 'pg';

/**
 * Each order fact carries its customer's membership (`member_from`, the `program_members.joined_at`
 * of its customer, null for a customer the program has not earned for), so the dashboard groups a
 * period's customers from the period's index alone instead of joining every member of the shop: that
 * join was a third of the section's time in a shop of 100,000 members. The earning worker keeps it
 * (see EarningWorker.markMembership).
 */
export async function up(db: pg.ClientBase): Promise<void> {
  await db.query('alter table order_facts add column member_from timestamptz');
  await db.query(`update order_facts f set member_from = m.joined_at from program_members m
    where m.shop = f.shop and m.customer_id = f.customer_id`);
  await db.query('drop index order_facts_period_idx');
  await db.query(
    'create index order_facts_period_idx on order_facts (shop, processed_at) include (customer_id, amount, refunded, member_from) where processed_at is not null',
  );
}
