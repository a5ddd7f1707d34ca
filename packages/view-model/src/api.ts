import type {
  ChallengeProgress,
  Definition,
  Leaderboard,
  Member,
  MissionProgress,
  PointEntry,
  PointsSetting,
  Redemption,
  Reward,
  RewardLog,
  Standings,
  StreakProgress,
  Tier,
} from './model.js';
import type { SocialNetwork } from './social.js';

/**
 * What the records the widget and the Rewards page list hold, by resource slug: the faces of
 * model.ts, which test/faces.test.ts holds to the core's OpenAPI document.
 */
export interface Faces {
  streak: Definition;
  challenge: Definition;
  mission: Definition;
  streak_progress: StreakProgress;
  challenge_progress: ChallengeProgress;
  mission_progress: MissionProgress;
  reward_log: RewardLog;
  leaderboard: Leaderboard;
  points_setting: PointsSetting;
  point_entry: PointEntry;
  reward: Reward;
  tier: Tier;
}

/** How long a call may go unanswered; then it fails as one without an answer (a redemption's key is kept for the next click, which finds it). */
const TIMEOUT_MS = 15_000;
/** A read the core asks to repeat shortly goes again twice at most, before the shopper is shown the error and its retry button. */
const READ_RETRIES = 2;
const MAX_RETRY_AFTER_S = 10;

/**
 * Waits out an answer that asks to be repeated shortly (503 or 429 whose `Retry-After` names at most
 * 10 seconds: a new large board being ranked, a moment's overload, a shop's guests' limit) and says
 * whether it did. Seconds only: a header absent, empty or an HTTP date names no wait, so no repeat.
 */
export async function waitedOut(res: Response): Promise<boolean> {
  const named = res.headers.get('retry-after') ?? '';
  if ((res.status !== 503 && res.status !== 429) || !/^\d+$/.test(named) || +named > MAX_RETRY_AFTER_S) return false;
  await new Promise((resolve) => setTimeout(resolve, +named * 1000));
  return true;
}

/** Where and as whom to read: the core's origin, the account, and the member's end-user token (absent: guest). */
export interface ApiConfig {
  baseUrl: string;
  accountId: string;
  accessToken?: string;
  languageCode?: string;
  /**
   * A fresh end-user token when the one held has expired (the core answers 401): a page open
   * longer than its token lives keeps working. Null: none to be had (signed out).
   */
  renewToken?: () => Promise<string | null | undefined>;
}

/**
 * Reads of the core's records API as the shopper (the widget and the customer account page): `x-account-id` always (guest list reads need
 * it), the end-user token in member mode, `languageCode` on every call. No caching here, so a
 * display change shows on the next page load.
 */
export class Api {
  /** `timeoutMs`: a call the core has not answered by then fails, so a hung core shows the error and its retry, not "Loading…" or a busy button for good. */
  constructor(
    private readonly config: ApiConfig,
    private readonly timeoutMs = TIMEOUT_MS,
  ) {
    this.token = config.accessToken;
  }

  get member(): boolean {
    return Boolean(this.config.accessToken);
  }

  /** The token in use, a renewal under way (the calls refused at once share it), and a token no renewal replaced. */
  private token: string | undefined;
  private renewing: Promise<string | null | undefined> | undefined;
  private unrenewed: string | undefined;

  /**
   * A token other than `refused`, renewed once for all the calls it failed; once a renewal gave none
   * (signed out, the page's source down), the calls that token fails ask no more.
   */
  private async renewed(refused: string): Promise<string | null | undefined> {
    if (this.token !== refused) return this.token;
    if (this.unrenewed === refused) return null;
    this.renewing ??= Promise.resolve()
      .then(() => this.config.renewToken!())
      .finally(() => (this.renewing = undefined));
    const fresh = await this.renewing.catch(() => null);
    if (fresh && fresh !== refused) this.token = fresh;
    else this.unrenewed = refused;
    return fresh;
  }

