import { createHmac } from 'node:crypto';
import type { Knex } from 'knex';
import { ident, run } from '../db/prepared.js';
import type { LanguageCode } from '../formats.js';
import type { Period } from './periods.js';
import { periodBounds, periodKey } from './periods.js';
import { transaction } from '../db/transaction.js';

/*
 * Leaderboard standings (CONTRACT §15). The database keeps, per definition and way of ranking,
 * each member's value with the instant it was reached and counts of values per bucket (migration
 * 20261124000300_leaderboards), in the transaction of every progress write, and reads a board in
 * one statement.
 */

export const RANK_BY = ['current_run', 'longest_run', 'window_progress', 'completions', 'points'] as const;
export type RankBy = (typeof RANK_BY)[number];

/** What a board ranks: a definition's progress, or the points members earn (the account's points setting). */
export const BOARD_KINDS = ['streak', 'challenge', 'mission', 'points_setting'] as const;
export type BoardKind = (typeof BOARD_KINDS)[number];

/** The ways each kind ranks, its default first. */
export const RANKS_OF: Readonly<Record<BoardKind, readonly RankBy[]>> = {
  streak: ['current_run', 'longest_run'],
  challenge: ['window_progress'],
  mission: ['completions'],
  points_setting: ['points'],
};

export const DISPLAY_NAMES = ['first_name_initial', 'anonymous'] as const;
export type DisplayNameMode = (typeof DISPLAY_NAMES)[number];

/** Ways of ranking that keep one standing per window (a challenge's, or a calendar month for points). */
export const isWindowed = (rankBy: RankBy) => rankBy === 'window_progress' || rankBy === 'points';

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
  await unrankHeldOut(trx, accountId, definitionId, rankBy);
}

/** Takes the members held out of the definition off standings a build wrote (CONTRACT §18). */
async function unrankHeldOut(trx: Knex, accountId: string, definitionId: string, rankBy: RankBy): Promise<void> {
  await trx.raw('select loyalty_standings_unrank_held_out(?, ?, ?)', [accountId, definitionId, rankBy]);
}

/**
 * Ranks a definition's boards afresh after its holdout changed: members newly held out leave them,
 * members no longer held out come back with their progress. Over at most `inlineMax` progress
 * records that is done now, in the request; otherwise the background builder does it, and reads
 * answer 503 meanwhile, as for a new large board.
 */
