import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accepted, type Reply, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

/**
 * CONTRACT §2/§3: the query language of list routes. Every expected result is computed here from
 * the seed data (the request bodies), never from another API answer; the API contributes only ids
 * and timestamps, which nothing else can know.
 */

type Json = Record<string, any>;
type Filter = Record<string, unknown>;

interface Member {
  id: string;
  createdAt: string;
  externalId: string;
  firstName: string | null;
  lastName: string;
  email: string | null;
  phoneNumber: string | null;
  timezone: string | null;
  languageCode: string | null;
  pushDeviceTokens: string[];
  status: 'live' | 'draft' | 'paused';
}

interface Reward {
  id: string;
  createdAt: string;
  name: string;
  discountType: 'percentage' | 'fixed_amount';
  discountValue: number;
  rewardExpiryType: 'no_expiry' | 'relative' | 'absolute';
  rewardExpiryInDays: number | null;
  rewardExpiryAt: string | null;
  handleCoupon: boolean;
  couponCodeLength: number;
}

interface Streak {
  id: string;
  name: string;
  completionTargetValue: number | null;
  aggregationTargetValue: number;
}

interface Milestone {
  id: string;
  linkedSchemaRecordId: string;
  milestoneTargetValue: number;
  rewardId: string | null;
}

const LANGS = ['en', 'es', 'fr', 'de', 'zh-CN', 'ja', 'pt', 'it', 'ko'] as const;
// Sorted string fields use lowercase ASCII only, so the expected order holds under any collation.
const LAST = ['adams', 'baker', 'clark', 'davis', 'evans'] as const;
const FIRST = [
  'Anna',
  'ANNETTE',
  'joanna',
  'Ben',
  '50%off',
  '50off',
  'under_score',
  'underXscore',
  'back\\slash',
  'backslash',
  'Zoe',
  'zoe',
  null,
  'Max',
  'maxi',
] as const;
const STATUSES = ['live', 'draft', 'paused'] as const;
const ZONES = ['Europe/Paris', 'America/New_York', 'Asia/Tokyo', null] as const;

function memberSeed(i: number): Omit<Member, 'id' | 'createdAt'> {
  return {
    externalId: `m-${String(i).padStart(2, '0')}`,
    firstName: FIRST[i % FIRST.length]!,
    lastName: LAST[(i * 3) % LAST.length]!,
    email: i % 4 === 3 ? null : `member${i}@example.com`,
    phoneNumber: i % 2 ? `+3361234${String(i).padStart(4, '0')}` : null,
    timezone: ZONES[i % ZONES.length]!,
    languageCode: i % 5 === 4 ? null : LANGS[i % LANGS.length]!,
    pushDeviceTokens: i % 3 === 0 ? [] : i % 3 === 1 ? ['tok-a', `tok-${i}`] : ['tok-b'],
    status: STATUSES[i % STATUSES.length]!,
  };
}

// Instants 0 and 3 are the same moment written with different offsets.
const EXPIRY_AT = [
  '2026-03-01T10:00:00.000+02:00',
  '2026-03-01T08:00:00.000Z',
  '2026-06-15T23:59:59.999Z',
  '2027-01-01T00:00:00.000-05:00',
];
const DISCOUNTS = [5, 10, 10, 12.5, 0, 25, 99.99, 5, 50, 10, 7.25, 100];

function rewardSeed(i: number): Omit<Reward, 'id' | 'createdAt'> {
  const type = (['absolute', 'relative', 'no_expiry'] as const)[i % 3]!;
  return {
    name: `reward ${i}`,
    discountType: i % 2 ? 'percentage' : 'fixed_amount',
    discountValue: DISCOUNTS[i]!,
    rewardExpiryType: type,
    rewardExpiryInDays: type === 'relative' ? i + 1 : null,
    rewardExpiryAt: type === 'absolute' ? EXPIRY_AT[i / 3]! : null,
    handleCoupon: i % 4 < 2,
    couponCodeLength: 6 + ((i * 5) % 27),
  };
}

let app: TestApp;
let acct: TestAccount;
const members: Member[] = [];
const rewards: Reward[] = [];
const streaks: Streak[] = [];
const milestones: Milestone[] = [];

async function create(slug: string, body: Json): Promise<Json> {
  return accepted(acct.api.post(`/schema/${slug}/record`, body));
}

