import {
  Api,
  type ChallengeProgress,
  type Definition,
  LIVE_STREAK_PROGRESS,
  loadPoints,
  NEWEST_FIRST,
  OLDEST_FIRST,
  type Points,
  redemptionWith,
  type RewardLog,
  type StreakProgress,
  whereIn,
} from '@loyalty/view-model';

/** Where and as whom to read the core: the customer's member, as the app's /pos/customer route answers. */
export interface Access {
  accessToken: string;
  accountId: string;
  coreUrl: string;
  /** The shop's currency, null while the app does not know it. */
  currency?: string | null;
}

/** Everything the block and the modal show of the customer. */
export interface CustomerData {
  streaks: Definition[];
  streakProgress: StreakProgress[];
  challenges: Definition[];
  challengeProgress: ChallengeProgress[];
  /** Newest first. */
  logs: RewardLog[];
  /** Null while the merchant has points off. */
  points: Points | null;
  core: Core;
  /** The shop's currency (ISO 4217), which a reward's fixed amount is in; absent when the app does not know it. */
  currency?: string;
}

/** The staff member's POS account has no permission for the app: POS gives no session token. */
export class NoAccess extends Error {}

/**
 * Trades the staff member's session token for the customer's end-user token at the app, then reads
 * the core as that member. Any failure rejects.
 */
export async function loadCustomer(
  appUrl: string,
  sessionToken: () => Promise<string | undefined>,
  customerId: number,
  languageCode: string,
): Promise<CustomerData> {
  const token = await sessionToken();
  if (!token) throw new NoAccess();
  const res = await fetch(`${appUrl}/pos/customer?customer=${customerId}`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`${res.status} from the POS route`);
  const access = (await res.json()) as Access;
  const core = new Core(access, languageCode);
  const [streaks, streakProgress, challenges, challengeProgress, logs, points] = await Promise.all([
    core.api.list('streak', OLDEST_FIRST),
    core.api.list('streak_progress', LIVE_STREAK_PROGRESS),
    core.api.list('challenge', OLDEST_FIRST),
    core.api.list('challenge_progress', NEWEST_FIRST),
    core.api.list('reward_log', { ...NEWEST_FIRST, limit: 20 }),
    loadPoints(core.api),
  ]);
  return {
    streaks,
    streakProgress,
    challenges,
    challengeProgress,
    logs,
    points,
    core,
    ...(access.currency ? { currency: access.currency } : {}),
  };
}

/** Whether the customer has done anything in the program yet: any progress, reward or points. */
export const isMember = (d: CustomerData): boolean =>
  d.streakProgress.length + d.challengeProgress.length + d.logs.length > 0 ||
  Boolean(d.points?.member?.pointsEarnedInTierWindow || d.points?.member?.pointsBalance);

/** What came of a redemption: its reward log (its code may come later), a refusal by the core's code, or no answer. */
export type Redemption =
  | { kind: 'redeemed'; log: RewardLog; pointsBalance: number | null }
  | { kind: 'refused'; code: 'insufficient_points' | 'not_redeemable' }
  | { kind: 'failed' };

/**
 * The member's calls: the view model's reads, and the redemption with its `uniqueIdentifier`
 * (CONTRACT §19), which the view model's `redeem` does not send.
 */
export class Core {
  readonly api: Api;

  constructor(
    private readonly access: Access,
    private readonly languageCode: string,
  ) {
    this.api = new Api({ baseUrl: access.coreUrl, accountId: access.accountId, accessToken: access.accessToken, languageCode });
  }

