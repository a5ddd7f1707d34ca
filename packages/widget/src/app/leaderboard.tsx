import {
  type Board,
  boardTitle,
  boardValue,
  boardWindow,
  fill,
  numberFormat,
  rankRows,
  type Standings,
  type Strings,
} from '@loyalty/view-model';

export function BoardPicker({ boards, picked, onPick, t }: { boards: Board[]; picked: number; onPick: (at: number) => void; t: Strings }) {
  return (
    <div class="lw-chips" role="group" aria-label={t.leaderboard}>
      {boards.map((board, at) => (
        <button key={board.id} type="button" aria-pressed={at === picked} onClick={() => onPick(at)}>
          {boardTitle(board)}
        </button>
      ))}
    </div>
  );
}

/** The top entries, the member's own row marked, and their rank below when outside the top. */
export function StandingsCard({
  board,
  standings,
  t,
  lang,
  member,
}: {
  board: Board;
  standings: Standings;
  t: Strings;
  lang: string | undefined;
  member: boolean;
}) {
  const n = numberFormat(lang);
  const rows = rankRows(standings, t.you);
  const window = boardWindow(board);
  return (
    <div class="lw-card" data-standings>
      <div>
        <h3>{boardTitle(board)}</h3>
        {board.eudDescription && <p class="lw-muted">{board.eudDescription}</p>}
        {window && <p class="lw-muted">{t[window]}</p>}
      </div>
      {rows.length ? (
        <ol class="lw-list">
          {rows.map((r, at) =>
            r ? (
              <li key={at} class={r.isCaller ? 'lw-me' : undefined} aria-current={r.isCaller || undefined}>
                <span class="lw-num">{n.format(r.rank)}</span>
                <span class="lw-name">{r.displayName}</span>
                {r.badge && <span class="lw-badge">{t.you}</span>}
                <span class="lw-value">{boardValue(board, r.value, t, lang)}</span>
              </li>
            ) : (
              <li key={at} class="lw-gap" aria-hidden="true">
                ⋯
              </li>
            ),
          )}
        </ol>
      ) : (
        <p class="lw-muted">{t.empty}</p>
      )}
      <p class="lw-muted lw-small">{member && !standings.caller ? t.notRanked : fill(t.ranked, { n: n.format(standings.rankedCount) })}</p>
    </div>
  );
}
