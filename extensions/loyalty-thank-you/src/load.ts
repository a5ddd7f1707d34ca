import {
  Api,
  type ChallengeProgress,
  type Definition,
  LIVE_MISSION_PROGRESS,
  LIVE_STREAK_PROGRESS,
  loadPoints,
  type MissionProgress,
  NEWEST_FIRST,
  type Points,
  type RewardLog,
  type StreakProgress,
  whereIn,
} from '@loyalty/view-model';

type Kind = 'streak' | 'challenge' | 'mission';

/** What the app knows of the order (its /checkout/order route). */
export interface OrderFacts {
  name: string;
  state: 'earned' | 'partly_refunded' | 'refunded' | 'cancelled' | 'skipped';
  /** After the tier's multiplier; null: the order earned no points (points off then). */
  points: { earned: number; reversed: number } | null;
  counted: { kind: Kind; definitionId: string; value: number; reversed: number }[];
  rewardLogIds: string[];
}

/** A program the order counted for, with the member's progress on it now. */
export type Counted =
  | { kind: 'streak'; def: Definition; progress: StreakProgress | undefined }
  | { kind: 'challenge'; def: Definition; progress: ChallengeProgress[] }
  | { kind: 'mission'; def: Definition; progress: MissionProgress[] };

export interface OrderData {
  order: OrderFacts;
  counted: Counted[];
  /** The reward logs the order earned: held ones say when they come. */
  rewards: RewardLog[];
  /** Null while the merchant has points off. */
  points: Points | null;
  /** The title of the gift the shop gives a friend the member refers; absent when it gives none. */
  friendGift?: string;
}

/** A guest checkout (no customer in the token); the order not in the app yet (its webhook is on its way); or what it earned. */
export type OrderView = { kind: 'guest' } | { kind: 'waiting' } | { kind: 'order'; data: OrderData };

/**
 * Asks the app about the order with the page's session token, then reads the member's progress on
 * what it counted for, the reward logs it earned and their points from the core with the end-user
 * token the app answered, and the gift a friend the member refers gets. Any failure rejects.
 */
export async function loadOrder(
  appUrl: string,
  sessionToken: () => Promise<string>,
  orderId: string,
  languageCode: string,
): Promise<OrderView> {
  const res = await fetch(`${appUrl}/checkout/order?order=${encodeURIComponent(orderId)}`, {
    headers: { authorization: `Bearer ${await sessionToken()}` },
  });
  if (res.status === 401) {
    const body = (await res.json().catch(() => null)) as { error?: { code?: string } } | null;
    if (body?.error?.code === 'no_customer') return { kind: 'guest' };
  }
  if (!res.ok) throw new Error(`${res.status} from the order route`);
  const answer = (await res.json()) as {
    order: OrderFacts | null;
    accessToken: string;
    accountId: string;
    coreUrl: string;
    friendGift?: string | null;
  };
  if (!answer.order) return { kind: 'waiting' };
  const { order } = answer;
  const api = new Api({ baseUrl: answer.coreUrl, accountId: answer.accountId, accessToken: answer.accessToken, languageCode });
  const ids = (kind: Kind) => order.counted.filter((c) => c.kind === kind && c.value > c.reversed).map((c) => c.definitionId);
  const defs = (kind: Kind) => (ids(kind).length ? api.list(kind, { filters: whereIn('id', ids(kind)) }) : Promise.resolve([]));
  const [streaks, streakProgress, challenges, challengeProgress, missions, missionProgress, rewards, points] = await Promise.all([
    defs('streak'),
    ids('streak').length ? api.list('streak_progress', LIVE_STREAK_PROGRESS) : [],
    defs('challenge'),
    ids('challenge').length ? api.list('challenge_progress', NEWEST_FIRST) : [],
    defs('mission'),
    ids('mission').length ? api.list('mission_progress', LIVE_MISSION_PROGRESS) : [],
    order.rewardLogIds.length ? api.list('reward_log', { filters: whereIn('id', order.rewardLogIds) }) : [],
    loadPoints(api),
  ]);
  const counted: Counted[] = [
    ...streaks.map((def) => ({ kind: 'streak' as const, def, progress: streakProgress.find((p) => p.streakId === def.id) })),
    ...challenges.map((def) => ({ kind: 'challenge' as const, def, progress: challengeProgress.filter((p) => p.challengeId === def.id) })),
    ...missions.map((def) => ({ kind: 'mission' as const, def, progress: missionProgress.filter((p) => p.missionId === def.id) })),
  ];
  return { kind: 'order', data: { order, counted, rewards, points, ...(answer.friendGift ? { friendGift: answer.friendGift } : {}) } };
}
