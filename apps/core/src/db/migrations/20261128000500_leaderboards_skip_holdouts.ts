import type { Knex } from 'knex';

/**
 * Leaderboards do not rank members held out of their definition (CONTRACT §18). Every standing
 * change of a held-out member sets it to 0 (unranked); a build ends by doing the same to the
 * standings it wrote, and a change of the percent rebuilds the definition's boards (engine/standings.ts).
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`alter function loyalty_standing_change(uuid, uuid, text, text, uuid, text, double precision, timestamptz)
    rename to loyalty_standing_change_ranked`);
  await db.raw(`
    create function loyalty_standing_change(
      p_account uuid, p_definition uuid, p_rank_by text, p_period text, p_member uuid,
      p_mode text, p_value double precision, p_at timestamptz) returns void
    language plpgsql as $$
    declare
      -- One key lookup: the way of ranking names the definition's kind.
      pct int := case p_rank_by
        when 'window_progress' then (select holdout_percent from challenge where account_id = p_account and id = p_definition)
        when 'completions' then (select holdout_percent from mission where account_id = p_account and id = p_definition)
        else (select holdout_percent from streak where account_id = p_account and id = p_definition) end;
    begin
      if pct > 0 and exists (select 1 from account_user u where u.account_id = p_account and u.id = p_member
                               and loyalty_holdout_position(p_definition, u.external_id) < pct / 100.0) then
        perform loyalty_standing_change_ranked(p_account, p_definition, p_rank_by, p_period, p_member, 'set', 0, p_at);
      else
        perform loyalty_standing_change_ranked(p_account, p_definition, p_rank_by, p_period, p_member, p_mode, p_value, p_at);
      end if;
    end $$`);
  await db.raw(`
    create function loyalty_standings_unrank_held_out(p_account uuid, p_definition uuid, p_rank_by text) returns void
    language plpgsql as $$
    declare
      pct int := (select coalesce(max(holdout_percent), 0) from (
        select holdout_percent from streak where account_id = p_account and id = p_definition
        union all select holdout_percent from challenge where account_id = p_account and id = p_definition
        union all select holdout_percent from mission where account_id = p_account and id = p_definition) d);
    begin
      if pct = 0 then return; end if;
      perform loyalty_standing_change_ranked(s.account_id, s.definition_id, s.rank_by, s.period_key, s.member_id, 'set', 0, s.reached_at)
         from leaderboard_standing s
         join account_user u on u.account_id = s.account_id and u.id = s.member_id
        where s.account_id = p_account and s.definition_id = p_definition and s.rank_by = p_rank_by and s.value > 0
          and loyalty_holdout_position(p_definition, u.external_id) < pct / 100.0;
    end $$`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop function loyalty_standings_unrank_held_out(uuid, uuid, text)');
  await db.raw('drop function loyalty_standing_change(uuid, uuid, text, text, uuid, text, double precision, timestamptz)');
  await db.raw(`alter function loyalty_standing_change_ranked(uuid, uuid, text, text, uuid, text, double precision, timestamptz)
    rename to loyalty_standing_change`);
}
