import type { Knex } from 'knex';
import { createdIndex, guestIdIndex, recordColumns, statusColumn } from './columns.js';

/** The progress tables' trigger functions as this migration made them (a later one's `down` puts them back). */
export const STREAK_STANDINGS = `function loyalty_streak_standings() returns trigger language plpgsql as $$
    begin
      -- current_run: the in-progress run's value; a run that closes leaves the board.
      if new.streak_progress_status = 'in_progress' then
        perform loyalty_standing_change(new.account_id, new.streak_id, 'current_run', '', new.owned_by_id, 'set', new.current_progress_value, new.updated_at);
      elsif tg_op = 'UPDATE' and old.streak_progress_status = 'in_progress' then
        perform loyalty_standing_change(new.account_id, new.streak_id, 'current_run', '', new.owned_by_id, 'set', 0, new.updated_at);
      end if;
      perform loyalty_standing_change(new.account_id, new.streak_id, 'longest_run', '', new.owned_by_id, 'max', new.current_progress_value, new.updated_at);
      return null;
    end $$`;
export const CHALLENGE_STANDINGS = `function loyalty_challenge_standings() returns trigger language plpgsql as $$
    begin
      perform loyalty_standing_change(new.account_id, new.challenge_id, 'window_progress', new.period_key, new.owned_by_id, 'set', new.current_progress_value, new.updated_at);
      return null;
    end $$`;
export const MISSION_STANDINGS = `function loyalty_mission_standings() returns trigger language plpgsql as $$
    begin
      perform loyalty_standing_change(new.account_id, new.mission_id, 'completions', '', new.owned_by_id, 'add', 1, new.updated_at);
      return null;
    end $$`;