beforeAll(async () => {
  app = await startTestApp();
  acct = await app.createAccount();
  // Sequential on purpose: distinct creation times give the default order something to sort.
  for (let i = 0; i < 30; i++) {
    const seed = memberSeed(i);
    const data = await create('account_user', seed);
    members.push({ ...seed, id: data.id, createdAt: data.createdAt });
  }
  for (let i = 0; i < DISCOUNTS.length; i++) {
    const seed = rewardSeed(i);
    const data = await create('reward', { ...seed, description: 'd' });
    rewards.push({ ...seed, id: data.id, createdAt: data.createdAt });
  }
  const targets: [number | null, number][] = [
    [null, 1],
    [10, 2.5],
    [30, 1],
    [null, 3],
    [7, 2.5],
    [10, 1],
  ];
  for (const [i, [completionTargetValue, aggregationTargetValue]] of targets.entries()) {
    const seed = { name: `streak ${i}`, completionTargetValue, aggregationTargetValue };
    const data = await create('streak', seed);
    streaks.push({ ...seed, id: data.id });
  }
  for (let i = 0; i < 6; i++) {
    const seed = {
      linkedSchemaRecordId: streaks[i % 2 === 0 ? 0 : 3]!.id,
      milestoneTargetValue: i + 1,
      rewardId: i % 3 === 0 ? null : rewards[i]!.id,
    };
    const data = await create('milestone', { ...seed, linkedSchemaSlug: 'streak', name: `ms ${i}`, description: 'd', status: 'live' });
    milestones.push({ ...seed, id: data.id });
  }
}, 120_000);
afterAll(() => app?.close());

const leaf = (fieldSlug: string, operator: string, fieldValue?: unknown): Filter =>
  fieldValue === undefined ? { fieldSlug, operator } : { fieldSlug, operator, fieldValue };
const and = (...conditions: unknown[]): Filter => ({ operator: 'and', conditions });
const or = (...conditions: unknown[]): Filter => ({ operator: 'or', conditions });

const sortedIds = (rows: { id: string }[]) => rows.map((r) => r.id).sort();
const ms = (iso: string) => Date.parse(iso);

async function list(slug: string, query: Record<string, unknown> = {}): Promise<Reply> {
  const res = await acct.api.get(`/schema/${slug}/record`, query);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res;
}

/** Lists every record matching `filter` and compares the ids with the seed records `predicate` keeps. */
async function expectFilter<T extends { id: string }>(
  slug: string,
  records: T[],
  filter: Filter,
  predicate: (r: T) => boolean,
  { discriminating = true } = {},
): Promise<void> {
  const expected = records.filter(predicate);
  // A case that keeps all or nothing would pass with a filter that is ignored.
  if (discriminating) {
    expect(expected.length, `${JSON.stringify(filter)} keeps some`).toBeGreaterThan(0);
    expect(expected.length, `${JSON.stringify(filter)} drops some`).toBeLessThan(records.length);
  }
  const res = await list(slug, { filters: filter, limit: '1000' });
  expect(sortedIds(res.body.data), JSON.stringify(filter)).toEqual(sortedIds(expected));
}

function expectInvalidQuery(res: Reply, label = ''): void {
  expect(res.status, `${label} ${JSON.stringify(res.body)}`).toBe(400);
  expect(res.body).toEqual({
    error: { status: 400, code: 'invalid_query', message: expect.any(String), details: expect.any(Array), requestId: expect.any(String) },
  });
  expect(res.headers.get('x-request-id')).toBe(res.body.error.requestId);
}

describe('filters: string fields', () => {
  it('equals is exact and case-sensitive; not_equals also keeps records without a value', async () => {
    await expectFilter('account_user', members, and(leaf('lastName', 'equals', 'baker')), (m) => m.lastName === 'baker');
    await expectFilter('account_user', members, and(leaf('firstName', 'equals', 'Anna')), (m) => m.firstName === 'Anna');
    await expectFilter('account_user', members, and(leaf('firstName', 'equals', 'anna')), () => false, { discriminating: false });
    await expectFilter(
      'account_user',
      members,
      and(leaf('email', 'not_equals', 'member1@example.com')),
      (m) => m.email !== 'member1@example.com',
    );
    expect(members.some((m) => m.email === null)).toBe(true);
  });

  it('in / not_in (not_in keeps records without a value)', async () => {
    await expectFilter('account_user', members, and(leaf('lastName', 'in', ['adams', 'evans', 'nobody'])), (m) =>
      ['adams', 'evans'].includes(m.lastName),
    );
    await expectFilter(
      'account_user',
      members,
      and(leaf('firstName', 'not_in', ['Anna', 'Ben'])),
      (m) => m.firstName !== 'Anna' && m.firstName !== 'Ben',
    );
    expect(members.some((m) => m.firstName === null)).toBe(true);
  });

  it('gt / gte / lt / lte compare strings', async () => {
    await expectFilter('account_user', members, and(leaf('lastName', 'gt', 'baker')), (m) => m.lastName > 'baker');
    await expectFilter('account_user', members, and(leaf('lastName', 'gte', 'baker')), (m) => m.lastName >= 'baker');
    await expectFilter('account_user', members, and(leaf('lastName', 'lt', 'clark')), (m) => m.lastName < 'clark');
    await expectFilter('account_user', members, and(leaf('lastName', 'lte', 'clark')), (m) => m.lastName <= 'clark');
    await expectFilter(
      'account_user',
      members,
      and(leaf('externalId', 'gte', 'm-10'), leaf('externalId', 'lt', 'm-20')),
      (m) => m.externalId >= 'm-10' && m.externalId < 'm-20',
    );
  });

  it('contains is case-insensitive and takes %, _ and \\ literally', async () => {
    const has = (needle: string) => (m: Member) => m.firstName !== null && m.firstName.toLowerCase().includes(needle.toLowerCase());
    for (const needle of ['ann', 'ANN', 'Zo', '%', '50%', '_', 'r_s', '\\', 'k\\s', 'off']) {
      await expectFilter('account_user', members, and(leaf('firstName', 'contains', needle)), has(needle));
    }
    // A LIKE wildcard would let these match "50off" / "underXscore" / "backslash" as well.
    expect(members.filter(has('50%')).map((m) => m.firstName)).toEqual(['50%off', '50%off']);
    expect(members.filter(has('r_s')).map((m) => m.firstName)).toEqual(['under_score', 'under_score']);
    await expectFilter('account_user', members, and(leaf('email', 'contains', '@EXAMPLE.com')), (m) => m.email !== null);
  });

  it('is_null / is_not_null', async () => {
    await expectFilter('account_user', members, and(leaf('email', 'is_null')), (m) => m.email === null);
    await expectFilter('account_user', members, and(leaf('phoneNumber', 'is_not_null')), (m) => m.phoneNumber !== null);
    await expectFilter('account_user', members, and(leaf('timezone', 'is_null')), (m) => m.timezone === null);
  });
});

