import { createHmac } from 'node:crypto';
import type { Knex } from 'knex';
import { run } from '../db/prepared.js';
import type { Period } from './periods.js';
import { periodBounds, periodKey } from './periods.js';
import type { LogKind } from './types.js';

/*
 * Leaderboard standings (CONTRACT §15). The database keeps, per definition and way of ranking,
 * each member's value with the instant it was reached and counts of values per bucket (migration
 * 20261124000300_leaderboards), in the transaction of every progress write, and reads a board in
 * one statement.
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
export async function keepStandings(
  trx: Knex,
  accountId: string,
  definitionId: string,
  rankBy: RankBy,
  leaderboardId: string,
): Promise<void> {
  await trx.raw('select loyalty_standings_rebuild(?, ?, ?, ?)', [accountId, definitionId, rankBy, leaderboardId]);
}

/** Stops keeping them (and drops them) unless a leaderboard other than `leaderboardId` ranks so. */
export async function dropStandings(
  trx: Knex,
  accountId: string,
  definitionId: string,
  rankBy: RankBy,
  leaderboardId: string,
): Promise<void> {
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

/**
 * Every log acknowledged before the call counts: the standings are written with the progress.
 * The statement is the database function `loyalty_standings` (migration
 * 20261124000300_leaderboards), whose plan is made once per connection: planning it would cost
 * as much as running it.
 */
export async function readStandings(db: Knex, q: StandingsQuery): Promise<Standings> {
  const [row] = await run(db, {
    text: 'select entries, ranked_count, caller_value, caller_rank from loyalty_standings($1, $2, $3, $4, $5, $6)',
    values: [q.accountId, q.definitionId, q.rankBy, q.periodKey, q.memberId ?? null, q.limit],
  });
  const {
    entries,
    ranked_count: rankedCount,
    caller_value: callerValue,
    caller_rank: callerRank,
  } = row as {
    entries: StandingEntry[];
    ranked_count: string;
    caller_value: number | null;
    caller_rank: string | null;
  };
  return {
    entries,
    caller: callerValue !== null && callerRank !== null ? { rank: Number(callerRank), value: callerValue } : null,
    rankedCount: Number(rankedCount),
  };
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
export function displayName(
  mode: DisplayNameMode,
  key: Buffer,
  leaderboardId: string,
  entry: Pick<StandingEntry, 'memberId' | 'firstName' | 'lastName'>,
): string {
  const first = entry.firstName?.trim();
  if (mode === 'anonymous' || !first) return anonymousName(key, leaderboardId, entry.memberId);
  const initial = Array.from(entry.lastName?.trim() ?? '')[0];
  return initial ? `${first} ${initial.toLocaleUpperCase()}.` : first;
}
