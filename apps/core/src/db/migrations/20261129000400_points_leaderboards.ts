import type { Knex } from 'knex';

/** The trigger function as this migration made it (a later one's `down` puts it back). */
export const POINTS_STANDINGS = `function loyalty_points_standings() returns trigger language plpgsql as $$
    declare
      setting uuid;
    begin
      if new.reason not in ('earned', 'reversed') then return null; end if;
      select id into setting from points_setting where account_id = new.account_id;
      if setting is null then return null; end if;
      perform loyalty_standing_change(new.account_id, setting, 'points', loyalty_points_month(new.account_id, new.created_at),
                                      new.owned_by_id, 'add', new.points, new.created_at);
      return null;
    end $$`;

/**
 * Leaderboards that rank members by the points they earned in a calendar month of the account's
 * time zone (`rankBy: points` over the account's points setting: issue 35's boards by points
 * earned in a window). A standing is the month's `earned` entries plus its `reversed` ones
 * (a reversal counts in the month it happens), kept by a trigger on point entries in the entry's
 * transaction and built like the progress boards: inline for small accounts, else in batches.
 * End users and guests read such a board only while points are live.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    create or replace function loyalty_standing_change_ranked(
      p_account uuid, p_definition uuid, p_rank_by text, p_period text, p_member uuid,
      p_mode text, p_value double precision, p_at timestamptz) returns void
    language plpgsql as $$
    declare
      old_value double precision;
      new_value double precision;
      shard int := get_byte(uuid_send(p_member), 15) & 3;
      moves_coarse boolean;
    begin
      perform loyalty_standings_lock(p_definition, p_rank_by, false);
      if not exists (select 1 from leaderboard l
                      where l.account_id = p_account and l.linked_schema_record_id = p_definition and l.rank_by = p_rank_by) then
        return;
      end if;
      loop
        select s.value into old_value from leaderboard_standing s
         where s.account_id = p_account and s.definition_id = p_definition and s.rank_by = p_rank_by
           and s.period_key = p_period and s.member_id = p_member
           for update;
        exit when found;
        -- No standing yet: from nothing, every mode makes p_value. Adding keeps a first negative
        -- value (a month's points reversal before its earnings), unranked, for what is added after it.
        new_value := p_value;
        if new_value = 0 or (new_value < 0 and p_mode <> 'add') then return; end if;
        insert into leaderboard_standing (account_id, definition_id, rank_by, period_key, member_id, value, reached_at)
        values (p_account, p_definition, p_rank_by, p_period, p_member, new_value, p_at)
        on conflict do nothing;
        if found then
          if new_value > 0 then perform loyalty_count_add(p_account, p_definition, p_rank_by, p_period, new_value, shard, 1); end if;
          return;
        end if;
      end loop;
      new_value := case p_mode when 'set' then p_value when 'max' then greatest(old_value, p_value) else old_value + p_value end;
      if new_value = old_value then return; end if;
      update leaderboard_standing s set value = new_value, reached_at = p_at
       where s.account_id = p_account and s.definition_id = p_definition and s.rank_by = p_rank_by
         and s.period_key = p_period and s.member_id = p_member;
      moves_coarse := old_value <= 0 or new_value <= 0 or loyalty_rank_coarse(old_value) <> loyalty_rank_coarse(new_value);
      if old_value > 0 then perform loyalty_fine_add(p_account, p_definition, p_rank_by, p_period, old_value, 4 + shard, -1); end if;
      if new_value > 0 then perform loyalty_fine_add(p_account, p_definition, p_rank_by, p_period, new_value, shard, 1); end if;
      if moves_coarse then
        if old_value > 0 then perform loyalty_coarse_add(p_account, p_definition, p_rank_by, p_period, old_value, 4 + shard, -1); end if;
        if new_value > 0 then perform loyalty_coarse_add(p_account, p_definition, p_rank_by, p_period, new_value, shard, 1); end if;
      end if;
    end $$`);
  // The month a point entry counts in: its instant in the account's time zone.
  await db.raw(`
    create function loyalty_points_month(p_account uuid, p_at timestamptz) returns text
    language sql stable as $$
      select to_char(p_at at time zone coalesce((select timezone from account where id = p_account), 'UTC'), 'YYYY-MM')
    $$`);
  await db.raw(`create ${POINTS_STANDINGS}`);
  await db.raw('create trigger point_entry_standings after insert on point_entry for each row execute function loyalty_points_standings()');
  // Erasure deletes a member's entries: they leave the boards, one standing per month.
  await db.raw(`
    create function loyalty_points_erased() returns trigger language plpgsql as $$
    begin
      perform loyalty_standing_remove(g.account_id, ps.id, 'points', g.month, g.owned_by_id)
         from (select distinct account_id, owned_by_id, loyalty_points_month(account_id, created_at) as month from gone_rows
                where reason in ('earned', 'reversed')) g
         join points_setting ps on ps.account_id = g.account_id;
      return null;
    end $$`);
  await db.raw(`create trigger point_entry_erased after delete on point_entry referencing old table as gone_rows
    for each statement execute function loyalty_points_erased()`);
  await db.raw(`
    create or replace function loyalty_standings_build_batch(p_account uuid, p_definition uuid, p_rank_by text, p_after uuid, p_limit int)
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
      elsif p_rank_by = 'points' then
        select array_agg(m order by m) into members from (
          select distinct owned_by_id as m from point_entry
           where account_id = p_account and reason in ('earned', 'reversed') and owned_by_id > after order by 1 limit p_limit) s;
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
      elsif p_rank_by = 'points' then
        insert into loyalty_build_keys
        select loyalty_points_month(p_account, e.created_at), e.owned_by_id, sum(e.points), max(e.created_at) from unnest(members) as m
          join point_entry e on e.account_id = p_account and e.owned_by_id = m and e.reason in ('earned', 'reversed')
         group by 1, 2;
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
      select p_account, p_definition, p_rank_by, period_key, member_id, value, reached_at from loyalty_build_keys
       where value > 0 or (p_rank_by = 'points' and value <> 0);
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
  await db.raw('alter function loyalty_standings_rebuild_fine(uuid, uuid, text, uuid) rename to loyalty_standings_rebuild_progress');
  // A points board builds inline with the batches the background builder uses, all of them at once.
  await db.raw(`
    create function loyalty_standings_rebuild_fine(p_account uuid, p_definition uuid, p_rank_by text, p_leaderboard uuid) returns void
    language plpgsql as $$
    declare
      after uuid;
    begin
      if p_rank_by <> 'points' then
        perform loyalty_standings_rebuild_progress(p_account, p_definition, p_rank_by, p_leaderboard);
        return;
      end if;
      perform loyalty_standings_lock(p_definition, p_rank_by, true);
      if loyalty_standings_kept(p_account, p_definition, p_rank_by, p_leaderboard) then return; end if;
      delete from leaderboard_standing where account_id = p_account and definition_id = p_definition and rank_by = p_rank_by;
      delete from leaderboard_count where account_id = p_account and definition_id = p_definition and rank_by = p_rank_by;
      loop
        after := loyalty_standings_build_batch(p_account, p_definition, p_rank_by, after, 10000);
        exit when after is null;
      end loop;
    end $$`);
  await db.raw(`
    create or replace function loyalty_leaderboard_standings(
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
                         and d.id = l.linked_schema_record_id and (not p_live or d.status = 'live')),
                      (select 'monthly' from points_setting d where l.linked_schema_slug = 'points_setting' and d.account_id = l.account_id
                         and d.id = l.linked_schema_record_id and (not p_live or d.status = 'live'))) as period
        into b
        from leaderboard l
       where l.id = p_leaderboard and (p_account is null or l.account_id = p_account) and (not p_live or l.status = 'live');
      if not found then return; end if;
      w := case when b.rank_by not in ('window_progress', 'points') then ''
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
  await db.raw(`
    create or replace function loyalty_leaderboard_standings(
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
  await db.raw('drop function loyalty_standings_rebuild_fine(uuid, uuid, text, uuid)');
  await db.raw('alter function loyalty_standings_rebuild_progress(uuid, uuid, text, uuid) rename to loyalty_standings_rebuild_fine');
  await db.raw(`
    create or replace function loyalty_standings_build_batch(p_account uuid, p_definition uuid, p_rank_by text, p_after uuid, p_limit int)
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
  await db.raw(`
    create or replace function loyalty_standing_change_ranked(
      p_account uuid, p_definition uuid, p_rank_by text, p_period text, p_member uuid,
      p_mode text, p_value double precision, p_at timestamptz) returns void
    language plpgsql as $$
    declare
      old_value double precision;
      new_value double precision;
      shard int := get_byte(uuid_send(p_member), 15) & 3;
      moves_coarse boolean;
    begin
      perform loyalty_standings_lock(p_definition, p_rank_by, false);
      if not exists (select 1 from leaderboard l
                      where l.account_id = p_account and l.linked_schema_record_id = p_definition and l.rank_by = p_rank_by) then
        return;
      end if;
      loop
        select s.value into old_value from leaderboard_standing s
         where s.account_id = p_account and s.definition_id = p_definition and s.rank_by = p_rank_by
           and s.period_key = p_period and s.member_id = p_member
           for update;
        exit when found;
        -- No standing yet: from nothing, every mode makes p_value.
        new_value := p_value;
        if new_value <= 0 then return; end if;
        insert into leaderboard_standing (account_id, definition_id, rank_by, period_key, member_id, value, reached_at)
        values (p_account, p_definition, p_rank_by, p_period, p_member, new_value, p_at)
        on conflict do nothing;
        if found then
          perform loyalty_count_add(p_account, p_definition, p_rank_by, p_period, new_value, shard, 1);
          return;
        end if;
      end loop;
      new_value := case p_mode when 'set' then p_value when 'max' then greatest(old_value, p_value) else old_value + p_value end;
      if new_value = old_value then return; end if;
      update leaderboard_standing s set value = new_value, reached_at = p_at
       where s.account_id = p_account and s.definition_id = p_definition and s.rank_by = p_rank_by
         and s.period_key = p_period and s.member_id = p_member;
      moves_coarse := old_value <= 0 or new_value <= 0 or loyalty_rank_coarse(old_value) <> loyalty_rank_coarse(new_value);
      if old_value > 0 then perform loyalty_fine_add(p_account, p_definition, p_rank_by, p_period, old_value, 4 + shard, -1); end if;
      if new_value > 0 then perform loyalty_fine_add(p_account, p_definition, p_rank_by, p_period, new_value, shard, 1); end if;
      if moves_coarse then
        if old_value > 0 then perform loyalty_coarse_add(p_account, p_definition, p_rank_by, p_period, old_value, 4 + shard, -1); end if;
        if new_value > 0 then perform loyalty_coarse_add(p_account, p_definition, p_rank_by, p_period, new_value, shard, 1); end if;
      end if;
    end $$`);
  await db.raw('drop trigger point_entry_erased on point_entry');
  await db.raw('drop function loyalty_points_erased()');
  await db.raw('drop trigger point_entry_standings on point_entry');
  await db.raw('drop function loyalty_points_standings(), loyalty_points_month(uuid, timestamptz)');
}
