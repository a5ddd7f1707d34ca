import type { Knex } from 'knex';

/**
 * A referred friend's gift (CONTRACT §19's referral rates, an addition): the reward the friend of a
 * member's link claims for their first order. Like a tier's entry reward it is cleared when its
 * reward is deleted (the reward's beforeDelete), not by a foreign key.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('alter table points_setting add column referral_reward_id uuid');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('alter table points_setting drop column referral_reward_id');
}
