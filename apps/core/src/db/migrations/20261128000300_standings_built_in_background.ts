import type { Knex } from 'knex';

/**
 * Leaderboards over large definitions get their standings built in the background (CONTRACT §15,
 * issue 32): a board is created with `standings_ready` false, the progress triggers keep its
 * standings from then on, and a builder sets every member's standing from the progress, a batch
 * of members at a time in a few set-based statements (the counts moved by what the triggers had
 * written and by what the progress says), each batch under the exclusive lock the maintaining
 * writes take shared,
 * so a log waits at most one batch. A batch sets what the progress says (whatever a trigger wrote
 * before it), and a trigger after it changes that by its own write: once the last batch is done,
 * the standings are what a rebuild would give.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('alter table leaderboard add column standings_ready boolean not null default true');
  await db.raw(`create index leaderboard_standings_building_idx on leaderboard (id) where not standings_ready`);
  await db.raw(`
    create function loyalty_standings_build_batch(p_account uuid, p_definition uuid, p_rank_by text, p_after uuid, p_limit int)
    returns uuid language plpgsql as $$
    declare
      members uuid[];
      after uuid := coalesce(p_after, '00000000-0000-0000-0000-000000000000');
    begin
      perform loyalty_standings_lock(p_definition, p_rank_by, true);
      if p_rank_by in ('current_run', 'longest_run') then
        select array_agg(m order by m) into members from (
          select distinct owned_by_id as m from streak_progress
           where account_id = p_account and streak_id = p_definition and owned_by_id > after order by 1 limit p_limit) s;
      elsif p_rank_by = 'window_progress' then
        select array_agg(m order by m) into members from (
          select distinct owned_by_id as m from challenge_progress
           where account_id = p_account and challenge_id = p_definition and owned_by_id > after order by 1 limit p_limit) s;
      else
        select array_agg(m order by m) into members from (
          select distinct owned_by_id as m from mission_progress
           where account_id = p_account and mission_id = p_definition and owned_by_id > after order by 1 limit p_limit) s;
      end if;
      if members is null then return null; end if;
      -- The standings the batch sets: one per member, or for windows one per member and window.
      create temp table if not exists loyalty_build_keys (period_key text, member_id uuid, value double precision, reached_at timestamptz) on commit drop;
      truncate loyalty_build_keys;
      if p_rank_by = 'current_run' then
        insert into loyalty_build_keys
        select '', m, coalesce(v.value, 0), coalesce(v.at, now()) from unnest(members) as m
          left join lateral (select current_progress_value as value, updated_at as at from streak_progress p
                              where p.account_id = p_account and p.streak_id = p_definition and p.owned_by_id = m
                                and p.streak_progress_status = 'in_progress' limit 1) v on true;
      elsif p_rank_by = 'longest_run' then
        insert into loyalty_build_keys
        select '', m, v.value, v.at from unnest(members) as m
         cross join lateral (select current_progress_value as value, updated_at as at from streak_progress p
                              where p.account_id = p_account and p.streak_id = p_definition and p.owned_by_id = m
                              order by current_progress_value desc, updated_at limit 1) v;
      elsif p_rank_by = 'window_progress' then
        insert into loyalty_build_keys
        select p.period_key, p.owned_by_id, p.current_progress_value, p.updated_at from unnest(members) as m
          join challenge_progress p on p.account_id = p_account and p.challenge_id = p_definition and p.owned_by_id = m;
      else
        insert into loyalty_build_keys
        select '', m, v.value, coalesce(v.at, now()) from unnest(members) as m
         cross join lateral (select count(*) as value, max(updated_at) as at from mission_progress p
                              where p.account_id = p_account and p.mission_id = p_definition and p.owned_by_id = m
                                and p.mission_progress_status = 'completed') v;
      end if;
      -- What the triggers wrote for these members before the batch leaves the counts (decrement slots)...
      insert into leaderboard_count as c (account_id, definition_id, rank_by, period_key, bucket, slot, n)
      select p_account, p_definition, p_rank_by, s.period_key, loyalty_rank_bucket(s.value), 4 + (get_byte(uuid_send(s.member_id), 15) & 3), -count(*)
        from leaderboard_standing s join loyalty_build_keys k on k.period_key = s.period_key and k.member_id = s.member_id
       where s.account_id = p_account and s.definition_id = p_definition and s.rank_by = p_rank_by and s.value > 0
       group by 4, 5, 6
      on conflict (account_id, definition_id, rank_by, period_key, bucket, slot) do update set n = c.n + excluded.n;
      insert into leaderboard_count_coarse as c (account_id, definition_id, rank_by, period_key, coarse, slot, n)
      select p_account, p_definition, p_rank_by, s.period_key, loyalty_rank_coarse(s.value), 4 + (get_byte(uuid_send(s.member_id), 15) & 3), -count(*)
        from leaderboard_standing s join loyalty_build_keys k on k.period_key = s.period_key and k.member_id = s.member_id
       where s.account_id = p_account and s.definition_id = p_definition and s.rank_by = p_rank_by and s.value > 0
       group by 4, 5, 6
      on conflict (account_id, definition_id, rank_by, period_key, coarse, slot) do update set n = c.n + excluded.n;
      delete from leaderboard_standing s using loyalty_build_keys k
       where s.account_id = p_account and s.definition_id = p_definition and s.rank_by = p_rank_by
         and s.period_key = k.period_key and s.member_id = k.member_id;
      -- ... and what the progress says takes its place.
      insert into leaderboard_standing (account_id, definition_id, rank_by, period_key, member_id, value, reached_at)
      select p_account, p_definition, p_rank_by, period_key, member_id, value, reached_at from loyalty_build_keys where value > 0;
      insert into leaderboard_count as c (account_id, definition_id, rank_by, period_key, bucket, slot, n)
      select p_account, p_definition, p_rank_by, period_key, loyalty_rank_bucket(value), get_byte(uuid_send(member_id), 15) & 3, count(*)
        from loyalty_build_keys where value > 0 group by 4, 5, 6
      on conflict (account_id, definition_id, rank_by, period_key, bucket, slot) do update set n = c.n + excluded.n;
      insert into leaderboard_count_coarse as c (account_id, definition_id, rank_by, period_key, coarse, slot, n)
      select p_account, p_definition, p_rank_by, period_key, loyalty_rank_coarse(value), get_byte(uuid_send(member_id), 15) & 3, count(*)
        from loyalty_build_keys where value > 0 group by 4, 5, 6
      on conflict (account_id, definition_id, rank_by, period_key, coarse, slot) do update set n = c.n + excluded.n;
      return members[array_length(members, 1)];
    end $$`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop function loyalty_standings_build_batch(uuid, uuid, text, uuid, int)');
  await db.raw('drop index leaderboard_standings_building_idx');
  await db.raw('alter table leaderboard drop column standings_ready');
}
