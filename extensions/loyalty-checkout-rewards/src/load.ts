import {
  Api,
  loadPoints,
  NEWEST_FIRST,
  offersCode,
  type Points,
  type Reward,
  type RewardLog,
  participant,
  whereIn,
} from '@loyalty/view-model';

/** The signed-in buyer's rewards as the block offers them. */
export interface MemberData {
  /** The core as the member: where redemptions go. */
  api: Api;
  /** Issued reward logs with a code to apply, or whose code the app is still making (§16), newest first. */
  codes: RewardLog[];
  /** Null while the merchant has points off. */
  points: Points | null;
  /** The rewards the member has the points for now, cheapest first. */
  redeemable: Reward[];
  /** The shop's currency (ISO 4217), which a reward's fixed amount is in; absent when the app does not know it. */
  currency?: string;
}

/**
 * Asks the app for the member's end-user token (and the codes their orders used) with the
 * checkout's session token, then reads the member's issued reward logs and the points program from the core. A guest (no customer in the
 * token) is null; any failure rejects.
 */
export async function loadMember(appUrl: string, sessionToken: () => Promise<string>, languageCode: string): Promise<MemberData | null> {
  const res = await fetch(`${appUrl}/checkout/member`, { headers: { authorization: `Bearer ${await sessionToken()}` } });
  if (res.status === 401) {
    const body = (await res.json().catch(() => null)) as { error?: { code?: string } } | null;
    if (body?.error?.code === 'no_customer') return null;
  }
  if (!res.ok) throw new Error(`${res.status} from the member route`);
  const answer = (await res.json()) as {
    accessToken: string;
    accountId: string;
    coreUrl: string;
    usedCodes: string[];
    currency?: string | null;
  };
  const api = new Api({ baseUrl: answer.coreUrl, accountId: answer.accountId, accessToken: answer.accessToken, languageCode });
  const [logs, points] = await Promise.all([
    api.list('reward_log', { ...NEWEST_FIRST, filters: whereIn('rewardLogStatus', ['issued']) }),
    loadPoints(api),
  ]);
  const now = Date.now();
  // A code one of the buyer's orders used is spent; an expired one would be refused; points are no code at all.
  const used = new Set(answer.usedCodes);
  const codes = logs.filter((log) => offersCode(log, now) && !used.has(log.couponCode?.toUpperCase() ?? ''));
  const member = participant(points?.member);
  // The core redeems rewards of kind code only (a points reward is earned, never bought), and nothing for a member the shop has paused.
  const redeemable = member && points ? points.rewards.filter((r) => r.rewardKind === 'code' && r.pointsCost <= member.pointsBalance) : [];
  return { api, codes, points, redeemable, ...(answer.currency ? { currency: answer.currency } : {}) };
}