describe('filters: enum, uuid and string array fields', () => {
  it('enum: equals, not_equals, in, not_in, ordering, is_null', async () => {
    await expectFilter('account_user', members, and(leaf('status', 'equals', 'draft')), (m) => m.status === 'draft');
    await expectFilter('account_user', members, and(leaf('status', 'not_equals', 'live')), (m) => m.status !== 'live');
    await expectFilter(
      'account_user',
      members,
      and(leaf('status', 'in', ['live', 'paused'])),
      (m) => m.status === 'live' || m.status === 'paused',
    );
    await expectFilter('account_user', members, and(leaf('status', 'not_in', ['live'])), (m) => m.status !== 'live');
    await expectFilter('account_user', members, and(leaf('status', 'gt', 'draft')), (m) => m.status > 'draft');
    await expectFilter('account_user', members, and(leaf('status', 'lte', 'live')), (m) => m.status <= 'live');
    await expectFilter('account_user', members, and(leaf('languageCode', 'is_null')), (m) => m.languageCode === null);
    await expectFilter(
      'account_user',
      members,
      and(leaf('languageCode', 'in', ['fr', 'zh-CN'])),
      (m) => m.languageCode === 'fr' || m.languageCode === 'zh-CN',
    );
    await expectFilter('account_user', members, and(leaf('languageCode', 'not_equals', 'en')), (m) => m.languageCode !== 'en');
    await expectFilter('reward', rewards, and(leaf('rewardExpiryType', 'equals', 'absolute')), (r) => r.rewardExpiryType === 'absolute');
  });

  it('uuid: equals, not_equals, in, not_in, ordering, is_null, any letter case', async () => {
    const [a, b, c] = [members[3]!, members[17]!, members[25]!];
    await expectFilter('account_user', members, and(leaf('id', 'equals', a.id)), (m) => m.id === a.id);
    await expectFilter('account_user', members, and(leaf('id', 'equals', a.id.toUpperCase())), (m) => m.id === a.id);
    await expectFilter('account_user', members, and(leaf('id', 'not_equals', a.id)), (m) => m.id !== a.id);
    await expectFilter('account_user', members, and(leaf('id', 'in', [a.id, b.id, c.id])), (m) => [a.id, b.id, c.id].includes(m.id));
    await expectFilter('account_user', members, and(leaf('id', 'not_in', [a.id, b.id])), (m) => m.id !== a.id && m.id !== b.id);
    await expectFilter('account_user', members, and(leaf('id', 'gt', b.id)), (m) => m.id > b.id, { discriminating: false });
    await expectFilter('milestone', milestones, and(leaf('rewardId', 'is_null')), (x) => x.rewardId === null);
    await expectFilter('milestone', milestones, and(leaf('rewardId', 'equals', rewards[1]!.id)), (x) => x.rewardId === rewards[1]!.id);
    await expectFilter('milestone', milestones, and(leaf('rewardId', 'not_equals', rewards[1]!.id)), (x) => x.rewardId !== rewards[1]!.id);
    await expectFilter(
      'milestone',
      milestones,
      and(leaf('linkedSchemaRecordId', 'equals', streaks[3]!.id)),
      (x) => x.linkedSchemaRecordId === streaks[3]!.id,
    );
  });

  it('string array: contains matches an element; is_null means empty', async () => {
    await expectFilter('account_user', members, and(leaf('pushDeviceTokens', 'contains', 'tok-a')), (m) =>
      m.pushDeviceTokens.includes('tok-a'),
    );
    await expectFilter('account_user', members, and(leaf('pushDeviceTokens', 'contains', 'tok-7')), (m) =>
      m.pushDeviceTokens.includes('tok-7'),
    );
    // An element, not a substring of one.
    await expectFilter('account_user', members, and(leaf('pushDeviceTokens', 'contains', 'tok')), () => false, { discriminating: false });
    await expectFilter('account_user', members, and(leaf('pushDeviceTokens', 'is_null')), (m) => m.pushDeviceTokens.length === 0);
    await expectFilter('account_user', members, and(leaf('pushDeviceTokens', 'is_not_null')), (m) => m.pushDeviceTokens.length > 0);
  });
});

