import type { Knex } from 'knex';
import { CHALLENGE_STANDINGS, MISSION_STANDINGS, STREAK_STANDINGS } from './20261124000300_leaderboards.js';

/**
 * A progress write on a definition without a board costs its trigger the board locks and one
 * existence check, nothing more. Before, a streak's trigger made two standing changes, each
 * looking up the streak's holdout percent before taking its lock and finding no board (about a
 * third of a log's final statement, measured with pg_stat_statements). The locks still come
 * before the check, as in every standing change, so a board being built either sees this write or
 * waits for it.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    create or replace function loyalty_streak_standings() returns trigger language plpgsql as $$
    begin
      perform loyalty_standings_lock(new.streak_id, 'current_run', false);
      perform loyalty_standings_lock(new.streak_id, 'longest_run', false);
      if not exists (select 1 from leaderboard l
                      where l.account_id = new.account_id and l.linked_schema_record_id = new.streak_id
                        and l.rank_by in ('current_run', 'longest_run')) then
        return null;
      end if;
      -- current_run: the in-progress run's value; a run that closes leaves the board.
      if new.streak_progress_status = 'in_progress' then
        perform loyalty_standing_change(new.account_id, new.streak_id, 'current_run', '', new.owned_by_id, 'set', new.current_progress_value, new.updated_at);
      elsif tg_op = 'UPDATE' and old.streak_progress_status = 'in_progress' then
        perform loyalty_standing_change(new.account_id, new.streak_id, 'current_run', '', new.owned_by_id, 'set', 0, new.updated_at);
      end if;
      perform loyalty_standing_change(new.account_id, new.streak_id, 'longest_run', '', new.owned_by_id, 'max', new.current_progress_value, new.updated_at);
      return null;
    end $$`);
  await db.raw(`
    create or replace function loyalty_challenge_standings() returns trigger language plpgsql as $$
    begin
      perform loyalty_standings_lock(new.challenge_id, 'window_progress', false);
      if not exists (select 1 from leaderboard l
                      where l.account_id = new.account_id and l.linked_schema_record_id = new.challenge_id
                        and l.rank_by = 'window_progress') then
        return null;
      end if;
      perform loyalty_standing_change(new.account_id, new.challenge_id, 'window_progress', new.period_key, new.owned_by_id, 'set', new.current_progress_value, new.updated_at);
      return null;
    end $$`);
  await db.raw(`
    create or replace function loyalty_mission_standings() returns trigger language plpgsql as $$
    begin
      perform loyalty_standings_lock(new.mission_id, 'completions', false);
      if not exists (select 1 from leaderboard l
                      where l.account_id = new.account_id and l.linked_schema_record_id = new.mission_id
                        and l.rank_by = 'completions') then
        return null;
      end if;
      perform loyalty_standing_change(new.account_id, new.mission_id, 'completions', '', new.owned_by_id, 'add', 1, new.updated_at);
      return null;
    end $$`);
}

export async function down(db: Knex): Promise<void> {
  for (const body of [STREAK_STANDINGS, CHALLENGE_STANDINGS, MISSION_STANDINGS]) await db.raw(`create or replace ${body}`);
}
