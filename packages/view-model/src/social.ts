import { type Api, ApiError } from './api.js';
import type { Member, PointEntry, PointsSetting } from './model.js';
import { loadPointHistory } from './points.js';

/**
 * Points for following the shop's social profiles (points_setting.pointsOnFollow and the profile
 * URLs, an addition to CONTRACT §19): which networks the storefront offers, and crediting a
 * member's follow. As at Smile.io and LoyaltyLion, the click that opens the profile is the follow:
 * no network tells a shop who follows it.
 */

export const SOCIAL_NETWORKS = ['instagram', 'tiktok', 'facebook', 'youtube', 'x', 'pinterest'] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];

/** Each network by its own name, which no language translates. */
const NETWORK_NAMES: Readonly<Record<SocialNetwork, string>> = {
  instagram: 'Instagram',
  tiktok: 'TikTok',
  facebook: 'Facebook',
  youtube: 'YouTube',
  x: 'X',
  pinterest: 'Pinterest',
};

const isNetwork = (v: string): v is SocialNetwork => (SOCIAL_NETWORKS as readonly string[]).includes(v);

/** A network's name ("TikTok"); an unknown one as written. */
export const networkName = (network: string): string => (isNetwork(network) ? NETWORK_NAMES[network] : network);

/** A profile the member may follow for points: where it is, and whether they have followed it (for points) already. */
export interface FollowOffer {
  network: SocialNetwork;
  url: string;
  followed: boolean;
}

/** The profiles that earn now (a URL set while `pointsOnFollow` is above 0), in the networks' order, each marked followed when among `followed`. */
export function followOffers(setting: PointsSetting, followed: readonly string[] = []): FollowOffer[] {
  if (!setting.pointsOnFollow) return [];
  return SOCIAL_NETWORKS.flatMap((network) => {
    const url = setting[`${network}Url`];
    return url ? [{ network, url, followed: followed.includes(network) }] : [];
  });
}

/** What a follow button shows of a credit: the network being credited, a failure, the member and their history once credited. */
export interface FollowView {
  setBusy(network: SocialNetwork | null): void;
  setFailed(network: SocialNetwork | null): void;
  setMember(member: Member): void;
  setHistory(entries: PointEntry[]): void;
}

/**
 * Credits the member's follow of `network` (the caller has opened its profile), then reads the
 * member again for their balance and follows, and their history for the entry. A follow credited
 * before (another tab, a second click) is not a failure: the member read shows it followed.
 */
export async function followInto(
  api: Pick<Api, 'follow' | 'me' | 'list'>,
  settingId: string,
  network: SocialNetwork,
  view: FollowView,
): Promise<void> {
  view.setBusy(network);
  view.setFailed(null);
  try {
    await api.follow(settingId, network);
    // The history shows the new entry, as after a redemption.
    loadPointHistory(api).then(view.setHistory, () => undefined);
  } catch (err) {
    if (!(err instanceof ApiError && err.code === 'already_followed')) view.setFailed(network);
  }
  try {
    view.setMember(await api.me());
  } catch {
    // The balance shown stays as it was; the follow, if credited, shows on the next read.
  } finally {
    view.setBusy(null);
  }
}