describe('filters: number, boolean and datetime fields', () => {
  it('number: every comparison, in/not_in and is_null', async () => {
    await expectFilter('reward', rewards, and(leaf('discountValue', 'equals', 10)), (r) => r.discountValue === 10);
    await expectFilter('reward', rewards, and(leaf('discountValue', 'not_equals', 10)), (r) => r.discountValue !== 10);
    await expectFilter('reward', rewards, and(leaf('discountValue', 'gt', 10)), (r) => r.discountValue > 10);
    await expectFilter('reward', rewards, and(leaf('discountValue', 'gte', 10)), (r) => r.discountValue >= 10);
    await expectFilter('reward', rewards, and(leaf('discountValue', 'lt', 7.25)), (r) => r.discountValue < 7.25);
    await expectFilter('reward', rewards, and(leaf('discountValue', 'lte', 7.25)), (r) => r.discountValue <= 7.25);
    await expectFilter('reward', rewards, and(leaf('discountValue', 'in', [0, 12.5, 99.99])), (r) =>
      [0, 12.5, 99.99].includes(r.discountValue),
    );
    await expectFilter(
      'reward',
      rewards,
      and(leaf('discountValue', 'not_in', [5, 10])),
      (r) => r.discountValue !== 5 && r.discountValue !== 10,
    );
    await expectFilter('reward', rewards, and(leaf('rewardExpiryInDays', 'is_not_null')), (r) => r.rewardExpiryInDays !== null);
    await expectFilter('streak', streaks, and(leaf('completionTargetValue', 'is_null')), (s) => s.completionTargetValue === null);
    await expectFilter(
      'streak',
      streaks,
      and(leaf('completionTargetValue', 'lt', 10)),
      (s) => s.completionTargetValue !== null && s.completionTargetValue < 10,
    );
    await expectFilter('streak', streaks, and(leaf('aggregationTargetValue', 'equals', 2.5)), (s) => s.aggregationTargetValue === 2.5);
  });

  it('number values that are not integers compare on integer fields too', async () => {
    await expectFilter('reward', rewards, and(leaf('couponCodeLength', 'gt', 11.5)), (r) => r.couponCodeLength > 11.5);
    await expectFilter('reward', rewards, and(leaf('couponCodeLength', 'equals', 6.5)), () => false, { discriminating: false });
    await expectFilter('reward', rewards, and(leaf('couponCodeLength', 'in', [6, 11, 1e20])), (r) => [6, 11].includes(r.couponCodeLength));
    await expectFilter('reward', rewards, and(leaf('couponCodeLength', 'lt', 1e20)), () => true, { discriminating: false });
  });

  it('boolean: equals / not_equals', async () => {
    await expectFilter('reward', rewards, and(leaf('handleCoupon', 'equals', true)), (r) => r.handleCoupon);
    await expectFilter('reward', rewards, and(leaf('handleCoupon', 'not_equals', true)), (r) => !r.handleCoupon);
    await expectFilter('reward', rewards, and(leaf('handleCouponAutoGeneration', 'equals', false)), () => true, { discriminating: false });
  });

  it('datetime: compares instants, whatever offset either side was written with', async () => {
    const at = (r: Reward) => (r.rewardExpiryAt === null ? null : ms(r.rewardExpiryAt));
    const march = ms('2026-03-01T08:00:00Z');
    await expectFilter('reward', rewards, and(leaf('rewardExpiryAt', 'equals', '2026-03-01T09:00:00+01:00')), (r) => at(r) === march);
    expect(rewards.filter((r) => at(r) === march)).toHaveLength(2);
    await expectFilter('reward', rewards, and(leaf('rewardExpiryAt', 'not_equals', '2026-03-01T08:00:00Z')), (r) => at(r) !== march);
    await expectFilter(
      'reward',
      rewards,
      and(leaf('rewardExpiryAt', 'in', ['2026-06-15T23:59:59.999Z', '2027-01-01T05:00:00Z'])),
      (r) => at(r) === ms('2026-06-15T23:59:59.999Z') || at(r) === ms('2027-01-01T05:00:00Z'),
    );
    await expectFilter(
      'reward',
      rewards,
      and(leaf('rewardExpiryAt', 'not_in', ['2026-06-15T23:59:59.999Z'])),
      (r) => at(r) !== ms('2026-06-15T23:59:59.999Z'),
    );
    await expectFilter(
      'reward',
      rewards,
      and(leaf('rewardExpiryAt', 'gt', '2026-03-01T08:00:00Z')),
      (r) => at(r) !== null && at(r)! > march,
    );
    await expectFilter(
      'reward',
      rewards,
      and(leaf('rewardExpiryAt', 'gte', '2026-03-01T08:00:00Z')),
      (r) => at(r) !== null && at(r)! >= march,
    );
    await expectFilter(
      'reward',
      rewards,
      and(leaf('rewardExpiryAt', 'lt', '2026-06-15T23:59:59.999Z')),
      (r) => at(r) !== null && at(r)! < ms('2026-06-15T23:59:59.999Z'),
    );
    await expectFilter(
      'reward',
      rewards,
      and(leaf('rewardExpiryAt', 'lte', '2026-06-15T23:59:59.999Z')),
      (r) => at(r) !== null && at(r)! <= ms('2026-06-15T23:59:59.999Z'),
    );
    await expectFilter('reward', rewards, and(leaf('rewardExpiryAt', 'is_null')), (r) => at(r) === null);
    // A date alone, or a time without an offset, is UTC.
    await expectFilter(
      'reward',
      rewards,
      and(leaf('rewardExpiryAt', 'gte', '2026-06-16')),
      (r) => at(r) !== null && at(r)! >= ms('2026-06-16T00:00:00Z'),
    );
    await expectFilter(
      'reward',
      rewards,
      and(leaf('rewardExpiryAt', 'lt', '2026-06-16T00:00')),
      (r) => at(r) !== null && at(r)! < ms('2026-06-16T00:00:00Z'),
    );
  });

  it('datetime: the createdAt a record was returned with finds that record', async () => {
    const m = members[12]!;
    await expectFilter('account_user', members, and(leaf('createdAt', 'equals', m.createdAt)), (x) => x.id === m.id);
    await expectFilter('account_user', members, and(leaf('createdAt', 'lte', m.createdAt)), (x) => ms(x.createdAt) <= ms(m.createdAt));
    await expectFilter('account_user', members, and(leaf('createdAt', 'gt', m.createdAt)), (x) => ms(x.createdAt) > ms(m.createdAt));
    await expectFilter('account_user', members, and(leaf('updatedAt', 'in', [m.createdAt])), (x) => x.id === m.id);
  });
});

