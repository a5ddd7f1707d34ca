import { createHmac } from 'node:crypto';
import type { Knex } from 'knex';
import type { Period } from './periods.js';
import { periodBounds, periodKey } from './periods.js';
import type { LogKind } from './types.js';

/*
 * Leaderboard standings (CONTRACT §15). The database keeps, per definition and way of ranking,
 * each member's value with the instant it was reached and counts of values per bucket (migration
 * 20261124000300_leaderboards), in the transaction of every progress write. A board is read in one
 * statement: the top entries from the rank index; the caller's rank as one plus the counts of the
 * buckets above its value, plus the standings of its own bucket above it, minus members who are
 * not live above it; the ranked count likewise.
 */

export const RANK_BY = ['current_run', 'longest_run', 'window_progress', 'completions'] as const;
export type RankBy = (typeof RANK_BY)[number];

/** The ways each kind of definition ranks, its default first. */
export const RANKS_OF: Readonly<Record<LogKind, readonly RankBy[]>> = {
  streak: ['current_run', 'longest_run'],
  challenge: ['window_progress'],
  mission: ['completions'],
};

export const DISPLAY_NAMES = ['first_name_initial', 'anonymous'] as const;
export type DisplayNameMode = (typeof DISPLAY_NAMES)[number];

/** Ways of ranking that keep one standing per window. */
export const isWindowed = (rankBy: RankBy) => rankBy === 'window_progress';

/**
 * Starts keeping the standings of a definition ranked this way, from its progress so far, unless
 * a leaderboard other than `leaderboardId` keeps them already.
 */
export async function keepStandings(trx: Knex, accountId: string, definitionId: string, rankBy: RankBy, leaderboardId: string): Promise<void> {
  await trx.raw('select loyalty_standings_rebuild(?, ?, ?, ?)', [accountId, definitionId, rankBy, leaderboardId]);
}

/** Stops keeping them (and drops them) unless a leaderboard other than `leaderboardId` ranks so. */
export async function dropStandings(trx: Knex, accountId: string, definitionId: string, rankBy: RankBy, leaderboardId: string): Promise<void> {
  await trx.raw('select loyalty_standings_drop(?, ?, ?, ?)', [accountId, definitionId, rankBy, leaderboardId]);
}

/** A period key of the challenge's kind names a real window (it round-trips through its bounds). */
export function isPeriodKey(key: string, period: Period): boolean {
  const shape = period === 'daily' ? /^\d{4}-\d{2}-\d{2}$/ : period === 'weekly' ? /^\d{4}-W\d{2}$/ : /^\d{4}-\d{2}$/;
  if (!shape.test(key)) return false;
  const { start } = periodBounds(key, period, 'UTC');
  return !Number.isNaN(start.getTime()) && periodKey(start, period, 'UTC') === key;
}

export interface StandingEntry {
  rank: number;
  value: number;
  memberId: string;
  externalId: string;
  firstName: string | null;
  lastName: string | null;
}

export interface Standings {
  entries: StandingEntry[];
  caller: { rank: number; value: number } | null;
  rankedCount: number;
}

export interface StandingsQuery {
  accountId: string;
  definitionId: string;
  rankBy: RankBy;
  /** The window, or '' when the ranking has none. */
  periodKey: string;
  limit: number;
  /** The end user whose own standing is wanted. */
  memberId?: string;
}

/** Same board: the standings and counts of one definition, way of ranking and window. */
const BOARD = (alias: string) => `${alias}.account_id = :accountId and ${alias}.definition_id = :definitionId and ${alias}.rank_by = :rankBy and ${alias}.period_key = :periodKey`;