/**
 * Leaderboards (CONTRACT §15) and what ranks them fast at a million members.
 *
 * `leaderboard_standing` holds one value per member per ranked definition, way of ranking and
 * window (`period_key`, '' when the ranking has none), with the instant the value was reached;
 * its rank index lists a board in order. `leaderboard_count` counts standings per value bucket,
 * so a member's rank is a sum over the buckets above it plus the few standings in its own bucket
 * above it, whatever the rank. Both are kept by triggers on the progress tables, in the
 * transaction of every progress write (ingestion, sweeps, erasure), only for definitions that a
 * leaderboard ranks that way; a leaderboard's creation builds them from the progress under an
 * exclusive advisory lock that every maintaining write takes shared, so no write falls between.
 *
 * Counts are split by member into 4 shards and, apart, their decrements, so concurrent logs seldom
 * wait on one row (a read sums at most 8 rows per bucket); each write takes at most one decrement and one increment row per board, in
 * that order, which keeps concurrent writes free of lock cycles. Members who are not live are left
 * out when a board is read (few are), so a member's status change touches no standing.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('leaderboard', (t) => {
    recordColumns(db, t);
    t.text('name').notNullable();
    t.text('description');
    statusColumn(t, 'live');
    t.text('linked_schema_slug').notNullable();
    t.uuid('linked_schema_record_id').notNullable();
    t.text('rank_by').notNullable();
    t.integer('size').notNullable().defaultTo(10);
    t.text('display_name').notNullable().defaultTo('first_name_initial');
    t.jsonb('eud_title');
    t.jsonb('eud_description');
    createdIndex(t, 'leaderboard');
    guestIdIndex(t, 'leaderboard');
    t.index(['account_id', 'linked_schema_record_id', 'rank_by'], 'leaderboard_definition_idx');
  });

  await db.raw(`
    create table leaderboard_standing (
      account_id uuid not null references account(id) on delete cascade,
      definition_id uuid not null,
      rank_by text not null,
      period_key text not null,
      member_id uuid not null,
      value double precision not null,
      reached_at timestamptz(3) not null,
      primary key (account_id, definition_id, rank_by, period_key, member_id)
    )`);
  await db.raw(`
    create index leaderboard_standing_rank_idx on leaderboard_standing
      (account_id, definition_id, rank_by, period_key, value desc, reached_at, member_id) where value > 0`);
  await db.raw(`
    create table leaderboard_count (
      account_id uuid not null references account(id) on delete cascade,
      definition_id uuid not null,
      rank_by text not null,
      period_key text not null,
      bucket double precision not null,
      slot smallint not null,
      n bigint not null,
      primary key (account_id, definition_id, rank_by, period_key, bucket, slot)
    )`);
  // Boards leave non-live members out when read: this finds an account's few.
  await db.raw(`create index account_user_not_live_idx on account_user (account_id, id) where status <> 'live'`);

  // Exact below 1024 (integers: one bucket per value); above, 10 significant bits (0.2 % wide).
  // Not strict, so that the planner can inline it.
  await db.raw(`
    create function loyalty_rank_bucket_width(v double precision) returns double precision
    language sql immutable parallel safe as $$
      select case when v < 1024 then 1::double precision else power(2::double precision, floor(log(2::numeric, v::numeric))::int - 9) end
    $$`);
  await db.raw(`
    create function loyalty_rank_bucket(v double precision) returns double precision
    language sql immutable parallel safe as $$
      select loyalty_rank_bucket_width(v) * floor(v / loyalty_rank_bucket_width(v))
    $$`);
  await db.raw(`
    create function loyalty_standings_lock(p_definition uuid, p_rank_by text, p_exclusive boolean) returns void
    language plpgsql as $$
    declare
      k bigint := hashtextextended('loyalty_standings:' || p_definition::text || ':' || p_rank_by, 0);
    begin
      if p_exclusive then perform pg_advisory_xact_lock(k); else perform pg_advisory_xact_lock_shared(k); end if;
    end $$`);
  await db.raw(COUNT_ADD);
  // p_mode: 'set' (the value), 'max' (the best so far), 'add' (adds p_value).
  await db.raw(STANDING_CHANGE);
  // Progress rows are deleted only with their member (erasure): the member leaves the board.
  await db.raw(`
    create function loyalty_standing_remove(p_account uuid, p_definition uuid, p_rank_by text, p_period text, p_member uuid)
    returns void language plpgsql as $$
    declare
      old_value double precision;
    begin
      perform loyalty_standings_lock(p_definition, p_rank_by, false);
      delete from leaderboard_standing s
       where s.account_id = p_account and s.definition_id = p_definition and s.rank_by = p_rank_by
         and s.period_key = p_period and s.member_id = p_member
      returning s.value into old_value;
      if old_value > 0 then
        perform loyalty_count_add(p_account, p_definition, p_rank_by, p_period, old_value, 4 + (get_byte(uuid_send(p_member), 15) & 3), -1);
      end if;
    end $$`);

  /*
   * A board as the standings route reads it: the top entries from the rank index; the caller's
   * rank as one plus the counts of the buckets above its value, plus the standings of its own
   * bucket above it, minus members who are not live above it; the ranked count likewise. Its plan
   * is made once per connection (generic: every condition is an equality on an index's prefix).
   */
  await db.raw(STANDINGS);

  await db.raw(`create ${STREAK_STANDINGS}`);
  await db.raw(`create ${CHALLENGE_STANDINGS}`);
  await db.raw(`create ${MISSION_STANDINGS}`);
  // Erasure deletes a member's progress a table at a time: boards in order, one decrement each.
  await db.raw(`
    create function loyalty_erased_standings() returns trigger language plpgsql as $$
    declare
      r record;
    begin
      for r in
        select distinct g.account_id, (to_jsonb(g) ->> tg_argv[0])::uuid as definition_id, k.rank_by, case when k.rank_by = 'window_progress' then to_jsonb(g) ->> 'period_key' else '' end as period_key, g.owned_by_id
          from gone_rows g
          cross join lateral unnest(case tg_table_name when 'streak_progress' then array['current_run', 'longest_run']
                                                       when 'challenge_progress' then array['window_progress']
                                                       else array['completions'] end) as k(rank_by)
         where exists (select 1 from account a where a.id = g.account_id)
         order by 2, 3, 4, 5
      loop
        perform loyalty_standing_remove(r.account_id, r.definition_id, r.rank_by, r.period_key, r.owned_by_id);
      end loop;
      return null;
    end $$`);

  // Whether a leaderboard other than p_leaderboard ranks the definition this way (read after the lock).
  await db.raw(`
    create function loyalty_standings_kept(p_account uuid, p_definition uuid, p_rank_by text, p_leaderboard uuid) returns boolean
    language sql as $$
      select exists (select 1 from leaderboard l where l.account_id = p_account and l.linked_schema_record_id = p_definition
                        and l.rank_by = p_rank_by and l.id <> p_leaderboard)
    $$`);
  /*
   * A board's standings and counts from the progress, for a definition and way of ranking that no
   * leaderboard but p_leaderboard ranks yet (its standings were not kept). Runs under the exclusive
   * lock, so every write before it is read here and every write after it keeps the standings.
   * For runs that closed before, the instant a value was reached is the run's last change.
   */
  await db.raw(`
    create function loyalty_standings_rebuild(p_account uuid, p_definition uuid, p_rank_by text, p_leaderboard uuid) returns void
    language plpgsql as $$
    begin
      perform loyalty_standings_lock(p_definition, p_rank_by, true);
      if loyalty_standings_kept(p_account, p_definition, p_rank_by, p_leaderboard) then return; end if;
      delete from leaderboard_standing where account_id = p_account and definition_id = p_definition and rank_by = p_rank_by;
      delete from leaderboard_count where account_id = p_account and definition_id = p_definition and rank_by = p_rank_by;
      if p_rank_by = 'current_run' then
        insert into leaderboard_standing (account_id, definition_id, rank_by, period_key, member_id, value, reached_at)
        select account_id, streak_id, p_rank_by, '', owned_by_id, current_progress_value, updated_at
          from streak_progress
         where account_id = p_account and streak_id = p_definition and streak_progress_status = 'in_progress' and current_progress_value > 0;
      elsif p_rank_by = 'longest_run' then
        insert into leaderboard_standing (account_id, definition_id, rank_by, period_key, member_id, value, reached_at)
        select distinct on (owned_by_id) account_id, streak_id, p_rank_by, '', owned_by_id, current_progress_value, updated_at
          from streak_progress
         where account_id = p_account and streak_id = p_definition and current_progress_value > 0
         order by owned_by_id, current_progress_value desc, updated_at;
      elsif p_rank_by = 'window_progress' then
        insert into leaderboard_standing (account_id, definition_id, rank_by, period_key, member_id, value, reached_at)
        select account_id, challenge_id, p_rank_by, period_key, owned_by_id, current_progress_value, updated_at
          from challenge_progress
         where account_id = p_account and challenge_id = p_definition and current_progress_value > 0;
      else
        insert into leaderboard_standing (account_id, definition_id, rank_by, period_key, member_id, value, reached_at)
        select p_account, p_definition, p_rank_by, '', owned_by_id, count(*), max(updated_at)
          from mission_progress
         where account_id = p_account and mission_id = p_definition and mission_progress_status = 'completed'
         group by owned_by_id;
      end if;
      insert into leaderboard_count (account_id, definition_id, rank_by, period_key, bucket, slot, n)
      select account_id, definition_id, rank_by, period_key, loyalty_rank_bucket(value), get_byte(uuid_send(member_id), 15) & 3, count(*)
        from leaderboard_standing
       where account_id = p_account and definition_id = p_definition and rank_by = p_rank_by and value > 0
       group by 1, 2, 3, 4, 5, 6;
    end $$`);
  // What no leaderboard ranks any more is not kept: its standings go.
  await db.raw(`
    create function loyalty_standings_drop(p_account uuid, p_definition uuid, p_rank_by text, p_leaderboard uuid) returns void
    language plpgsql as $$
    begin
      perform loyalty_standings_lock(p_definition, p_rank_by, true);
      if loyalty_standings_kept(p_account, p_definition, p_rank_by, p_leaderboard) then return; end if;
      delete from leaderboard_standing where account_id = p_account and definition_id = p_definition and rank_by = p_rank_by;
      delete from leaderboard_count where account_id = p_account and definition_id = p_definition and rank_by = p_rank_by;
    end $$`);

  const value = (status: string) =>
    `(old.current_progress_value is distinct from new.current_progress_value or old.${status} is distinct from new.${status})`;
  await db.raw(
    `create trigger streak_standings_insert after insert on streak_progress for each row execute function loyalty_streak_standings()`,
  );
  await db.raw(
    `create trigger streak_standings_update after update on streak_progress for each row when ${value('streak_progress_status')} execute function loyalty_streak_standings()`,
  );
  await db.raw(
    `create trigger challenge_standings_insert after insert on challenge_progress for each row execute function loyalty_challenge_standings()`,
  );
  await db.raw(
    `create trigger challenge_standings_update after update on challenge_progress for each row when (old.current_progress_value is distinct from new.current_progress_value) execute function loyalty_challenge_standings()`,
  );
  await db.raw(
    `create trigger mission_standings_insert after insert on mission_progress for each row when (new.mission_progress_status = 'completed') execute function loyalty_mission_standings()`,
  );
  await db.raw(`create trigger mission_standings_update after update on mission_progress for each row
    when (new.mission_progress_status = 'completed' and old.mission_progress_status is distinct from 'completed') execute function loyalty_mission_standings()`);
  for (const kind of ['streak', 'challenge', 'mission']) {
    await db.raw(`create trigger ${kind}_standings_erased after delete on ${kind}_progress referencing old table as gone_rows
      for each statement execute function loyalty_erased_standings('${kind}_id')`);
  }
}