describe('filters: groups', () => {
  it('and / or nest to depth 5 and evaluate like boolean logic', async () => {
    const filter = or(
      and(
        leaf('status', 'equals', 'live'),
        or(
          leaf('lastName', 'in', ['adams', 'baker']),
          and(leaf('languageCode', 'is_null'), or(leaf('firstName', 'contains', 'ann'), leaf('email', 'is_null'))),
        ),
      ),
      leaf('externalId', 'equals', 'm-29'),
    );
    await expectFilter(
      'account_user',
      members,
      filter,
      (m) =>
        (m.status === 'live' &&
          (['adams', 'baker'].includes(m.lastName) ||
            (m.languageCode === null && ((m.firstName?.toLowerCase().includes('ann') ?? false) || m.email === null)))) ||
        m.externalId === 'm-29',
    );
  });

  it('a bare leaf is a filter of one condition', async () => {
    await expectFilter('account_user', members, leaf('status', 'equals', 'paused'), (m) => m.status === 'paused');
  });

  it('an empty group constrains nothing', async () => {
    await expectFilter('account_user', members, and(), () => true, { discriminating: false });
    await expectFilter('account_user', members, and(leaf('status', 'equals', 'draft'), or()), (m) => m.status === 'draft');
  });

  it('accepts exactly 50 leaves and 5 levels', async () => {
    const fifty = or(...Array.from({ length: 50 }, (_, i) => leaf('externalId', 'equals', `m-${String(i).padStart(2, '0')}`)));
    await expectFilter('account_user', members, fifty, () => true, { discriminating: false });
    await expectFilter('account_user', members, nested(5, leaf('status', 'equals', 'live')), (m) => m.status === 'live');
  });
});

/** `depth` groups, each holding the next, the innermost holding `inner`. */
function nested(depth: number, inner: Filter): Filter {
  let node = inner;
  for (let i = 0; i < depth; i++) node = i % 2 ? or(node) : and(node);
  return node;
}

