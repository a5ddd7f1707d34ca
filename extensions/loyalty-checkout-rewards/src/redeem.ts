import { type Api, ApiError, type RewardLog, redemptionWith, storeCredit, whereIn } from '@loyalty/view-model';

/** How often, and how many times, a redemption's reward log is read again while the app makes its Shopify discount (§16). */
export const POLL_MS = 1500;
export const POLL_TRIES = 8;

/** What came of a redemption: the code to apply, a code not made yet, store credit, too few points, or a refusal. */
export type Redeemed =
  | { kind: 'code'; log: RewardLog; code: string; pointsBalance?: number }
  | { kind: 'preparing'; log: RewardLog; pointsBalance?: number }
  | { kind: 'credit'; log: RewardLog; pointsBalance?: number }
  | { kind: 'short' }
  | { kind: 'failed' };

/**
 * The redemption's uniqueIdentifier (CONTRACT §19): one per checkout, buyer and reward, so a second
 * click, a retry or the block loaded again in the same checkout never spends twice.
 */
export const redemptionKey = (checkoutToken: string, customerId: string, rewardId: string): string =>
  `checkout:${checkoutToken}:${customerId}:${rewardId}`;

const readLog = async (api: Pick<Api, 'list'>, id: string): Promise<RewardLog | undefined> =>
  (await api.list('reward_log', { filters: whereIn('id', [id]) }))[0];

/**
 * Redeems `rewardId` once under `key`, or finds what an earlier redemption under it made: the core
 * refuses a replay with 409 duplicate_unique_identifier, and the member's own point entry with the
 * key links the reward log it created. A request whose answer was lost (network, 5xx) is sent once
 * more: the key makes that safe.
 */
async function redeemOrFind(api: Pick<Api, 'redeem' | 'list'>, rewardId: string, key: string) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await api.redeem(rewardId, key);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'duplicate_unique_identifier') {
        const [entry] = await api.list('point_entry', { filters: redemptionWith(key) });
        const log = entry?.linkedSchemaRecordId ? await readLog(api, entry.linkedSchemaRecordId) : undefined;
        if (!log) throw err;
        return { rewardLog: log, pointsBalance: undefined };
      }
      if (attempt > 0 || (err instanceof ApiError && err.status < 500)) throw err;
    }
  }
}

/**
 * Redeems a reward for its code, exactly once per key. A reward the app issues as a Shopify
 * discount gets its code a moment after the redemption (the app's event handler stamps it on the
 * reward log), so the log is read again until it has one.
 */
export async function redeemOnce(api: Pick<Api, 'redeem' | 'list'>, rewardId: string, key: string): Promise<Redeemed> {
  let found;
  try {
    found = await redeemOrFind(api, rewardId, key);
  } catch (err) {
    return { kind: err instanceof ApiError && err.code === 'insufficient_points' ? 'short' : 'failed' };
  }
  const { pointsBalance } = found;
  let log = found.rewardLog;
  for (let tries = 0; !log.couponCode && tries < POLL_TRIES; tries++) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    log = (await readLog(api, log.id).catch(() => undefined)) ?? log;
  }
  const balance = pointsBalance === undefined ? {} : { pointsBalance };
  if (!log.couponCode) return { kind: 'preparing', log, ...balance };
  if (storeCredit(log)) return { kind: 'credit', log, ...balance };
  return { kind: 'code', log, code: log.couponCode, ...balance };
}
