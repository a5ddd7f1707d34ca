import type pg from 'pg';

/**
 * A guest's paid order looks for the customer who signed up with its e-mail and proved it
 * (EarningWorker.verifiedOwner): the customer webhooks by e-mail, without reading the shop's orders.
 */
export async function up(db: pg.ClientBase): Promise<void> {
  await db.query(
    `create index shopify_webhooks_customer_email_idx on shopify_webhooks (shop, lower(payload->>'email'))
     where topic in ('customers/create', 'customers/update')`,
  );
}
