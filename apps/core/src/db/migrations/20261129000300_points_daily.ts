import type { Knex } from 'knex';

/**
 * What the daily points pass (CONTRACT §19: the tier window slides, inactive points expire) reads
 * beside each member's balance, so that an entry keeps it in O(1) and the pass finds its work
 * without summing entries: the last entry's moment (inactivity), the oldest entry still counted in
 * the window (when one leaves it), when the window was last summed, the expiry announced, and the
 * day the member was last passed (each member once a day, whichever worker takes it). The setting
 * notes when its window changed (every member's sum is then stale) and the day its pass finished.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`alter table account_user add column last_point_entry_at timestamptz(3),
    add column points_window_oldest_at timestamptz(3), add column points_window_at timestamptz(3),
    add column points_expiry_warned_for timestamptz(3), add column points_passed_on date`);
  await db.raw(`update account_user u set last_point_entry_at = e.last, points_window_oldest_at = e.oldest
    from (select account_id, owned_by_id, max(created_at) as last,
                 min(created_at) filter (where reason in ('earned', 'reversed')) as oldest
            from point_entry group by account_id, owned_by_id) e
   where u.account_id = e.account_id and u.id = e.owned_by_id`);
  await db.raw('alter table points_setting add column tier_window_changed_at timestamptz(3), add column daily_pass_on date');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('alter table points_setting drop column tier_window_changed_at, drop column daily_pass_on');
  await db.raw(`alter table account_user drop column last_point_entry_at, drop column points_window_oldest_at,
    drop column points_window_at, drop column points_expiry_warned_for, drop column points_passed_on`);
}
