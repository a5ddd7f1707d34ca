import type { Knex } from 'knex';
import { POINTS_STANDINGS } from './20261129000400_points_leaderboards.js';

/**
 * An earned or reversed point entry in an account without a points board costs its trigger one
 * key lookup, the board lock and one existence check, nothing more: the month (the account's time
 * zone) is worked out only for a board, and the holdout wrapper is skipped (points have no
 * definition to hold members out of; held-out members earn none). The lock comes before the
 * check, as in every standing change, so a board being built either sees this entry or waits for it.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    create or replace function loyalty_points_standings() returns trigger language plpgsql as $$
    declare
      setting uuid;
    begin
      if new.reason not in ('earned', 'reversed') then return null; end if;
      select id into setting from points_setting where account_id = new.account_id;
      if setting is null then return null; end if;
      perform loyalty_standings_lock(setting, 'points', false);
      if not exists (select 1 from leaderboard l
                      where l.account_id = new.account_id and l.linked_schema_record_id = setting and l.rank_by = 'points') then
        return null;
      end if;
      perform loyalty_standing_change_ranked(new.account_id, setting, 'points', loyalty_points_month(new.account_id, new.created_at),
                                             new.owned_by_id, 'add', new.points, new.created_at);
      return null;
    end $$`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`create or replace ${POINTS_STANDINGS}`);
}
