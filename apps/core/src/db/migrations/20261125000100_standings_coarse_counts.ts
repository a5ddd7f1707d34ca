import type { Knex } from 'knex';
import { COUNT_ADD, STANDING_CHANGE, STANDINGS } from './20261124000300_leaderboards.js';

/**
 * Standings read in one statement that costs the same at any rank.
 *
 * A board's bucket counts hold up to 8 rows per bucket and a board has hundreds of buckets, so
 * summing every bucket above a member cost more than the rest of the read. `leaderboard_count_coarse`
 * counts the same standings per coarse bucket (32 fine buckets each, nested: a fine bucket lies
 * in one coarse bucket), kept beside the fine counts by the same writes. A rank is now the coarse
 * buckets above, the fine buckets above within its own coarse bucket, and the standings above it
 * within its own fine bucket: some hundred rows at most, wherever the member stands.
 *
 * `loyalty_leaderboard_standings` reads the leaderboard and its standings in one call, so the
 * route makes one round trip. Neither plans parallel workers: starting them costs far more than
 * the sub-millisecond read (a generic plan knows neither the board's size nor the limit).
 */
/** The board's read as this migration made it; a later migration that replaces it restores this on the way down. */
export const LEADERBOARD_STANDINGS = `
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
             coalesce((select d.aggregation_period from streak d where l.linked_schema_slug = 'streak' and d.account_id = l.account_id and d.id = l.linked_schema_record_id),
                      (select d.aggregation_period from challenge d where l.linked_schema_slug = 'challenge' and d.account_id = l.account_id and d.id = l.linked_schema_record_id),
                      (select d.aggregation_period from mission d where l.linked_schema_slug = 'mission' and d.account_id = l.account_id and d.id = l.linked_schema_record_id)) as period
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
    end $$`;