  private call(path: string, init: { method?: string; body?: unknown; query?: Record<string, unknown> } = {}): Promise<Response> {
    const url = new URL(`${this.access.coreUrl.replace(/\/$/, '')}/api/v1.0/schema/${path}`);
    for (const [k, v] of Object.entries(init.query ?? {})) url.searchParams.set(k, JSON.stringify(v));
    url.searchParams.set('languageCode', this.languageCode);
    const headers: Record<string, string> = { 'x-account-id': this.access.accountId, 'x-enduser-access-token': this.access.accessToken };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    return fetch(url, { method: init.method ?? 'GET', headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  }

  /**
   * Redeems the reward once for `uniqueIdentifier`: a replay (a retry whose first answer was lost,
   * or a second tap) is the core's 409 duplicate_unique_identifier, and then the reward log the
   * first one made is found through the member's `redeemed` point entry that carries the identifier.
   */
  async redeem(rewardId: string, uniqueIdentifier: string): Promise<Redemption> {
    let res: Response;
    try {
      res = await this.call(`reward/record/${encodeURIComponent(rewardId)}/action/redeem`, { method: 'POST', body: { uniqueIdentifier } });
    } catch {
      return { kind: 'failed' };
    }
    if (res.ok) {
      const { data } = (await res.json()) as { data: { rewardLog: RewardLog; pointsBalance: number } };
      return { kind: 'redeemed', log: data.rewardLog, pointsBalance: data.pointsBalance };
    }
    const code = res.status === 409 ? ((await res.json()) as { error: { code: string } }).error.code : undefined;
    if (code === 'insufficient_points' || code === 'not_redeemable') return { kind: 'refused', code };
    if (code !== 'duplicate_unique_identifier') return { kind: 'failed' };
    const log = await this.redeemedWith(uniqueIdentifier).catch(() => null);
    return log ? { kind: 'redeemed', log, pointsBalance: null } : { kind: 'failed' };
  }

  private async redeemedWith(uniqueIdentifier: string): Promise<RewardLog | null> {
    const entries = await this.call('point_entry/record', {
      query: { filters: redemptionWith(uniqueIdentifier) },
    });
    if (!entries.ok) return null;
    const [entry] = ((await entries.json()) as { data: { linkedSchemaSlug: string | null; linkedSchemaRecordId: string | null }[] }).data;
    if (entry?.linkedSchemaSlug !== 'reward_log' || !entry.linkedSchemaRecordId) return null;
    return this.log(entry.linkedSchemaRecordId);
  }

  async log(id: string): Promise<RewardLog | null> {
    return (await this.api.list('reward_log', { filters: whereIn('id', [id]) }))[0] ?? null;
  }
}

/** How long a reward issued as a Shopify discount may take for the app to stamp its code (CONTRACT §16). */
export const CODE_WAIT_MS = 1000;
export const CODE_TRIES = 8;

/** The reward log with its code: read again while the app has not stamped it yet; as last read when it does not come in time. */
export async function withCode(
  core: Core,
  log: RewardLog,
  wait = (ms: number) => new Promise((r) => setTimeout(r, ms)),
): Promise<RewardLog> {
  let current = log;
  for (let tries = 0; !current.couponCode && current.rewardLogStatus === 'issued' && tries < CODE_TRIES; tries++) {
    await wait(CODE_WAIT_MS);
    current = (await core.log(log.id).catch(() => null)) ?? current;
  }
  return current;
}

/** What the modal needs of POS's persistent storage (`shopify.storage`), where an unsettled redemption's identifier waits. */
export interface IdStore {
  get(key: string): Promise<unknown>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<boolean>;
}

/**
 * Exactly one redemption per intent: the first tap on a reward makes an identifier from the POS
 * session (the user, the location, the moment) and keeps it in POS's storage until the core has
 * answered for good, so a retry after a lost answer, even from a reopened modal, sends the same
 * one; a tap while one is under way gets that one's outcome. POS carts carry no id to derive it from.
 */
export class Redeemer {
  private readonly running = new Map<string, Promise<Redemption>>();

  constructor(
    private readonly core: Core,
    private readonly store: IdStore,
    private readonly session: { userId: number; locationId: number },
    private readonly customerId: number,
  ) {}

  redeem(rewardId: string): Promise<Redemption> {
    const key = `redeem:${this.customerId}:${rewardId}`;
    const running = this.running.get(key);
    if (running) return running;
    const attempt = this.attempt(key, rewardId).finally(() => this.running.delete(key));
    this.running.set(key, attempt);
    return attempt;
  }

  private async attempt(key: string, rewardId: string): Promise<Redemption> {
    let id = (await this.store.get(key).catch(() => undefined)) as string | undefined;
    if (!id) {
      id = `pos:${this.customerId}:${rewardId}:${this.session.userId}:${this.session.locationId}:${Date.now().toString(36)}`;
      // A full storage only loses the retry across a closed modal; the tap still redeems once.
      await this.store.set(key, id).catch(() => undefined);
    }
    const outcome = await this.core.redeem(rewardId, id);
    // Settled: the next tap is a new redemption.
    if (outcome.kind !== 'failed') await this.store.delete(key).catch(() => undefined);
    return outcome;
  }
}
