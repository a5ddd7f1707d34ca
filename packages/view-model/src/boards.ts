import { type Api, OLDEST_FIRST, whereIn } from './api.js';
import { fill, numberFormat, type Strings } from './i18n.js';
import type { Definition, Leaderboard, PointsSetting, Standings } from './model.js';
import { pointsName } from './points.js';
import { pointsText } from './progress.js';

/** A leaderboard with the definition it ranks (a points board: the points setting). */
export interface Board extends Leaderboard {
  def: Definition | PointsSetting;
}

/**
 * The live leaderboards whose definition is shown (a board of a draft definition, or by points while
 * points are not live, is left out): one
 * list read, then one read per kind of definition ranked, never one per leaderboard.
 */
export async function loadBoards(api: Api): Promise<Board[]> {
  const boards = await api.list('leaderboard', OLDEST_FIRST);
  const kinds = [...new Set(boards.map((b) => b.linkedSchemaSlug))];
  const defs = (
    await Promise.all(
      kinds.map((kind) =>
        api.list(kind, {
          filters: whereIn(
            'id',
            boards.filter((b) => b.linkedSchemaSlug === kind).map((b) => b.linkedSchemaRecordId),
          ),
        }),
      ),
    )
  ).flat();
  return boards.flatMap((board) => {
    const def = defs.find((d) => d.id === board.linkedSchemaRecordId);
    return def ? [{ ...board, def }] : [];
  });
}

/** The board's own title, else its definition's, else (points boards) what the merchant calls points. */
export const boardTitle = (board: Board): string | null =>
  board.eudTitle || ('eudTitle' in board.def ? board.def.eudTitle : board.def.eudCurrencyName);

/** The window a board ranks in, when it has one: a challenge's period, a calendar month for points. */
export const boardWindow = (board: Board): Definition['aggregationPeriod'] | null =>
  board.linkedSchemaSlug === 'points_setting'
    ? 'monthly'
    : board.linkedSchemaSlug === 'challenge' && 'aggregationPeriod' in board.def
      ? board.def.aggregationPeriod
      : null;

/**
 * A ranked value as a shopper reads it, saying what it counts: points by the merchant's name for
 * them ("1,200 Stars"), a streak's periods in a row ("12 in a row"), a mission's completions ("3×",
 * "3回"); a challenge's own unit (visits, an amount) is the merchant's, not known here, so its value
 * is left a number, as the challenge's own progress is.
 */
export function boardValue(board: Board, value: number, t: Strings, lang: string | undefined): string {
  if (board.linkedSchemaSlug === 'points_setting') return pointsText(value, pointsName(board.def as PointsSetting, t), lang);
  const n = numberFormat(lang).format(value);
  if (board.linkedSchemaSlug === 'streak') return fill(t.inARow, { n });
  return board.linkedSchemaSlug === 'mission' ? fill(t.times, { n }) : n;
}

/** A row of a leaderboard as shown: an entry, badged when it is the member's own among the top. */
export type RankRow = Standings['entries'][number] & { badge: boolean };

/**
 * The top entries, then, when the member ranks below them, a gap (null) and their own row named
 * `you`. The member's row among the entries keeps their display name and is badged.
 */
export function rankRows({ entries, caller }: Standings, you: string): (RankRow | null)[] {
  const rows: (RankRow | null)[] = entries.map((e) => ({ ...e, badge: e.isCaller }));
  if (caller && !entries.some((e) => e.isCaller)) rows.push(null, { ...caller, displayName: you, isCaller: true, badge: false });
  return rows;
}