describe('sortBy', () => {
  /** The seed records in the expected order: each key in turn, then id in the last key's direction. */
  function order<T extends { id: string }>(records: T[], keys: [keyof T, 'ASC' | 'DESC'][]): string[] {
    const cmp = (a: unknown, b: unknown) => (a === b ? 0 : (a as string | number) < (b as string | number) ? -1 : 1);
    const last = keys.at(-1)![1];
    return [...records]
      .sort((a, b) => {
        for (const [key, dir] of keys) {
          const c = cmp(a[key], b[key]);
          if (c) return dir === 'ASC' ? c : -c;
        }
        return last === 'ASC' ? cmp(a.id, b.id) : cmp(b.id, a.id);
      })
      .map((r) => r.id);
  }

  it('defaults to createdAt DESC', async () => {
    const res = await list('account_user', { limit: '1000' });
    const expected = [...members].sort((a, b) => ms(b.createdAt) - ms(a.createdAt)).map((m) => m.id);
    expect(res.body.data.map((r: Json) => r.id)).toEqual(expected);
    expect(expected[0]).toBe(members.at(-1)!.id);
  });

  it('orders ASC and DESC by one or more fields, ties broken by id', async () => {
    const cases: [string, Member[], [keyof Member, 'ASC' | 'DESC'][]][] = [
      ['account_user', members, [['lastName', 'ASC']]],
      ['account_user', members, [['lastName', 'DESC']]],
      [
        'account_user',
        members,
        [
          ['status', 'ASC'],
          ['lastName', 'DESC'],
        ],
      ],
      [
        'account_user',
        members,
        [
          ['lastName', 'DESC'],
          ['externalId', 'ASC'],
        ],
      ],
      ['account_user', members, [['externalId', 'DESC']]],
      ['account_user', members, [['createdAt', 'ASC']]],
      ['account_user', members, [['id', 'DESC']]],
    ];
    for (const [slug, records, keys] of cases) {
      const sortBy = keys.map(([fieldSlug, o]) => ({ fieldSlug, order: o }));
      const res = await list(slug, { sortBy, limit: '1000' });
      expect(
        res.body.data.map((r: Json) => r.id),
        JSON.stringify(sortBy),
      ).toEqual(order(records, keys));
    }
  });

  it('orders numbers numerically', async () => {
    for (const o of ['ASC', 'DESC'] as const) {
      const res = await list('reward', { sortBy: [{ fieldSlug: 'discountValue', order: o }] });
      expect(res.body.data.map((r: Json) => r.id)).toEqual(order(rewards, [['discountValue', o]]));
    }
  });
});

describe('paging', () => {
  it('offset/limit walks every record exactly once, also across ties', async () => {
    const sortBy = [{ fieldSlug: 'lastName', order: 'ASC' }];
    const seen: string[] = [];
    for (let offset = 0; ; offset += 7) {
      const res = await list('account_user', { sortBy, offset: String(offset), limit: '7' });
      const { data, paging } = res.body;
      expect(paging).toEqual({ offset, limit: 7, count: data.length, hasMore: offset + 7 < members.length });
      seen.push(...data.map((r: Json) => r.id));
      if (!paging.hasMore) break;
    }
    expect(seen).toHaveLength(members.length);
    expect([...seen].sort()).toEqual(sortedIds(members));
    const all = await list('account_user', { sortBy, limit: '1000' });
    expect(seen).toEqual(all.body.data.map((r: Json) => r.id));
  });

  it('hasMore is false exactly when the page reaches the end', async () => {
    expect((await list('account_user', { limit: '30' })).body.paging).toEqual({ offset: 0, limit: 30, count: 30, hasMore: false });
    expect((await list('account_user', { limit: '29' })).body.paging).toEqual({ offset: 0, limit: 29, count: 29, hasMore: true });
    expect((await list('account_user', { offset: '29', limit: '1' })).body.paging).toEqual({
      offset: 29,
      limit: 1,
      count: 1,
      hasMore: false,
    });
    expect((await list('account_user', { offset: '30' })).body).toEqual({
      data: [],
      paging: { offset: 30, limit: 100, count: 0, hasMore: false },
    });
  });

  it('defaults to offset 0 and limit 100', async () => {
    expect((await list('account_user')).body.paging).toEqual({ offset: 0, limit: 100, count: 30, hasMore: false });
  });

  it('fetchTotalCount=true adds the total of matching records; otherwise there is none', async () => {
    const filters = and(leaf('status', 'equals', 'live'));
    const live = members.filter((m) => m.status === 'live').length;
    const withTotal = await list('account_user', { filters, limit: '3', offset: '1', fetchTotalCount: 'true' });
    expect(withTotal.body.paging).toEqual({ offset: 1, limit: 3, count: 3, hasMore: true, total: live });
    expect((await list('account_user', { fetchTotalCount: 'true', limit: '1' })).body.paging.total).toBe(30);
    expect((await list('account_user', { fetchTotalCount: 'false' })).body.paging).not.toHaveProperty('total');
    expect((await list('account_user')).body.paging).not.toHaveProperty('total');
  });
});

