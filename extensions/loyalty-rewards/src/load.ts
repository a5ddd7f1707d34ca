import {
  Api,
  type Board,
  type ChallengeProgress,
  type Definition,
  LIVE_MISSION_PROGRESS,
  LIVE_STREAK_PROGRESS,
  loadBoards,
  loadPoints,
  type MissionProgress,
  NEWEST_FIRST,
  OLDEST_FIRST,
  type Points,
  type RewardLog,
  type Standings,
  type StreakProgress,
} from '@loyalty/view-model';

/** Everything the page shows, read at once: the page has no tabs to defer reads to. */
export interface PageData {
  streaks: Definition[];
  streakProgress: StreakProgress[];
  challenges: Definition[];
  challengeProgress: ChallengeProgress[];
  missions: Definition[];
  missionProgress: MissionProgress[];
  boards: { board: Board; standings: Standings }[];
  logs: RewardLog[];
  /** Null while the merchant has points off; with the member's history while on. */
  points: Points | null;
  /** The shop's currency (ISO 4217), which its points are earned per unit of; absent when the app does not know it. */
  currency?: string;
  /** The title of the gift the shop gives a referred friend for their first order; absent when it gives none. */
  friendGift?: string;
  /** The shop's storefront (`https://shop.example`), where a member's referral link leads; absent when it could not be read. */
  storefrontUrl?: string;
  /** The member's own calls: redeeming, their record again when a redemption was refused, their entries after one, their birthday, a follow. */
  api: Pick<Api, 'redeem' | 'me' | 'list' | 'setBirthday' | 'follow'>;
}

/**
 * Trades the page's session token for the customer's end-user token at the app, then reads the
 * core as that member. Any failure rejects, and the page offers a retry, but the shop's
 * `storefrontUrl` (read meanwhile), whose failure only leaves the referral link out.
 */
export async function loadPage(
  appUrl: string,
  sessionToken: () => Promise<string>,
  languageCode: string,
  storefrontUrl: () => Promise<string | undefined>,
): Promise<PageData> {
  const storefront = storefrontUrl().catch(() => undefined);
  const trade = async () => {
    const res = await fetch(`${appUrl}/customer-account/token`, { headers: { authorization: `Bearer ${await sessionToken()}` } });
    if (!res.ok) throw new Error(`${res.status} from the token route`);
    return (await res.json()) as {
      accessToken: string;
      accountId: string;
      coreUrl: string;
      currency?: string | null;
      friendGift?: string | null;
    };
  };
  const { accessToken, accountId, coreUrl, currency, friendGift } = await trade();
  // A page left open past the token's life trades a fresh session token for a fresh one.
  const api = new Api({ baseUrl: coreUrl, accountId, accessToken, languageCode, renewToken: async () => (await trade()).accessToken });
  const [streaks, streakProgress, challenges, challengeProgress, missions, missionProgress, logs, boards, points] = await Promise.all([
    api.list('streak', OLDEST_FIRST),
    api.list('streak_progress', LIVE_STREAK_PROGRESS),
    api.list('challenge', OLDEST_FIRST),
    api.list('challenge_progress', NEWEST_FIRST),
    api.list('mission', OLDEST_FIRST),
    api.list('mission_progress', LIVE_MISSION_PROGRESS),
    api.list('reward_log', { ...NEWEST_FIRST, limit: 50 }),
    loadBoards(api).then((list) => Promise.all(list.map(async (board) => ({ board, standings: await api.standings(board.id) })))),
    loadPoints(api, { history: true }),
  ]);
  const shop = await storefront;
  return {
    streaks,
    streakProgress,
    challenges,
    challengeProgress,
    missions,
    missionProgress,
    boards,
    logs,
    points,
    ...(currency ? { currency } : {}),
    ...(friendGift ? { friendGift } : {}),
    ...(shop ? { storefrontUrl: shop } : {}),
    api,
  };
}

/** Whether the member has done anything yet: any progress, reward, rank or points. */
export const hasActivity = (d: PageData): boolean =>
  d.streakProgress.length + d.challengeProgress.length + d.missionProgress.length + d.logs.length > 0 ||
  d.boards.some((b) => b.standings.caller) ||
  Boolean(d.points?.member?.pointsEarnedInTierWindow || d.points?.member?.pointsBalance);