const STANDINGS_SQL = `
  with me as (
    select s.value from leaderboard_standing s
      join account_user u on u.account_id = s.account_id and u.id = s.member_id and u.status = 'live'
     where ${BOARD('s')} and s.member_id = :memberId and s.value > 0),
  absent as (
    select s.value from account_user u
      join leaderboard_standing s on ${BOARD('s')} and s.member_id = u.id
     where u.account_id = :accountId and u.status <> 'live' and s.value > 0),
  top as (
    select s.member_id, s.value, s.reached_at, u.external_id, u.first_name, u.last_name
      from leaderboard_standing s
      join account_user u on u.account_id = s.account_id and u.id = s.member_id
     where ${BOARD('s')} and s.value > 0 and u.status = 'live'
     order by s.value desc, s.reached_at, s.member_id
     limit :limit)
  select
    (select coalesce(json_agg(json_build_object('rank', t.rank, 'value', t.value, 'memberId', t.member_id, 'externalId', t.external_id,
                                                'firstName', t.first_name, 'lastName', t.last_name) order by t.value desc, t.reached_at, t.member_id), '[]'::json)
       from (select top.*, rank() over (order by top.value desc) as rank from top) t) as entries,
    ((select coalesce(sum(c.n), 0) from leaderboard_count c where ${BOARD('c')}) - (select count(*) from absent))::bigint as ranked_count,
    (select me.value from me) as caller_value,
    (select 1
            + coalesce((select sum(c.n) from leaderboard_count c where ${BOARD('c')} and c.bucket > loyalty_rank_bucket(me.value)), 0)
            + (select count(*) from leaderboard_standing s
                where ${BOARD('s')} and s.value > me.value and s.value < me.value + me.value / 512 + 1
                  and loyalty_rank_bucket(s.value) = loyalty_rank_bucket(me.value))
            - (select count(*) from absent a where a.value > me.value)
       from me)::bigint as caller_rank`;

/** Every log acknowledged before the call counts: the standings are written with the progress. */
export async function readStandings(db: Knex, q: StandingsQuery): Promise<Standings> {
  const result = await db.raw<{ rows: { entries: StandingEntry[]; ranked_count: string; caller_value: number | null; caller_rank: string | null }[] }>(STANDINGS_SQL, {
    accountId: q.accountId,
    definitionId: q.definitionId,
    rankBy: q.rankBy,
    periodKey: q.periodKey,
    limit: q.limit,
    memberId: q.memberId ?? null,
  });
  const row = result.rows[0]!;
  return {
    entries: row.entries,
    caller: row.caller_value !== null && row.caller_rank !== null ? { rank: Number(row.caller_rank), value: row.caller_value } : null,
    rankedCount: Number(row.ranked_count),
  };
}

/** The plan of the standings statement, for the benchmark's report. */
export async function explainStandings(db: Knex, q: StandingsQuery): Promise<string> {
  const result = await db.raw<{ rows: { 'QUERY PLAN': string }[] }>(`explain (analyze, buffers) ${STANDINGS_SQL}`, {
    accountId: q.accountId,
    definitionId: q.definitionId,
    rankBy: q.rankBy,
    periodKey: q.periodKey,
    limit: q.limit,
    memberId: q.memberId ?? null,
  });
  return result.rows.map((r) => r['QUERY PLAN']).join('\n');
}

/**
 * "Member 4821": four digits from a keyed hash of the leaderboard and the member, stable per board,
 * different across boards, and telling nothing of the member's id. Two members of a board may get
 * the same digits; the name is only a label.
 */
export function anonymousName(key: Buffer, leaderboardId: string, memberId: string): string {
  const digest = createHmac('sha256', key).update(`${leaderboardId}:${memberId}`).digest();
  return `Member ${1000 + (digest.readUInt32BE(0) % 9000)}`;
}

/**
 * "Marie D.": the first name and the last name's initial; a first name alone as it is; without a
 * first name, the anonymous label (never an id or an e-mail address).
 */
export function displayName(mode: DisplayNameMode, key: Buffer, leaderboardId: string, entry: Pick<StandingEntry, 'memberId' | 'firstName' | 'lastName'>): string {
  const first = entry.firstName?.trim();
  if (mode === 'anonymous' || !first) return anonymousName(key, leaderboardId, entry.memberId);
  const initial = Array.from(entry.lastName?.trim() ?? '')[0];
  return initial ? `${first} ${initial.toLocaleUpperCase()}.` : first;
}