describe('fields', () => {
  it('limits the keys of each record; id is always present', async () => {
    const cases: [string[], string[]][] = [
      [['firstName'], ['firstName', 'id']],
      [
        ['email', 'createdAt'],
        ['createdAt', 'email', 'id'],
      ],
      [['id'], ['id']],
      [[], ['id']],
      [
        ['pushDeviceTokens', 'updatedAt', 'status'],
        ['id', 'pushDeviceTokens', 'status', 'updatedAt'],
      ],
    ];
    for (const [fields, keys] of cases) {
      const res = await list('account_user', { fields, limit: '1000' });
      expect(res.body.data).toHaveLength(30);
      for (const row of res.body.data) expect(Object.keys(row).sort(), JSON.stringify(fields)).toEqual(keys);
    }
    const one = await list('account_user', { fields: ['firstName'], filters: and(leaf('id', 'equals', members[4]!.id)) });
    expect(one.body.data).toEqual([{ id: members[4]!.id, firstName: members[4]!.firstName }]);
  });

  it('applies to a get by id as well', async () => {
    const m = members[7]!;
    const res = await acct.api.get(`/schema/account_user/record/${m.id}`, { fields: ['lastName'] });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: m.id, lastName: m.lastName });
  });
});

describe('invalid queries answer 400 invalid_query', () => {
  const path = '/schema/account_user/record';
  const cases: [string, Record<string, unknown>][] = [
    ['filters: bad JSON', { filters: '{"operator":"and",' }],
    ['filters: not an object', { filters: '[1,2]' }],
    ['filters: JSON null', { filters: 'null' }],
    ['filters: unknown field', { filters: and(leaf('shoeSize', 'equals', 42)) }],
    ['filters: a field by its column name', { filters: and(leaf('first_name', 'equals', 'Anna')) }],
    ['filters: unknown operator', { filters: and(leaf('firstName', 'like', 'Anna')) }],
    ['filters: operator not a string', { filters: and(leaf('firstName', 7 as unknown as string, 'Anna')) }],
    ['filters: unknown group operator', { filters: { operator: 'xor', conditions: [] } }],
    ['filters: conditions not an array', { filters: { operator: 'and', conditions: {} } }],
    ['filters: contains on a number', { filters: and(leaf('discountValue', 'contains', '5')) }],
    ['filters: contains on an enum', { filters: and(leaf('status', 'contains', 'live')) }],
    ['filters: contains on a uuid', { filters: and(leaf('id', 'contains', 'a')) }],
    ['filters: contains on a datetime', { filters: and(leaf('createdAt', 'contains', '2026')) }],
    ['filters: equals on a string array', { filters: and(leaf('pushDeviceTokens', 'equals', 'tok-a')) }],
    ['filters: gt on a string array', { filters: and(leaf('pushDeviceTokens', 'gt', 'tok-a')) }],
    ['filters: string field, number value', { filters: and(leaf('firstName', 'equals', 5)) }],
    ['filters: string field, null value', { filters: and(leaf('firstName', 'equals', null)) }],
    ['filters: string field, missing value', { filters: and(leaf('firstName', 'equals')) }],
    ['filters: string with a NUL character', { filters: and(leaf('firstName', 'equals', 'a\u0000b')) }],
    ['filters: contains with a NUL character', { filters: and(leaf('firstName', 'contains', '\u0000')) }],
    ['filters: enum value not in the enum', { filters: and(leaf('status', 'equals', 'deleted')) }],
    ['filters: enum in with one bad value', { filters: and(leaf('status', 'in', ['live', 'gone'])) }],
    ['filters: uuid not a uuid', { filters: and(leaf('id', 'equals', 'abc')) }],
    ['filters: datetime not a date', { filters: and(leaf('createdAt', 'gt', 'yesterday')) }],
    ['filters: datetime number', { filters: and(leaf('createdAt', 'gt', 1767225600000)) }],
    ['filters: datetime 30 February', { filters: and(leaf('createdAt', 'gt', '2026-02-30')) }],
    ['filters: datetime hour 25', { filters: and(leaf('createdAt', 'gt', '2026-01-01T25:00:00Z')) }],
    ['filters: datetime year 0', { filters: and(leaf('createdAt', 'gt', '0000-01-01T00:00:00Z')) }],
    ['filters: datetime in with 31 April', { filters: and(leaf('createdAt', 'in', ['2026-04-31T00:00:00Z'])) }],
    ['filters: array contains a number', { filters: and(leaf('pushDeviceTokens', 'contains', 5)) }],
    ['filters: in with a scalar', { filters: and(leaf('lastName', 'in', 'adams')) }],
    ['filters: in with mixed types', { filters: and(leaf('lastName', 'in', ['adams', 3])) }],
    ['filters: not_in with objects', { filters: and(leaf('lastName', 'not_in', [{}])) }],
    ['filters: depth 6', { filters: nested(6, leaf('status', 'equals', 'live')) }],
    ['filters: 51 leaves', { filters: or(...Array.from({ length: 51 }, () => leaf('status', 'equals', 'live'))) }],
    [
      'filters: 51 leaves spread over groups',
      {
        filters: and(
          or(...Array.from({ length: 26 }, () => leaf('status', 'equals', 'live'))),
          or(...Array.from({ length: 25 }, () => leaf('status', 'equals', 'live'))),
        ),
      },
    ],
    ['filters: unknown key in a leaf', { filters: and({ ...leaf('status', 'equals', 'live'), caseSensitive: true }) }],
    ['filters: unknown key in a group', { filters: { operator: 'and', conditions: [], negate: true } }],
    ['filters: leaf without a field', { filters: and({ operator: 'equals', fieldValue: 'x' }) }],
    ['fields: bad JSON', { fields: '[firstName]' }],
    ['fields: not an array', { fields: '"firstName"' }],
    ['fields: unknown field', { fields: ['firstName', 'shoeSize'] }],
    ['fields: not strings', { fields: [1] }],
    ['sortBy: bad JSON', { sortBy: '[{' }],
    ['sortBy: unknown field', { sortBy: [{ fieldSlug: 'shoeSize', order: 'ASC' }] }],
    ['sortBy: bad order', { sortBy: [{ fieldSlug: 'lastName', order: 'UP' }] }],
    ['sortBy: lowercase order', { sortBy: [{ fieldSlug: 'lastName', order: 'asc' }] }],
    ['sortBy: null order', { sortBy: [{ fieldSlug: 'lastName', order: null }] }],
    ['sortBy: unknown key', { sortBy: [{ fieldSlug: 'lastName', order: 'ASC', nulls: 'first' }] }],
    ['sortBy: not an array', { sortBy: { fieldSlug: 'lastName', order: 'ASC' } }],
    ['sortBy: a string array field', { sortBy: [{ fieldSlug: 'pushDeviceTokens', order: 'ASC' }] }],
    ['limit 0', { limit: '0' }],
    ['limit 1001', { limit: '1001' }],
    ['limit abc', { limit: 'abc' }],
    ['limit empty', { limit: '' }],
    ['limit 1.5', { limit: '1.5' }],
    ['offset -1', { offset: '-1' }],
    ['offset abc', { offset: 'abc' }],
    ['fetchTotalCount=maybe', { fetchTotalCount: 'maybe' }],
    ['fetchTotalCount=1', { fetchTotalCount: '1' }],
    ['languageCode unknown', { languageCode: 'xx' }],
    ['languageCode wrong case', { languageCode: 'zh-cn' }],
    ['unknown query parameter', { search: 'anna' }],
    ['unknown query parameter with an empty value', { page: '' }],
  ];
  for (const [label, query] of cases) {
    it(label, async () => {
      expectInvalidQuery(await acct.api.get(path, query), label);
    });
  }

  it('a parameter given twice', async () => {
    for (const qs of [
      'limit=1&limit=2',
      'offset=0&offset=0',
      'languageCode=en&languageCode=fr',
      `fields=${encodeURIComponent('["id"]')}&fields=${encodeURIComponent('["id"]')}`,
      'fetchTotalCount=true&fetchTotalCount=true',
    ]) {
      expectInvalidQuery(await acct.api.get(`${path}?${qs}`), qs);
    }
  });

  it('parameters a route does not know, and bad languageCode on writes', async () => {
    const id = members[0]!.id;
    expectInvalidQuery(await acct.api.get(`${path}/${id}`, { limit: '5' }), 'get with limit');
    expectInvalidQuery(await acct.api.get(`${path}/${id}`, { filters: and() }), 'get with filters');
    expectInvalidQuery(await acct.api.get(`${path}/${id}`, { fields: ['nope'] }), 'get with unknown field');
    expectInvalidQuery(await acct.api.request('POST', path, { body: { externalId: 'zz' }, query: { languageCode: 'xx' } }), 'create');
    expectInvalidQuery(await acct.api.patch(`${path}/${id}`, { firstName: 'x' }, {}, { fields: ['id'] }), 'update with fields');
    // The query is checked before the record is looked up and before the body.
    expectInvalidQuery(await acct.api.get(`${path}/00000000-0000-4000-8000-000000000000`, { languageCode: 'xx' }), 'get unknown id');
    expectInvalidQuery(await acct.api.patch(`${path}/${id}`, { shoeSize: 1 }, {}, { languageCode: 'xx' }), 'update with bad body');
    const unchanged = await acct.api.get(`${path}/${id}`);
    expect(unchanged.body.data.firstName).toBe(members[0]!.firstName);
  });

  it('languageCode is accepted where nothing is localisable', async () => {
    for (const languageCode of LANGS) {
      const res = await list('account_user', { languageCode, limit: '1' });
      expect(res.body.data).toHaveLength(1);
    }
  });
});
