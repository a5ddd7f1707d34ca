import type { AccountClient } from '../core/client.server';
import { type CoreFailure, coreFailure } from '../core/failure';
import { records } from '../core/records.server';
import { shopifyCustomerId } from '../shopify/customer-ids.server';

/** What the admin shows of a leaderboard's standings (CONTRACT §15), with each entry's member. */
export interface StandingsView {
  /** What the board ranks by (`current_run`, `points`, …): its values' column is named by it. */
  rankBy: string | null;
  /** The window shown (challenge boards), else null. */
  periodKey: string | null;
  /** The current window and the ones before it, newest first: the choice a challenge board offers. */
  windows: string[];
  /** `customerId`: the Shopify customer behind the entry, else null (then `externalId` names the member). */
  entries: { rank: number; value: number; displayName: string; externalId: string; customerId: number | null }[];
  rankedCount: number;
}

/** The standings, or why there are none: the core's refusal, or a program deleted since. */
export type StandingsResult = { ok: true; view: StandingsView } | { ok: false; failure: CoreFailure } | { ok: false; programGone: true };

const WINDOWS = 8;
const DAY_MS = 86_400_000;

/** ISO years with 53 weeks: those starting on a Thursday, and leap years starting on a Wednesday. */
function weeksIn(year: number): number {
  const jan1 = new Date(Date.UTC(year, 0, 1)).getUTCDay();
  const leap = new Date(Date.UTC(year, 1, 29)).getUTCMonth() === 1;
  return jan1 === 4 || (jan1 === 3 && leap) ? 53 : 52;
}

/** The window before `key`, for the core's period keys (`2026-11-21`, `2026-W47`, `2026-11`). */
export function previousKey(key: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(key)) return new Date(Date.parse(key) - DAY_MS).toISOString().slice(0, 10);
  const [year = 0, rest = 0] = key.split(/-W?/).map(Number);
  const pad = (n: number) => String(n).padStart(2, '0');
  if (key.includes('-W')) return rest > 1 ? `${year}-W${pad(rest - 1)}` : `${year - 1}-W${weeksIn(year - 1)}`;
  return rest > 1 ? `${year}-${pad(rest - 1)}` : `${year - 1}-12`;
}

/**
 * The standings of one window (the current one without `periodKey`). A chosen window is read beside
 * the current one, whose key anchors the list of windows to choose from.
 */
export async function readStandings(
  api: AccountClient,
  board: { id: string; linkedSchemaSlug?: string | null; linkedSchemaRecordId?: string | null; rankBy?: string | null },
  periodKey: string | null,
): Promise<StandingsResult> {
  const { id } = board;
  const read = (query: { periodKey?: string; limit?: number }) =>
    api.GET('/schema/leaderboard/record/{id}/standings', { params: { path: { id }, query } });
  const [shown, current] = await Promise.all([read(periodKey ? { periodKey } : {}), periodKey ? read({ limit: 1 }) : undefined]);
  if (!shown.response.ok || !shown.data) {
    // A board whose program was deleted has no window to read: the merchant is told that, not the core's refusal.
    const slug = board.linkedSchemaSlug;
    if (board.linkedSchemaRecordId && (slug === 'streak' || slug === 'challenge' || slug === 'mission')) {
      const program = await records(api, slug).get(board.linkedSchemaRecordId);
      if (!program.ok && program.failure.status === 404) return { ok: false, programGone: true };
    }
    return { ok: false, failure: coreFailure(shown.response.status, shown.error) };
  }
  const { data } = shown.data;
  const windows: string[] = [];
  for (let key = current?.data?.data.periodKey ?? data.periodKey; key && windows.length < WINDOWS; key = previousKey(key))
    windows.push(key);
  return {
    ok: true,
    view: {
      rankBy: board.rankBy ?? null,
      periodKey: data.periodKey,
      windows,
      entries: data.entries.map((e) => ({
        rank: e.rank,
        value: e.value,
        displayName: e.displayName,
        externalId: e.externalId ?? '',
        customerId: shopifyCustomerId(e.externalId),
      })),
      rankedCount: data.rankedCount,
    },
  };
}