  private async call<T>(path: string, query: Record<string, unknown>, method = 'GET', body?: object): Promise<T> {
    const url = new URL(`${this.config.baseUrl.replace(/\/$/, '')}/api/v1.0/schema/${path}`);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, typeof v === 'string' ? v : JSON.stringify(v));
    if (this.config.languageCode) url.searchParams.set('languageCode', this.config.languageCode);
    const send = (token: string | undefined) => {
      const headers: Record<string, string> = { 'x-account-id': this.config.accountId };
      if (token) headers['x-enduser-access-token'] = token;
      if (body) headers['content-type'] = 'application/json';
      // A redemption times out too: one that happened there all the same is found by the next click, which sends its key again.
      const signal = AbortSignal.timeout(this.timeoutMs);
      return fetch(url, { method, headers, credentials: 'omit', signal, ...(body ? { body: JSON.stringify(body) } : {}) });
    };
    const token = this.token;
    let res = await send(token);
    // An expired token: the call did nothing, and goes again once with a fresh one.
    if (res.status === 401 && token && this.config.renewToken) {
      const fresh = await this.renewed(token);
      if (fresh && fresh !== token) res = await send(fresh);
    }
    // Reads only: a redemption that failed so is sent again by the next click, with its key.
    for (let retries = 0; method === 'GET' && retries < READ_RETRIES && (await waitedOut(res)); retries++) res = await send(this.token);
    if (!res.ok) {
      // The error's code says why a redemption was refused; a body that is not the core's has none.
      const body = (await res.json().catch(() => null)) as { error?: { code?: string } } | null;
      throw new ApiError(res.status, body?.error?.code, path);
    }
    return ((await res.json()) as { data: T }).data;
  }

  list<S extends keyof Faces>(slug: S, query: Record<string, unknown> = {}): Promise<Faces[S][]> {
    return this.call<Faces[S][]>(`${slug}/record`, { limit: 100, ...query });
  }

  standings(leaderboardId: string): Promise<Standings> {
    return this.call<Standings>(`leaderboard/record/${encodeURIComponent(leaderboardId)}/standings`, {});
  }

  /** The member's own record: their points balance and tier. */
  me(): Promise<Member> {
    return this.call<Member>('account_user/me', {});
  }

  /** Sets the member's birthday (MM-DD), which they may do once; answers their record. */
  setBirthday(birthday: string): Promise<Member> {
    return this.call<Member>('account_user/me', {}, 'PATCH', { birthday });
  }

  /**
   * Credits the member's follow of the shop's profile on `network` (`follows`): the first of each
   * network earns the setting's rate; refused with 409 already_followed or not_earnable.
   */
  follow(settingId: string, network: SocialNetwork): Promise<{ pointsBalance: number }> {
    return this.call(`points_setting/record/${encodeURIComponent(settingId)}/action/follow`, {}, 'POST', { network });
  }

  /**
   * Spends the member's points on a reward (CONTRACT §19); refused with 409 insufficient_points or
   * not_redeemable. With a `uniqueIdentifier`, a replay (a retry, a second click) is 409
   * duplicate_unique_identifier and spends nothing.
   */
  redeem(rewardId: string, uniqueIdentifier?: string): Promise<Redemption> {
    const path = `reward/record/${encodeURIComponent(rewardId)}/action/redeem`;
    return this.call<Redemption>(path, {}, 'POST', uniqueIdentifier === undefined ? undefined : { uniqueIdentifier });
  }
}

/** A refused call: its status and the core's error code. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    path: string,
  ) {
    super(`${status} from ${path}`);
  }
}

export const whereIn = (field: string, values: string[]) => ({
  operator: 'and',
  conditions: [{ fieldSlug: field, operator: 'in', fieldValue: values }],
});
/** A redemption's entry by the redemption's uniqueIdentifier, which is unique among redemptions only (CONTRACT §19). */
export const redemptionWith = (key: string) => ({
  operator: 'and',
  conditions: [
    { fieldSlug: 'uniqueIdentifier', operator: 'equals', fieldValue: key },
    { fieldSlug: 'reason', operator: 'equals', fieldValue: 'redeemed' },
  ],
});
export const OLDEST_FIRST = { sortBy: [{ fieldSlug: 'createdAt', order: 'ASC' }] };
export const NEWEST_FIRST = { sortBy: [{ fieldSlug: 'createdAt', order: 'DESC' }] };
export const LIVE_STREAK_PROGRESS = { ...NEWEST_FIRST, filters: whereIn('streakProgressStatus', ['in_progress', 'completed']) };
export const LIVE_MISSION_PROGRESS = { ...NEWEST_FIRST, filters: whereIn('missionProgressStatus', ['in_progress', 'completed']) };
