import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../src/api.js';
import { stringsFor } from '../src/i18n.js';
import type { Member, PointEntry, PointsSetting } from '../src/model.js';
import { pointHistory, waysToEarn } from '../src/points.js';
import { followInto, followOffers, type FollowView, networkName } from '../src/social.js';

const setting: PointsSetting = {
  id: 's',
  eudCurrencyName: 'Stars',
  eudCurrencyNameOne: 'Star',
  pointsPerCurrencyUnit: 0,
  pointsPerOrder: 0,
  pointsOnSignUp: 0,
  pointsOnNewsletter: 0,
  pointsOnBirthday: 0,
  pointsOnReferral: 0,
  pointsOnReferredOrder: 0,
  expiryMonthsOfInactivity: 0,
  pointsOnFollow: 25,
  instagramUrl: 'https://www.instagram.com/shop',
  tiktokUrl: null,
  pinterestUrl: 'https://www.pinterest.com/shop',
};
const STARS = { one: 'Star', other: 'Stars' };

describe('the profiles a member may follow for points', () => {
  it('are the ones with a URL while the rate is above 0, in the networks’ order, each marked once followed', () => {
    expect(followOffers(setting)).toEqual([
      { network: 'instagram', url: 'https://www.instagram.com/shop', followed: false },
      { network: 'pinterest', url: 'https://www.pinterest.com/shop', followed: false },
    ]);
    expect(followOffers(setting, ['pinterest']).map((o) => o.followed)).toEqual([false, true]);
    expect(followOffers({ ...setting, pointsOnFollow: 0 })).toEqual([]);
    expect(followOffers({ ...setting, pointsOnFollow: undefined })).toEqual([]);
    expect(networkName('tiktok')).toBe('TikTok');
  });

  it('are ways to earn, in the shopper’s language and times their tier, and name their entries in the history', () => {
    const rows = waysToEarn(setting, [], stringsFor('en'), 'en', undefined, 1.5, ['instagram']);
    expect(rows.map(({ label, earns, follow }) => [label, earns, follow?.followed])).toEqual([
      ['Following us on Instagram', '+37 Stars', true],
      ['Following us on Pinterest', '+37 Stars', false],
    ]);
    expect(waysToEarn(setting, [], stringsFor('de'), 'de').map((r) => r.label)).toEqual([
      'Uns auf Instagram folgen',
      'Uns auf Pinterest folgen',
    ]);
    // Every language names the network in its sentence.
    for (const lang of ['en', 'de', 'es', 'fr', 'it', 'ja', 'ko', 'pt', 'zh-CN'])
      expect(stringsFor(lang).followOn, lang).toContain('{network}');
    const entry: PointEntry = {
      id: 'f',
      points: 25,
      reason: 'earned',
      linkedSchemaSlug: 'social_follow',
      linkedSchemaRecordId: 'tiktok',
      note: null,
      createdAt: '2026-12-05T10:00:00Z',
    } as PointEntry;
    expect(pointHistory([entry], [], stringsFor('en'), STARS, 'en').map((r) => [r.what, r.points])).toEqual([
      ['Following us on TikTok', '+25 Stars'],
    ]);
    expect(pointHistory([entry], [], stringsFor('ja'), STARS, 'ja')[0]!.what).toBe('TikTokのフォロー');
  });
});

describe('crediting a follow', () => {
  const member = (socialFollows: string[]): Member =>
    ({
      id: 'm',
      pointsBalance: 25,
      pointsEarnedInTierWindow: 25,
      tierId: null,
      lastPointEntryAt: null,
      birthday: null,
      referralCode: 'ABCDEFGH',
      socialFollows,
    }) as Member;
  const view = () => {
    const calls: unknown[][] = [];
    const v: FollowView = {
      setBusy: (n) => calls.push(['busy', n]),
      setFailed: (n) => calls.push(['failed', n]),
      setMember: (m) => calls.push(['member', m.socialFollows]),
      setHistory: (entries) => calls.push(['history', entries.length]),
    };
    return { v, calls };
  };

  it('asks the core once, then shows the member and their history read again', async () => {
    const api = {
      follow: vi.fn(async () => ({ pointsBalance: 25 })),
      me: vi.fn(async () => member(['instagram'])),
      list: vi.fn(async () => [{}] as never[]),
    };
    const { v, calls } = view();
    await followInto(api, 's', 'instagram', v);
    expect(api.follow).toHaveBeenCalledWith('s', 'instagram');
    expect(calls.filter(([what]) => what !== 'history')).toEqual([
      ['busy', 'instagram'],
      ['failed', null],
      ['member', ['instagram']],
      ['busy', null],
    ]);
    await vi.waitFor(() => expect(calls).toContainEqual(['history', 1]));
    expect(api.list).toHaveBeenCalledWith('point_entry', expect.objectContaining({ limit: 20 }));
  });

  it('takes a follow credited before (another tab) as done, and says any other refusal failed', async () => {
    const credited = {
      follow: vi.fn(async () => Promise.reject(new ApiError(409, 'already_followed', 'p'))),
      me: async () => member(['x']),
      list: async () => [],
    };
    const first = view();
    await followInto(credited, 's', 'x', first.v);
    expect(first.calls).not.toContainEqual(['failed', 'x']);
    expect(first.calls).toContainEqual(['member', ['x']]);

    const refused = {
      follow: vi.fn(async () => Promise.reject(new ApiError(409, 'not_earnable', 'p'))),
      me: async () => member([]),
      list: async () => [],
    };
    const second = view();
    await followInto(refused, 's', 'x', second.v);
    expect(second.calls).toContainEqual(['failed', 'x']);
    // The core unreachable: the failure is said, and the balance shown stays.
    const offline = {
      follow: vi.fn(async () => Promise.reject(new TypeError('fetch failed'))),
      me: async () => Promise.reject(new TypeError('fetch failed')),
      list: async () => [],
    };
    const third = view();
    await followInto(offline, 's', 'x', third.v);
    expect(third.calls).toEqual([
      ['busy', 'x'],
      ['failed', null],
      ['failed', 'x'],
      ['busy', null],
    ]);
  });
});