/** Kept by value: a later migration replaces them, and restores them when it is undone. */
export const COUNT_ADD = `
    create or replace function loyalty_count_add(p_account uuid, p_definition uuid, p_rank_by text, p_period text, p_value double precision, p_slot int, p_n int)
    returns void language sql as $$
      insert into leaderboard_count as c (account_id, definition_id, rank_by, period_key, bucket, slot, n)
      values (p_account, p_definition, p_rank_by, p_period, loyalty_rank_bucket(p_value), p_slot, p_n)
      on conflict (account_id, definition_id, rank_by, period_key, bucket, slot) do update set n = c.n + excluded.n
    $$`;

export const STANDING_CHANGE = `
    create or replace function loyalty_standing_change(
      p_account uuid, p_definition uuid, p_rank_by text, p_period text, p_member uuid,
      p_mode text, p_value double precision, p_at timestamptz) returns void
    language plpgsql as $$
    declare
      old_value double precision;
      new_value double precision;
      shard int := get_byte(uuid_send(p_member), 15) & 3;
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
      if old_value > 0 then perform loyalty_count_add(p_account, p_definition, p_rank_by, p_period, old_value, 4 + shard, -1); end if;
      if new_value > 0 then perform loyalty_count_add(p_account, p_definition, p_rank_by, p_period, new_value, shard, 1); end if;
    end $$`;

