import type { Knex } from 'knex';

/**
 * Members by tier: the admin's tier ladder counts each tier's members (a list filtered on `tierId`
 * with `fetchTotalCount`), which without this index reads every member of the account. Partial,
 * as most members of most shops have no tier, and a member's tier changes rarely, so the index
 * costs entries nothing while it stays put.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('create index account_user_tier_idx on account_user (account_id, tier_id) where tier_id is not null');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop index account_user_tier_idx');
}
