import { type Api, OLDEST_FIRST, whereIn } from './api.js';
import { fill, numberFormat, type Strings } from './i18n.js';
import type { Definition, Leaderboard, Standings } from './model.js';

/** A leaderboard with the definition it ranks. */
export interface Board extends Leaderboard {
  def: Definition;
}

/**
 * The live leaderboards whose definition the widget shows (a board of a draft definition is left
 * out): one list read, then one read per kind of definition ranked, never one per leaderboard.
 * Standings wait until the tab is opened.
 */
export async function loadBoards(api: Api): Promise<Board[]> {
  const boards = await api.list<Leaderboard>('leaderboard', OLDEST_FIRST);
  const kinds = [...new Set(boards.map((b) => b.linkedSchemaSlug))];
  const defs = (
    await Promise.all(
      kinds.map((kind) => api.list<Definition>(kind, { filters: whereIn('id', boards.filter((b) => b.linkedSchemaSlug === kind).map((b) => b.linkedSchemaRecordId)) })),
    )
  ).flat();
  return boards.flatMap((board) => {
    const def = defs.find((d) => d.id === board.linkedSchemaRecordId);
    return def ? [{ ...board, def }] : [];
  });
}

export function TrophyIcon() {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">
      <path d="M8 21h8M12 17v4M7 3h10v6a5 5 0 0 1-10 0zM7 5H4v2a4 4 0 0 0 3 4M17 5h3v2a4 4 0 0 1-3 4" />
    </svg>
  );
}

const titleOf = (board: Board) => board.eudTitle || board.def.eudTitle;

export function BoardPicker({ boards, picked, onPick, t }: { boards: Board[]; picked: number; onPick: (at: number) => void; t: Strings }) {
  return (
    <div class="lw-chips" role="group" aria-label={t.leaderboard}>
      {boards.map((board, at) => (
        <button key={board.id} type="button" aria-pressed={at === picked} onClick={() => onPick(at)}>
          {titleOf(board)}
        </button>
      ))}
    </div>
  );
}

/** The top entries, the member's own row marked, and their rank below when outside the top. */
export function StandingsCard({ board, standings, t, lang, member }: { board: Board; standings: Standings; t: Strings; lang: string | undefined; member: boolean }) {
  const n = numberFormat(lang);
  const { entries, caller } = standings;
  // The member's row among the entries keeps their display name and is badged; below the top it is "You".
  const row = (key: number, rank: number, name: string, value: number, me: boolean, badge = me) => (
    <li key={key} class={me ? 'lw-me' : undefined} aria-current={me || undefined}>
      <span class="lw-num">{n.format(rank)}</span>
      <span>{name}</span>
      {badge && <span class="lw-badge">{t.you}</span>}
      <span class="lw-value">{n.format(value)}</span>
    </li>
  );
  return (
    <div class="lw-card" data-standings>
      <div>
        <h3>{titleOf(board)}</h3>
        {board.eudDescription && <p class="lw-muted">{board.eudDescription}</p>}
        {board.linkedSchemaSlug === 'challenge' && <p class="lw-muted">{t[board.def.aggregationPeriod]}</p>}
      </div>
      {entries.length ? (
        <ol class="lw-list">
          {entries.map((e, at) => row(at, e.rank, e.displayName, e.value, e.isCaller))}
          {caller && !entries.some((e) => e.isCaller) && [<li key={-1} class="lw-gap" aria-hidden="true">⋯</li>, row(-2, caller.rank, t.you, caller.value, true, false)]}
        </ol>
      ) : (
        <p class="lw-muted">{t.empty}</p>
      )}
      <p class="lw-muted lw-small">{member && !caller ? t.notRanked : fill(t.ranked, { n: n.format(standings.rankedCount) })}</p>
    </div>
  );
}
