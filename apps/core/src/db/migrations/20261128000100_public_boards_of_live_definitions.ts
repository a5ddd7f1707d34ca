import type { Knex } from 'knex';
import { LEADERBOARD_STANDINGS } from './20261125000100_standings_coarse_counts.js';

/**
 * End users and guests read a leaderboard only while its definition is live (CONTRACT §15: a
 * definition they cannot see has no board they can see). For them the board's period is looked up
 * among live definitions only, so a board over a draft, paused or deleted one has no period, which
 * the route answers 404 as it already did for a deleted one. API keys read every board.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('drop function loyalty_leaderboard_standings(uuid, uuid, boolean, uuid, int, text, text, text, text)');
  await db.raw(`
    create function loyalty_leaderboard_standings(
      p_leaderboard uuid, p_account uuid, p_live boolean, p_member uuid, p_limit int,
      p_period text, p_daily text, p_weekly text, p_monthly text)
    returns table (account_id uuid, linked_schema_slug text, linked_schema_record_id uuid, rank_by text, size int, display_name text,
                   aggregation_period text, period_key text, entries json, ranked_count bigint, caller_value double precision, caller_rank bigint)
    language plpgsql stable
    set plan_cache_mode = force_generic_plan
    set max_parallel_workers_per_gather = 0
    as $$
    declare
      b record;
      w text;
    begin
      select l.account_id, l.linked_schema_slug, l.linked_schema_record_id, l.rank_by, l.size, l.display_name,
             coalesce((select d.aggregation_period from streak d where l.linked_schema_slug = 'streak' and d.account_id = l.account_id
                         and d.id = l.linked_schema_record_id and (not p_live or d.status = 'live')),
                      (select d.aggregation_period from challenge d where l.linked_schema_slug = 'challenge' and d.account_id = l.account_id
                         and d.id = l.linked_schema_record_id and (not p_live or d.status = 'live')),
                      (select d.aggregation_period from mission d where l.linked_schema_slug = 'mission' and d.account_id = l.account_id
                         and d.id = l.linked_schema_record_id and (not p_live or d.status = 'live'))) as period
        into b
        from leaderboard l
       where l.id = p_leaderboard and (p_account is null or l.account_id = p_account) and (not p_live or l.status = 'live');
      if not found then return; end if;
      w := case when b.rank_by <> 'window_progress' then ''
                else coalesce(p_period, case b.period when 'daily' then p_daily when 'weekly' then p_weekly when 'monthly' then p_monthly end) end;
      if w is null or (p_live and b.period is null) then
        return query select b.account_id, b.linked_schema_slug, b.linked_schema_record_id, b.rank_by, b.size, b.display_name, b.period,
                            null::text, null::json, null::bigint, null::double precision, null::bigint;
        return;
      end if;
      return query select b.account_id, b.linked_schema_slug, b.linked_schema_record_id, b.rank_by, b.size, b.display_name, b.period, w, s.*
        from loyalty_standings(b.account_id, b.linked_schema_record_id, b.rank_by, w, p_member, coalesce(p_limit, b.size)) s;
    end $$`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop function loyalty_leaderboard_standings(uuid, uuid, boolean, uuid, int, text, text, text, text)');
  await db.raw(LEADERBOARD_STANDINGS);
}