export async function up(db: Knex): Promise<void> {
  await db.raw(`
    create table leaderboard_count_coarse (
      account_id uuid not null references account(id) on delete cascade,
      definition_id uuid not null,
      rank_by text not null,
      period_key text not null,
      coarse double precision not null,
      slot smallint not null,
      n bigint not null,
      primary key (account_id, definition_id, rank_by, period_key, coarse, slot)
    )`);
  // 32 fine buckets per coarse bucket: fine width 1 below 1024, 2^(e-9) in [2^e, 2^(e+1)).
  await db.raw(`
    create function loyalty_rank_coarse_width(v double precision) returns double precision
    language sql immutable parallel safe as $$
      select case when v < 1024 then 32::double precision else power(2::double precision, floor(log(2::numeric, v::numeric))::int - 4) end
    $$`);
  await db.raw(`
    create function loyalty_rank_coarse(v double precision) returns double precision
    language sql immutable parallel safe as $$
      select loyalty_rank_coarse_width(v) * floor(v / loyalty_rank_coarse_width(v))
    $$`);
  await db.raw(`
    insert into leaderboard_count_coarse (account_id, definition_id, rank_by, period_key, coarse, slot, n)
    select account_id, definition_id, rank_by, period_key, loyalty_rank_coarse(bucket), slot, sum(n)
      from leaderboard_count group by 1, 2, 3, 4, 5, 6`);

  await db.raw(`
    create function loyalty_coarse_add(p_account uuid, p_definition uuid, p_rank_by text, p_period text, p_value double precision, p_slot int, p_n int)
    returns void language sql as $$
      insert into leaderboard_count_coarse as c (account_id, definition_id, rank_by, period_key, coarse, slot, n)
      values (p_account, p_definition, p_rank_by, p_period, loyalty_rank_coarse(p_value), p_slot, p_n)
      on conflict (account_id, definition_id, rank_by, period_key, coarse, slot) do update set n = c.n + excluded.n
    $$`);
  // A single count (a standing that appears or goes) moves both levels.
  await db.raw(`
    create or replace function loyalty_count_add(p_account uuid, p_definition uuid, p_rank_by text, p_period text, p_value double precision, p_slot int, p_n int)
    returns void language sql as $$
      insert into leaderboard_count as c (account_id, definition_id, rank_by, period_key, bucket, slot, n)
      values (p_account, p_definition, p_rank_by, p_period, loyalty_rank_bucket(p_value), p_slot, p_n)
      on conflict (account_id, definition_id, rank_by, period_key, bucket, slot) do update set n = c.n + excluded.n;
      select loyalty_coarse_add(p_account, p_definition, p_rank_by, p_period, p_value, p_slot, p_n);
    $$`);
  await db.raw(`
    create function loyalty_fine_add(p_account uuid, p_definition uuid, p_rank_by text, p_period text, p_value double precision, p_slot int, p_n int)
    returns void language sql as $$
      insert into leaderboard_count as c (account_id, definition_id, rank_by, period_key, bucket, slot, n)
      values (p_account, p_definition, p_rank_by, p_period, loyalty_rank_bucket(p_value), p_slot, p_n)
      on conflict (account_id, definition_id, rank_by, period_key, bucket, slot) do update set n = c.n + excluded.n
    $$`);
  /*
   * As before, but a value that moves within one coarse bucket (most do: runs grow by one) leaves
   * the coarse counts alone. Rows are still taken in one order per board (fine decrement, fine
   * increment, coarse decrement, coarse increment), so concurrent writes form no lock cycle.
   */
  await db.raw(`
    create or replace function loyalty_standing_change(
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

  // Building and dropping a board's standings keep the coarse counts with the fine ones.
  await db.raw(`alter function loyalty_standings_rebuild(uuid, uuid, text, uuid) rename to loyalty_standings_rebuild_fine`);
  await db.raw(`alter function loyalty_standings_drop(uuid, uuid, text, uuid) rename to loyalty_standings_drop_fine`);
  await db.raw(`
    create function loyalty_standings_rebuild(p_account uuid, p_definition uuid, p_rank_by text, p_leaderboard uuid) returns void
    language plpgsql as $$
    begin
      perform loyalty_standings_rebuild_fine(p_account, p_definition, p_rank_by, p_leaderboard);
      -- Still under the exclusive lock the fine rebuild took: the fine counts are settled.
      delete from leaderboard_count_coarse where account_id = p_account and definition_id = p_definition and rank_by = p_rank_by;
      insert into leaderboard_count_coarse (account_id, definition_id, rank_by, period_key, coarse, slot, n)
      select account_id, definition_id, rank_by, period_key, loyalty_rank_coarse(bucket), slot, sum(n)
        from leaderboard_count
       where account_id = p_account and definition_id = p_definition and rank_by = p_rank_by
       group by 1, 2, 3, 4, 5, 6;
    end $$`);
  await db.raw(`
    create function loyalty_standings_drop(p_account uuid, p_definition uuid, p_rank_by text, p_leaderboard uuid) returns void
    language plpgsql as $$
    begin
      perform loyalty_standings_drop_fine(p_account, p_definition, p_rank_by, p_leaderboard);
      if not loyalty_standings_kept(p_account, p_definition, p_rank_by, p_leaderboard) then
        delete from leaderboard_count_coarse where account_id = p_account and definition_id = p_definition and rank_by = p_rank_by;
      end if;
    end $$`);

  await db.raw(`
    create or replace function loyalty_standings(p_account uuid, p_definition uuid, p_rank_by text, p_period text, p_member uuid, p_limit int)
    returns table (entries json, ranked_count bigint, caller_value double precision, caller_rank bigint)
    language plpgsql stable
    set plan_cache_mode = force_generic_plan
    set max_parallel_workers_per_gather = 0
    as $$
    begin
      return query
      with me as (
        select s.value from leaderboard_standing s
          join account_user u on u.account_id = s.account_id and u.id = s.member_id and u.status = 'live'
         where s.account_id = p_account and s.definition_id = p_definition and s.rank_by = p_rank_by and s.period_key = p_period and s.member_id = p_member and s.value > 0),
      absent as (
        select s.value from account_user u
          join leaderboard_standing s on s.account_id = p_account and s.definition_id = p_definition and s.rank_by = p_rank_by and s.period_key = p_period and s.member_id = u.id
         where u.account_id = p_account and u.status <> 'live' and s.value > 0),
      top as (
        select s.member_id, s.value, s.reached_at, u.external_id, u.first_name, u.last_name
          from leaderboard_standing s
          join account_user u on u.account_id = s.account_id and u.id = s.member_id
         where s.account_id = p_account and s.definition_id = p_definition and s.rank_by = p_rank_by and s.period_key = p_period and s.value > 0 and u.status = 'live'
         order by s.value desc, s.reached_at, s.member_id
         limit p_limit),
      coarse as (
        select coalesce(sum(c.n), 0) as ranked,
               coalesce(sum(c.n) filter (where c.coarse > (select loyalty_rank_coarse(me.value) from me)), 0) as above
          from leaderboard_count_coarse c where c.account_id = p_account and c.definition_id = p_definition and c.rank_by = p_rank_by and c.period_key = p_period),
      fine as (
        select coalesce(sum(c.n), 0) as above
          from me, leaderboard_count c
         where c.account_id = p_account and c.definition_id = p_definition and c.rank_by = p_rank_by and c.period_key = p_period
           and c.bucket > loyalty_rank_bucket(me.value) and c.bucket < loyalty_rank_coarse(me.value) + loyalty_rank_coarse_width(me.value))
      select
        (select coalesce(json_agg(json_build_object('rank', t.rank, 'value', t.value, 'memberId', t.member_id, 'externalId', t.external_id,
                                                    'firstName', t.first_name, 'lastName', t.last_name) order by t.value desc, t.reached_at, t.member_id), '[]'::json)
           from (select top.*, rank() over (order by top.value desc) as rank from top) t),
        ((select coarse.ranked from coarse) - (select count(*) from absent))::bigint,
        (select me.value from me),
        (select 1 + (select coarse.above from coarse) + (select fine.above from fine)
                + (select count(*) from leaderboard_standing s
                    where s.account_id = p_account and s.definition_id = p_definition and s.rank_by = p_rank_by and s.period_key = p_period and s.value > 0 and s.value > me.value
                      and s.value < loyalty_rank_bucket(me.value) + loyalty_rank_bucket_width(me.value))
                - (select count(*) from absent a where a.value > me.value)
           from me)::bigint;
    end $$`);

  /*
   * The leaderboard as the caller may see it (p_account: the caller's account, null when unknown;
   * p_live: end users and guests see live ones only) with its standings, in one call. The window
   * is p_period when given, else the default window of the definition's period among p_daily,
   * p_weekly and p_monthly (the caller's current windows in the account's time zone); without one
   * (the account was unknown, or the challenge is gone) the board comes back without standings.
   */
  await db.raw(LEADERBOARD_STANDINGS);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop function loyalty_leaderboard_standings(uuid, uuid, boolean, uuid, int, text, text, text, text)');
  await db.raw(STANDINGS);
  await db.raw('drop function loyalty_standings_rebuild(uuid, uuid, text, uuid), loyalty_standings_drop(uuid, uuid, text, uuid)');
  await db.raw('alter function loyalty_standings_rebuild_fine(uuid, uuid, text, uuid) rename to loyalty_standings_rebuild');
  await db.raw('alter function loyalty_standings_drop_fine(uuid, uuid, text, uuid) rename to loyalty_standings_drop');
  await db.raw(STANDING_CHANGE);
  await db.raw(COUNT_ADD);
  await db.raw('drop function loyalty_fine_add, loyalty_coarse_add, loyalty_rank_coarse, loyalty_rank_coarse_width');
  await db.raw('drop table leaderboard_count_coarse');
}
