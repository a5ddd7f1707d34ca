import type { Knex } from 'knex';
import { CHALLENGE_STANDINGS, MISSION_STANDINGS, STREAK_STANDINGS } from './20261124000300_leaderboards.js';

/**
 * A progress write on a definition without a board costs its trigger the board locks and one
 * existence check, nothing more. Before, a streak's trigger made two standing changes, each
 * looking up the streak's holdout percent before taking its lock and finding no board (about a
 * third of a log's final statement, measured with pg_stat_statements). The locks still come
 * before the check, as in every standing change, so a board being built either sees this write or
 * waits for it.
 */
const TRIGGERS = [
  { body: STREAK_STANDINGS, definition: 'streak_id', rankBy: ['current_run', 'longest_run'] },
  { body: CHALLENGE_STANDINGS, definition: 'challenge_id', rankBy: ['window_progress'] },
  { body: MISSION_STANDINGS, definition: 'mission_id', rankBy: ['completions'] },
];

/** The trigger function `body` with the locks and the check for a board before what it did. */
function guarded(body: string, definition: string, rankBy: string[]): string {
  const locks = rankBy.map((r) => `perform loyalty_standings_lock(new.${definition}, '${r}', false);`).join('\n      ');
  return body.replace(
    /\bbegin\n/,
    `begin
      ${locks}
      if not exists (select 1 from leaderboard l
                      where l.account_id = new.account_id and l.linked_schema_record_id = new.${definition}
                        and l.rank_by in (${rankBy.map((r) => `'${r}'`).join(', ')})) then
        return null;
      end if;
`,
  );
}

export async function up(db: Knex): Promise<void> {
  for (const { body, definition, rankBy } of TRIGGERS) await db.raw(`create or replace ${guarded(body, definition, rankBy)}`);
}

export async function down(db: Knex): Promise<void> {
  for (const { body } of TRIGGERS) await db.raw(`create or replace ${body}`);
}