export async function rerankAfterHoldout(
  trx: Knex,
  definition: { accountId: string; slug: BoardKind; definitionId: string },
  inlineMax: number,
): Promise<void> {
  const boards = trx('leaderboard').where({ account_id: definition.accountId, linked_schema_record_id: definition.definitionId });
  const ranks = await boards.clone().distinct<{ rank_by: RankBy }[]>('rank_by');
  if (!ranks.length) return;
  if (!(await fewRecords(trx, definition, inlineMax))) {
    await boards.update({ standings_ready: false });
    return;
  }
  for (const { rank_by } of ranks) {
    for (let after: string | null = null; ;) {
      after = await buildBatch(trx, definition.accountId, definition.definitionId, rank_by, after, BUILD_BATCH);
      if (after === null) break;
    }
    await unrankHeldOut(trx, definition.accountId, definition.definitionId, rank_by);
  }
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

export interface BoardStandingsQuery {
  leaderboardId: string;
  /** The caller's account; undefined when the caller named none (a guest without one). */
  accountId: string | undefined;
  /** End users and guests: live leaderboards only. */
  live: boolean;
  /** The end user whose own standing is wanted. */
  memberId: string | undefined;
  /** Entries wanted; the leaderboard's size when undefined. */
  limit: number | undefined;
  /** The window asked for (challenges). */
  periodKey: string | undefined;
  /** The current window of each period in the board's account's time zone, when known. */
  windows: Readonly<Record<Period, string>> | undefined;
}

export interface BoardStandings {
  board: {
    account_id: string;
    linked_schema_slug: BoardKind;
    linked_schema_record_id: string;
    rank_by: RankBy;
    size: number;
    display_name: DisplayNameMode;
  };
  /** The definition's period; null once the definition is deleted. */
  period: Period | null;
  /** The window read ('' for rankings without one); undefined when none could be chosen. */
  periodKey: string | undefined;
  standings: Standings | undefined;
}

/** A leaderboard's current window of each period kind, in a time zone. */
export function currentWindows(now: Date, zone: string): Record<Period, string> {
  return { daily: periodKey(now, 'daily', zone), weekly: periodKey(now, 'weekly', zone), monthly: periodKey(now, 'monthly', zone) };
}

/**
 * The leaderboard as the caller may see it, and its standings, in one call to the database
 * function `loyalty_leaderboard_standings` (migration 20261125000100), whose plans are made once
 * per connection: planning the statement would cost as much as running it. Every log acknowledged
 * before the call counts: the standings are written with the progress. Undefined when the caller
 * may not see the leaderboard.
 */
export async function readBoardStandings(db: Knex, q: BoardStandingsQuery): Promise<BoardStandings | undefined> {
  const [row] = await run(db, {
    text: `select account_id, linked_schema_slug, linked_schema_record_id, rank_by, size, display_name, aggregation_period, period_key,
                  entries, ranked_count, caller_value, caller_rank
             from loyalty_leaderboard_standings($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    values: [
      q.leaderboardId,
      q.accountId ?? null,
      q.live,
      q.memberId ?? null,
      q.limit ?? null,
      q.periodKey ?? null,
      q.windows?.daily ?? null,
      q.windows?.weekly ?? null,
      q.windows?.monthly ?? null,
    ],
  });
  if (!row) return undefined;
  const {
    aggregation_period: period,
    period_key: window,
    entries,
    ranked_count: rankedCount,
    caller_value: callerValue,
    caller_rank: callerRank,
    ...board
  } = row as BoardStandings['board'] & {
    aggregation_period: Period | null;
    period_key: string | null;
    entries: StandingEntry[] | null;
    ranked_count: string | null;
    caller_value: number | null;
    caller_rank: string | null;
  };
  return {
    board,
    period,
    periodKey: window ?? undefined,
    standings:
      entries === null
        ? undefined
        : {
            entries,
            caller: callerValue !== null && callerRank !== null ? { rank: Number(callerRank), value: callerValue } : null,
            rankedCount: Number(rankedCount),
          },
  };
}

/** What the anonymous label calls a member, in each language a board is read in. */
const MEMBER_WORD: Readonly<Record<LanguageCode, string>> = {
  en: 'Member',
  es: 'Miembro',
  fr: 'Membre',
  de: 'Mitglied',
  'zh-CN': '会员',
  ja: 'メンバー',
  pt: 'Membro',
  it: 'Membro',
  ko: '회원',
};

/**
 * "Member 4821" ("Mitglied 4821" read in German): four digits from a keyed hash of the leaderboard
 * and the member, stable per board whatever the language, different across boards, and telling
 * nothing of the member's id. Two members of a board may get the same digits; the name is only a label.
 */
export function anonymousName(key: Buffer, leaderboardId: string, memberId: string, language: LanguageCode = 'en'): string {
  const digest = createHmac('sha256', key).update(`${leaderboardId}:${memberId}`).digest();
  return `${MEMBER_WORD[language]} ${1000 + (digest.readUInt32BE(0) % 9000)}`;
}

/** The longest first name a board shows, in characters; longer ones are cut with an ellipsis. */
export const DISPLAY_NAME_MAX = 20;

/**
 * Control, format (bidi overrides, zero-width joiners), private-use and unassigned characters, and
 * lone surrogates: none belongs in a name, and some would reorder or hide what a board shows.
 */
const INVISIBLE = /[\p{C}]/gu;

/**
 * What shoppers type into a name field and a public board must not show: an e-mail address, a
 * link, a phone number, or markup.
 */
const CONTACT_OR_MARKUP = [
  /@/,
  /[<>]/,
  /:\/\/|www\.|[\p{L}\d-]\.\p{L}{2,}/iu,
  // A scheme without slashes (javascript:, data:, mailto:, tel:) and a host of any length with a path.
  /\b[a-z][a-z\d+.-]*:\S/iu,
  /[\p{L}\d-]\.[\p{L}\d-]+\//u,
  /(?:\d[\s().+-]*){6}/,
];

/** A name as a public board may show it: one line of visible text, or empty. */
function visibleName(name: string | null | undefined): string {
  return (name ?? '').replace(INVISIBLE, '').replace(/\s+/gu, ' ').trim();
}

/**
 * "Marie D.": the first name (cut at DISPLAY_NAME_MAX characters) and the last name's initial
 * letter; a first name alone as it is. The anonymous label instead when there is no first name or
 * it looks like contact details or markup: shoppers' own text reaches everyone who reads the board.
 */
export function displayName(
  mode: DisplayNameMode,
  key: Buffer,
  leaderboardId: string,
  entry: Pick<StandingEntry, 'memberId' | 'firstName' | 'lastName'>,
  language: LanguageCode = 'en',
): string {
  const first = visibleName(entry.firstName);
  if (mode === 'anonymous' || !first || CONTACT_OR_MARKUP.some((pattern) => pattern.test(first)))
    return anonymousName(key, leaderboardId, entry.memberId, language);
  const characters = Array.from(first);
  const shown =
    characters.length > DISPLAY_NAME_MAX
      ? `${characters
          .slice(0, DISPLAY_NAME_MAX - 1)
          .join('')
          .trimEnd()}…`
      : first;
  const initial = Array.from(visibleName(entry.lastName)).find((c) => /\p{L}/u.test(c));
  return initial ? `${shown} ${initial.toLocaleUpperCase()}.` : shown;
}

/**
 * Starts keeping a new board's standings (CONTRACT §15). When a ready board ranks the definition
 * this way they are kept already; when none does and the definition has at most `inlineMax`
 * progress records they are built now, in the request; otherwise the board is left to the
 * background builder (`buildPendingStandings`), which a large definition needs: a build in the
 * request held every log of the definition for as long as it took. Answers whether they are ready.
 */
export async function startStandings(
  trx: Knex,
  board: { accountId: string; slug: BoardKind; definitionId: string; rankBy: RankBy; leaderboardId: string },
  inlineMax: number,
): Promise<boolean> {
  const others = await trx<{ id: string; account_id: string; linked_schema_record_id: string; rank_by: RankBy; standings_ready: boolean }>(
    'leaderboard',
  )
    .where({ account_id: board.accountId, linked_schema_record_id: board.definitionId, rank_by: board.rankBy })
    .whereNot('id', board.leaderboardId)
    .select('standings_ready');
  if (others.some((o) => o.standings_ready)) return true;
  if (others.length) return false;
  if (!(await fewRecords(trx, board, inlineMax))) return false;
  await keepStandings(trx, board.accountId, board.definitionId, board.rankBy, board.leaderboardId);
  return true;
}

/** Whether a board's standings build from at most `inlineMax` records, few enough to build in a request. */
async function fewRecords(trx: Knex, board: { accountId: string; slug: BoardKind; definitionId: string }, inlineMax: number) {
  // Points boards build from the account's point entries, the others from the definition's progress.
  const source =
    board.slug === 'points_setting'
      ? { sql: `select 1 from point_entry where account_id = ? limit ?`, values: [board.accountId] }
      : {
          sql: `select 1 from ${ident(`${board.slug}_progress`)} where account_id = ? and ${ident(`${board.slug}_id`)} = ? limit ?`,
          values: [board.accountId, board.definitionId],
        };
  const [{ n }] = await trx
    .raw<{ rows: [{ n: number }] }>(`select count(*)::int as n from (${source.sql}) s`, [...source.values, inlineMax + 1])
    .then((r) => r.rows);
  return n <= inlineMax;
}

const BUILD_BATCH = 2_000;

/** Builds one batch of a definition's standings, the members after `after`; the last member built, null when done. */
async function buildBatch(trx: Knex, accountId: string, definitionId: string, rankBy: RankBy, after: string | null, batch: number) {
  const { rows } = await trx.raw<{ rows: [{ last: string | null }] }>('select loyalty_standings_build_batch(?, ?, ?, ?, ?) as last', [
    accountId,
    definitionId,
    rankBy,
    after,
    batch,
  ]);
  return rows[0].last;
}

/**
 * Builds the standings of boards created over large definitions, a batch of members per
 * transaction under the standings' exclusive lock (a log of the definition waits for one batch at
 * most), and marks each board ready with its last batch. Several processes may run it: a board is
 * built by whoever holds its build lock, the others pass it by. Answers how many boards it readied.
 */
export async function buildPendingStandings(db: Knex, batch = BUILD_BATCH): Promise<number> {
  const boards = await db<{ id: string; account_id: string; linked_schema_record_id: string; rank_by: RankBy }>('leaderboard')
    .where('standings_ready', false)
    .select('id', 'account_id', 'linked_schema_record_id', 'rank_by');
  let readied = 0;
  for (const board of boards) {
    let after: string | null = null;
    for (;;) {
      const step = await transaction(db, async (trx): Promise<'more' | 'done' | 'skip'> => {
        const lock = await trx.raw<{ rows: [{ mine: boolean }] }>('select pg_try_advisory_xact_lock(hashtextextended(?, 0)) as mine', [
          `loyalty_standings_build:${board.id}`,
        ]);
        if (!lock.rows[0].mine) return 'skip';
        const building = await trx('leaderboard').where({ account_id: board.account_id, id: board.id, standings_ready: false }).first('id');
        if (!building) return 'skip';
        after = await buildBatch(trx, board.account_id, board.linked_schema_record_id, board.rank_by, after, batch);
        if (after !== null) return 'more';
        await unrankHeldOut(trx, board.account_id, board.linked_schema_record_id, board.rank_by);
        // Every board ranking the definition this way shares the standings just built.
        await trx('leaderboard')
          .where({ account_id: board.account_id, linked_schema_record_id: board.linked_schema_record_id, rank_by: board.rank_by })
          .update({ standings_ready: true });
        return 'done';
      });
      if (step === 'done') readied += 1;
      if (step !== 'more') break;
    }
  }
  return readied;
}