export const STANDINGS = `
    create or replace function loyalty_standings(p_account uuid, p_definition uuid, p_rank_by text, p_period text, p_member uuid, p_limit int)
    returns table (entries json, ranked_count bigint, caller_value double precision, caller_rank bigint)
    language plpgsql stable
    set plan_cache_mode = force_generic_plan
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
      counted as (
        select coalesce(sum(c.n), 0) as ranked,
               coalesce(sum(c.n) filter (where c.bucket > (select loyalty_rank_bucket(me.value) from me)), 0) as above
          from leaderboard_count c where c.account_id = p_account and c.definition_id = p_definition and c.rank_by = p_rank_by and c.period_key = p_period)
      select
        (select coalesce(json_agg(json_build_object('rank', t.rank, 'value', t.value, 'memberId', t.member_id, 'externalId', t.external_id,
                                                    'firstName', t.first_name, 'lastName', t.last_name) order by t.value desc, t.reached_at, t.member_id), '[]'::json)
           from (select top.*, rank() over (order by top.value desc) as rank from top) t),
        ((select counted.ranked from counted) - (select count(*) from absent))::bigint,
        (select me.value from me),
        (select 1 + (select counted.above from counted)
                + (select count(*) from leaderboard_standing s
                    where s.account_id = p_account and s.definition_id = p_definition and s.rank_by = p_rank_by and s.period_key = p_period and s.value > 0 and s.value > me.value
                      and s.value < loyalty_rank_bucket(me.value) + loyalty_rank_bucket_width(me.value))
                - (select count(*) from absent a where a.value > me.value)
           from me)::bigint;
    end $$`;

export async function down(db: Knex): Promise<void> {
  for (const table of ['streak', 'challenge', 'mission']) {
    await db.raw(`drop trigger if exists ${table}_standings_insert on ${table}_progress`);
    await db.raw(`drop trigger if exists ${table}_standings_update on ${table}_progress`);
    await db.raw(`drop trigger if exists ${table}_standings_erased on ${table}_progress`);
  }
  await db.raw(`drop function loyalty_standings, loyalty_streak_standings, loyalty_challenge_standings, loyalty_mission_standings, loyalty_erased_standings,
    loyalty_standing_change, loyalty_standing_remove, loyalty_standings_rebuild, loyalty_standings_drop, loyalty_standings_kept, loyalty_count_add, loyalty_standings_lock, loyalty_rank_bucket, loyalty_rank_bucket_width`);
  await db.raw('drop index account_user_not_live_idx');
  await db.raw('drop table leaderboard_count');
  await db.raw('drop table leaderboard_standing');
  await db.schema.dropTable('leaderboard');
}
