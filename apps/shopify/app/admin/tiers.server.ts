import type { AccountClient } from '../core/client.server';
import { records, whereAll, whereEquals } from '../core/records.server';
import { failureResponse } from '../core/failure';

/** What the tier pages read of the account's points setting (CONTRACT §19), one per account. */
export interface PointsContext {
  /** The shop's name for points in its default language; null when it has none. */
  currencyName: string | null;
  /** Months of earned points a tier counts; 0 counts them all. */
  windowMonths: number;
  on: boolean;
}

export async function pointsContext(api: AccountClient): Promise<PointsContext> {
  const listed = await records(api, 'points_setting').list({ limit: 1 });
  if (!listed.ok) throw failureResponse(listed.failure);
  const setting = listed.data[0];
  return {
    currencyName: setting?.eudCurrencyName?.trim() || null,
    windowMonths: setting?.tierWindowMonths ?? 12,
    on: setting?.status === 'live',
  };
}

/** The rewards a tier may give on entering, by name, newest first. */
export async function rewardNames(api: AccountClient): Promise<{ id: string; name: string }[]> {
  const listed = await records(api, 'reward').list({ limit: 250, sortBy: [{ fieldSlug: 'createdAt', order: 'DESC' }] });
  if (!listed.ok) throw failureResponse(listed.failure);
  return listed.data.map((r) => ({ id: r.id, name: r.name ?? '' }));
}

/** How many members each tier holds, by tier id: one count per tier, each on the core's index of members by tier. */
export async function membersPerTier(api: AccountClient, tierIds: readonly string[]): Promise<Map<string, number>> {
  const counted = await Promise.all(
    tierIds.map(async (id) => {
      const listed = await records(api, 'account_user').list({ filters: whereEquals('tierId', id), limit: 1, fetchTotalCount: true });
      if (!listed.ok) throw failureResponse(listed.failure);
      return [id, listed.total ?? 0] as const;
    }),
  );
  return new Map(counted);
}

/**
 * What a reward's delete takes away, for its confirmation: the tiers giving it on entering (by
 * name), how many milestones and missions give it, how many of its reward logs are held (a
 * delete revokes them, CONTRACT §17), and whether it is referred friends' gift.
 */
export async function rewardUses(
  api: AccountClient,
  rewardId: string,
): Promise<{ tiers: string[]; others: number; held: number; friendGift: boolean }> {
  const count = { limit: 1, fetchTotalCount: true } as const;
  const [tiers, milestones, missions, held, setting] = await Promise.all([
    records(api, 'tier').list({ filters: whereEquals('entryRewardId', rewardId), limit: 100 }),
    records(api, 'milestone').list({ filters: whereEquals('rewardId', rewardId), ...count }),
    records(api, 'mission').list({ filters: whereEquals('rewardId', rewardId), ...count }),
    records(api, 'reward_log').list({ filters: whereAll({ rewardId, rewardLogStatus: 'pending' }), ...count }),
    records(api, 'points_setting').list({ limit: 1 }),
  ]);
  const total = (listed: { ok: boolean; total?: number }) => (listed.ok ? (listed.total ?? 0) : 0);
  return {
    tiers: tiers.ok ? tiers.data.map((t) => t.name ?? '') : [],
    others: total(milestones) + total(missions),
    held: total(held),
    friendGift: setting.ok && setting.data[0]?.referralRewardId === rewardId,
  };
}
