import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Reply, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

/**
 * CONTRACT §2/§3 as a property: random list queries (valid and not) against several resources
 * answer 200 with a well-formed page or 400 `invalid_query`, never anything else. A model written
 * here from the contract says which queries are valid and, for those, which records come back in
 * which order; the seed data (the request bodies) is the only source of expected values.
 */

type Json = Record<string, any>;
type FieldType = 'string' | 'number' | 'boolean' | 'enum' | 'uuid' | 'datetime' | 'stringArray';
interface FieldModel {
  type: FieldType;
  values?: readonly string[];
}
type Rec = Record<string, unknown> & { id: string };
interface ResourceModel {
  slug: string;
  fields: Record<string, FieldModel>;
  /** Returned and selectable, but not filterable or sortable (joined values). */
  selectOnly: string[];
  records: Rec[];
}
/** Whether the contract makes a query valid; `unknown` where it leaves the answer open. */
type Validity = 'valid' | 'invalid' | 'unknown';

const LANGS = ['en', 'es', 'fr', 'de', 'zh-CN', 'ja', 'pt', 'it', 'ko'] as const;
const STATUSES = ['draft', 'live', 'paused'] as const;
const PERIODS = ['daily', 'weekly', 'monthly'] as const;
const LEAF_OPS = ['equals', 'not_equals', 'in', 'not_in', 'gt', 'gte', 'lt', 'lte', 'contains', 'is_null', 'is_not_null'] as const;
type Op = (typeof LEAF_OPS)[number];
const ORDERING: readonly Op[] = ['gt', 'gte', 'lt', 'lte'];
const JUNK_FIELDS = ['', 'nope', 'ID', 'created_at', 'account_id', 'constructor', '__proto__', 'toString'];
const JUNK_OPS = ['eq', 'EQUALS', 'like', 'between', '', 'and', 'isNull'];
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Strings of these characters order the same under C and natural-language collations.
const PLAIN = /^[a-z0-9]*$/;

const text: FieldModel = { type: 'string' };
const num: FieldModel = { type: 'number' };
const bool: FieldModel = { type: 'boolean' };
const uuid: FieldModel = { type: 'uuid' };
const datetime: FieldModel = { type: 'datetime' };
const oneOf = (values: readonly string[]): FieldModel => ({ type: 'enum', values });
const SYSTEM: Record<string, FieldModel> = { id: uuid, createdAt: datetime, updatedAt: datetime };

const pad = (i: number) => String(i).padStart(2, '0');
const EXPIRY_AT = [
  '2026-03-01T10:00:00.000+02:00',
  '2026-03-01T08:00:00.000Z',
  '2026-12-31T23:59:59.999Z',
  '2027-06-01T00:00:00.000-04:00',
];

const models: ResourceModel[] = [
  {
    slug: 'account_user',
    fields: {
      ...SYSTEM,
      externalId: text,
      firstName: text,
      lastName: text,
      email: text,
      phoneNumber: text,
      timezone: text,
      languageCode: oneOf(LANGS),
      pushDeviceTokens: { type: 'stringArray' },
      status: oneOf(STATUSES),
      birthday: text,
      // The service's own code for each member, and whom a member was referred by (none here).
      referralCode: text,
      referredById: uuid,
      unsubscribedChannels: { type: 'stringArray', values: ['email', 'push', 'sms', 'chat'] },
      // The networks a member followed for points: the follow action's, none for the seeded members.
      socialFollows: { type: 'stringArray', values: ['instagram', 'tiktok', 'facebook', 'youtube', 'x', 'pinterest'] },
      // The service's own (CONTRACT §19): 0 for members without point entries, as every seeded one.
      pointsBalance: num,
      pointsEarnedInTierWindow: num,
      lastPointEntryAt: datetime,
      tierId: uuid,
    },
    selectOnly: ['heldOutOf'],
    records: [],
  },
  {
    slug: 'reward',
    fields: {
      ...SYSTEM,
      name: text,
      description: text,
      discountType: oneOf(['percentage', 'fixed_amount']),
      discountValue: num,
      status: oneOf(STATUSES),
      rewardKind: oneOf(['code', 'points']),
      pointsValue: num,
      pointsCost: num,
      rewardExpiryType: oneOf(['no_expiry', 'relative', 'absolute']),
      rewardExpiryInDays: num,
      rewardExpiryAt: datetime,
      handleCoupon: bool,
      handleCouponAutoGeneration: bool,
      couponCodePrefix: text,
      couponCodeLength: num,
      eudTitle: text,
      eudRedeemInstructionMessage: text,
    },
    selectOnly: [],
    records: [],
  },
  {
    slug: 'streak',
    fields: {
      ...SYSTEM,
      name: text,
      description: text,
      status: oneOf(STATUSES),
      aggregationPeriod: oneOf(PERIODS),
      aggregationMethod: oneOf(['count', 'sum']),
      aggregationTargetValue: num,
      completionTargetValue: num,
      toBeBrokenWarningHours: num,
      maxFreezes: num,
      freezeEarnEveryPeriods: num,
      rewardHoldDays: num,
      holdoutPercent: num,
      eudTitle: text,
      eudDescription: text,
      eudIcon: text,
      eudCompletedMessage: text,
      eudMilestoneAchievedMessage: text,
    },
    selectOnly: ['milestones'],
    records: [],
  },
  {
    slug: 'milestone',
    fields: {
      ...SYSTEM,
      linkedSchemaSlug: oneOf(['streak', 'challenge', 'mission']),
      linkedSchemaRecordId: uuid,
      name: text,
      description: text,
      milestoneTargetValue: num,
      status: oneOf(STATUSES),
      rewardId: uuid,
      eudTitle: text,
      eudDescription: text,
      eudIcon: text,
      eudMilestoneRewardTitle: text,
      eudMilestoneRewardInstructionMessage: text,
    },
    selectOnly: [],
    records: [],
  },
];
const model = (slug: string) => models.find((m) => m.slug === slug)!;

let app: TestApp;
let acct: TestAccount;

async function seed(slug: string, body: Json): Promise<Rec> {
  const res = await acct.api.post(`/schema/${slug}/record`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const { id, createdAt, updatedAt } = res.body.data;
  const balances =
    slug === 'account_user'
      ? {
          pointsBalance: 0,
          pointsEarnedInTierWindow: 0,
          lastPointEntryAt: null,
          tierId: null,
          referralCode: res.body.data.referralCode,
          referredById: null,
          socialFollows: [],
        }
      : {};
  const rec: Rec = { ...body, ...balances, id, createdAt, updatedAt };
  model(slug).records.push(rec);
  return rec;
}

beforeAll(async () => {
  app = await startTestApp();
  acct = await app.createAccount();
  // Every modelled field is written explicitly, so the model never relies on a server default.
  for (let i = 0; i < 12; i++) {
    await seed('account_user', {
      externalId: `x${i}`,
      firstName: ['ann', 'bob', 'cyd', 'ann', 'dee', null][i % 6],
      lastName: ['kim', 'lee', 'kim', 'moe'][i % 4],
      email: i % 3 === 2 ? null : `p${pad(i)}@example.com`,
      phoneNumber: i % 2 ? `+4917000000${pad(i)}` : null,
      timezone: ['Europe/Paris', 'UTC', null][(i + 1) % 3],
      languageCode: [...LANGS, null][i % 10],
      pushDeviceTokens: i % 4 === 0 ? [] : [`t${i % 2}`, `u${i}`],
      status: STATUSES[i % 3],
      birthday: ['02-29', '12-31', null, '01-05'][i % 4],
      unsubscribedChannels: [[], ['email'], ['sms', 'email']][i % 3],
    });
  }
  const rewards: Rec[] = [];
  for (let i = 0; i < 8; i++) {
    const type = (['absolute', 'relative', 'no_expiry'] as const)[i % 3];
    rewards.push(
      await seed('reward', {
        name: `r${i}`,
        description: ['gift', 'promo', 'bonus'][i % 3],
        discountType: i % 2 ? 'percentage' : 'fixed_amount',
        discountValue: [5, 10, 10, 0, 2.5, 99, 5, 40][i],
        status: STATUSES[i % 3],
        rewardKind: 'code',
        pointsValue: i % 4 === 2 ? 50 : null,
        pointsCost: [null, 100, 500, 100][i % 4],
        rewardExpiryType: type,
        rewardExpiryInDays: type === 'relative' ? i + 1 : null,
        rewardExpiryAt: type === 'absolute' ? EXPIRY_AT[i % 4] : null,
        handleCoupon: i % 3 === 0,
        handleCouponAutoGeneration: i % 4 === 1,
        couponCodePrefix: i % 2 ? `pre${i}` : null,
        couponCodeLength: 6 + i * 3,
        eudTitle: i % 4 === 3 ? null : `title${i % 3}`,
        eudRedeemInstructionMessage: i % 2 ? 'useit' : null,
      }),
    );
  }
  const streaks: Rec[] = [];
  for (let i = 0; i < 6; i++) {
    streaks.push(
      await seed('streak', {
        name: `s${i}`,
        description: i % 2 ? 'desc' : null,
        status: STATUSES[i % 3],
        aggregationPeriod: PERIODS[i % 3],
        aggregationMethod: i % 2 ? 'sum' : 'count',
        aggregationTargetValue: [1, 2.5, 1, 3, 0.5, 10][i],
        completionTargetValue: i % 3 === 0 ? null : 10 + i,
        toBeBrokenWarningHours: [4, 0, 12, 4, 24, 1.5][i],
        maxFreezes: [0, 3, 1, 0, 10, 3][i],
        freezeEarnEveryPeriods: i % 2 ? null : 7 - i,
        rewardHoldDays: [0, 14, 30, 0, 90, 1][i],
        holdoutPercent: [0, 10, 50, 0, 25, 1][i],
        eudTitle: ['walk', 'run', null, 'swim', 'walk', 'ride'][i],
        eudDescription: i % 2 ? 'daily' : null,
        eudIcon: i % 3 === 1 ? `https://cdn.example.com/i${i}.png` : null,
        eudCompletedMessage: i % 2 ? null : 'done',
        eudMilestoneAchievedMessage: i % 3 ? 'yay' : null,
      }),
    );
  }
  for (let i = 0; i < 8; i++) {
    await seed('milestone', {
      linkedSchemaSlug: 'streak',
      linkedSchemaRecordId: streaks[(i % 2) * 3]!.id,
      name: `ms${i}`,
      description: ['a', 'b'][i % 2],
      milestoneTargetValue: i + 1,
      status: STATUSES[i % 3],
      rewardId: i % 3 === 0 ? null : rewards[i]!.id,
      eudTitle: i % 2 ? `gold${i}` : null,
      eudDescription: i % 3 ? 'x' : null,
      eudIcon: i % 4 === 1 ? 'https://cdn.example.com/m.png' : null,
      eudMilestoneRewardTitle: i % 2 ? null : 'off',
      eudMilestoneRewardInstructionMessage: i % 3 === 2 ? 'code' : null,
    });
  }
}, 120_000);
afterAll(() => app?.close());

// ---- The model: validity, evaluation, order -------------------------------------------------

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const worst = (vs: Validity[]): Validity => (vs.includes('invalid') ? 'invalid' : vs.includes('unknown') ? 'unknown' : 'valid');
const fieldOf = (m: ResourceModel, slug: unknown) =>
  typeof slug === 'string' && Object.hasOwn(m.fields, slug) ? m.fields[slug] : undefined;

/** Milliseconds of an ISO 8601 instant (no offset = UTC, sub-millisecond digits dropped), or undefined. */
function instant(v: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?(Z|([+-])(\d{2}):?(\d{2}))?)?$/.exec(v);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0)) as [number, number, number, number, number, number];
  const daysInMonth = [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth[mo - 1]! || h > 23 || mi > 59 || s > 59) return undefined;
  const [oh, om] = [Number(m[10] ?? 0), Number(m[11] ?? 0)];
  if (oh > 23 || om > 59) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, Number((m[7] ?? '').padEnd(3, '0').slice(0, 3)));
  const t = date.getTime() - (m[9] === '-' ? -1 : 1) * (oh * 60 + om) * 60_000;
  const year = new Date(t).getUTCFullYear();
  return year >= 1 && year <= 9999 ? t : undefined;
}

function scalarValid(f: FieldModel, v: unknown): boolean {
  switch (f.type) {
    case 'string':
      // PostgreSQL text cannot hold NUL: such a value can match nothing, and is refused.
      return typeof v === 'string' && !v.includes('\u0000');
    case 'stringArray':
      // An array of a closed set (a member's unsubscribed channels) holds only its values.
      return typeof v === 'string' && !v.includes('\u0000') && (!f.values || f.values.includes(v));
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'enum':
      return typeof v === 'string' && f.values!.includes(v);
    case 'uuid':
      return typeof v === 'string' && UUID_RE.test(v);
    case 'datetime':
      return typeof v === 'string' && instant(v) !== undefined;
  }
}

/** Which operators apply to which types; `unknown` where the contract leaves it open. */
function applicable(f: FieldModel, op: Op): Validity {
  if (op === 'is_null' || op === 'is_not_null') return 'valid';
  switch (f.type) {
    case 'string':
      return 'valid';
    case 'stringArray':
      return op === 'contains' ? 'valid' : 'invalid';
    case 'boolean':
      return op === 'equals' || op === 'not_equals' ? 'valid' : op === 'in' || op === 'not_in' ? 'unknown' : 'invalid';
    default:
      return op === 'contains' ? 'invalid' : 'valid';
  }
}

function leafValidity(m: ResourceModel, node: Json): Validity {
  if (Object.keys(node).some((k) => !['fieldSlug', 'operator', 'fieldValue'].includes(k))) return 'invalid';
  const f = fieldOf(m, node.fieldSlug);
  if (!f || !(LEAF_OPS as readonly unknown[]).includes(node.operator)) return 'invalid';
  const op = node.operator as Op;
  const v = node.fieldValue;
  const value: Validity = (() => {
    if (op === 'is_null' || op === 'is_not_null') return 'fieldValue' in node ? 'unknown' : 'valid';
    if (op === 'in' || op === 'not_in') {
      if (!Array.isArray(v)) return 'invalid';
      if (!v.every((x) => scalarValid(f, x))) return 'invalid';
      return v.length ? 'valid' : 'unknown';
    }
    return scalarValid(f, v) ? 'valid' : 'invalid';
  })();
  return worst([applicable(f, op), value]);
}

function filterValidity(m: ResourceModel, root: unknown): Validity {
  let leaves = 0;
  const walk = (node: unknown, depth: number): Validity => {
    if (!isObject(node)) return 'invalid';
    if ('conditions' in node) {
      if (depth > 5 || Object.keys(node).some((k) => k !== 'operator' && k !== 'conditions')) return 'invalid';
      if ((node.operator !== 'and' && node.operator !== 'or') || !Array.isArray(node.conditions)) return 'invalid';
      return worst(node.conditions.map((c: unknown) => walk(c, depth + 1)));
    }
    leaves += 1;
    return leafValidity(m, node);
  };
  const v = walk(root, 1);
  return leaves > 50 ? 'invalid' : v;
}

const isNull = (f: FieldModel, actual: unknown) => (f.type === 'stringArray' ? (actual as string[]).length === 0 : actual === null);

function same(f: FieldModel, actual: unknown, v: unknown): boolean {
  if (f.type === 'datetime') return instant(actual as string) === instant(v as string);
  if (f.type === 'uuid') return (actual as string).toLowerCase() === (v as string).toLowerCase();
  return actual === v;
}

function compare(f: FieldModel, a: unknown, b: unknown): number {
  if (f.type === 'datetime') return instant(a as string)! - instant(b as string)!;
  if (f.type === 'number') return (a as number) - (b as number);
  if (f.type === 'boolean') return Number(a) - Number(b);
  const [x, y] = f.type === 'uuid' ? [(a as string).toLowerCase(), (b as string).toLowerCase()] : [a as string, b as string];
  return x < y ? -1 : x > y ? 1 : 0;
}

function leafMatches(m: ResourceModel, node: Json, rec: Rec): boolean {
  const f = fieldOf(m, node.fieldSlug)!;
  const actual = rec[node.fieldSlug];
  const v = node.fieldValue;
  const none = isNull(f, actual);
  switch (node.operator as Op) {
    case 'is_null':
      return none;
    case 'is_not_null':
      return !none;
    case 'equals':
      return !none && same(f, actual, v);
    case 'not_equals':
      return none || !same(f, actual, v);
    case 'in':
      return !none && (v as unknown[]).some((x) => same(f, actual, x));
    case 'not_in':
      return none || !(v as unknown[]).some((x) => same(f, actual, x));
    case 'gt':
      return !none && compare(f, actual, v) > 0;
    case 'gte':
      return !none && compare(f, actual, v) >= 0;
    case 'lt':
      return !none && compare(f, actual, v) < 0;
    case 'lte':
      return !none && compare(f, actual, v) <= 0;
    case 'contains':
      return f.type === 'stringArray'
        ? (actual as string[]).includes(v as string)
        : !none && (actual as string).toLowerCase().includes((v as string).toLowerCase());
  }
}

/** A valid filter over one record; an empty group constrains nothing (undefined). */
function evaluate(m: ResourceModel, node: Json, rec: Rec): boolean | undefined {
  if (!('conditions' in node)) return leafMatches(m, node, rec);
  const results = (node.conditions as Json[]).map((c) => evaluate(m, c, rec)).filter((r) => r !== undefined);
  if (!results.length) return undefined;
  return node.operator === 'and' ? results.every(Boolean) : results.some(Boolean);
}

/** String ordering differs between collations beyond plain lowercase ASCII; results elsewhere are not predicted. */
function orderPredictable(m: ResourceModel, slug: string, value?: unknown): boolean {
  if (m.fields[slug]!.type !== 'string') return true;
  const plain = (s: unknown) => s === null || (typeof s === 'string' && PLAIN.test(s));
  return m.records.every((r) => plain(r[slug])) && (value === undefined || plain(value));
}

function filterPredictable(m: ResourceModel, node: Json): boolean {
  if ('conditions' in node) return (node.conditions as Json[]).every((c) => filterPredictable(m, c));
  if (ORDERING.includes(node.operator)) return orderPredictable(m, node.fieldSlug, node.fieldValue);
  // ilike lowercases by the database's ctype: only ASCII is predictable everywhere.
  if (node.operator === 'contains') return /^[\x20-\x7e]*$/.test(node.fieldValue as string);
  return true;
}

interface SortKey {
  fieldSlug: string;
  order: 'ASC' | 'DESC';
}

/** Each key in turn, a missing value after every present one (ASC); then id in the last key's direction. */
function sortRecords(m: ResourceModel, records: Rec[], keys: SortKey[]): Rec[] {
  const byId = (a: Rec, b: Rec) => compare(uuid, a.id, b.id);
  return [...records].sort((a, b) => {
    for (const { fieldSlug, order } of keys) {
      const f = m.fields[fieldSlug]!;
      const [x, y] = [a[fieldSlug], b[fieldSlug]];
      const c = x === null && y === null ? 0 : x === null ? 1 : y === null ? -1 : compare(f, x, y);
      if (c) return order === 'ASC' ? c : -c;
    }
    return keys.some((k) => k.fieldSlug === 'id') ? 0 : keys.at(-1)!.order === 'ASC' ? byId(a, b) : byId(b, a);
  });
}

// ---- Generators ------------------------------------------------------------------------------

interface Param<T = unknown> {
  raw: string;
  validity: Validity;
  value?: T;
}

const seeded = (m: ResourceModel, slug: string) => m.records.map((r) => r[slug]).filter((v) => v !== null);
const weighted = <T>(...parts: [number, fc.Arbitrary<T>][]) => fc.oneof(...parts.map(([weight, arbitrary]) => ({ weight, arbitrary })));
const junkJson = fc.jsonValue({ maxDepth: 2 });
const ABSENT = Symbol('absent');

function instantForms(ms: number): string[] {
  const iso = new Date(ms).toISOString();
  return [
    iso,
    new Date(ms + 2 * 3600_000).toISOString().replace('Z', '+02:00'),
    new Date(ms - 5 * 3600_000).toISOString().replace('Z', '-05:00'),
    iso.slice(0, -1),
    iso.slice(0, 10),
  ];
}

function typedValue(m: ResourceModel, slug: string): fc.Arbitrary<unknown> {
  const f = fieldOf(m, slug);
  if (!f) return junkJson;
  const from = (values: unknown[]) => (values.length ? fc.constantFrom(...values) : fc.constant(null));
  switch (f.type) {
    case 'string': {
      const values = seeded(m, slug) as string[];
      const slice = from(values).chain((s) => {
        const str = String(s);
        return fc.tuple(fc.nat(str.length), fc.nat(str.length)).map(([i, j]) => str.slice(Math.min(i, j), Math.max(i, j)).toUpperCase());
      });
      return weighted(
        [4, from(values)],
        [2, slice],
        [2, fc.stringMatching(/^[a-z0-9%_\\]{0,4}$/)],
        [1, fc.string({ maxLength: 6 })],
        [1, fc.constant('a\u0000')],
      );
    }
    case 'stringArray': {
      const elements = (seeded(m, slug) as string[][]).flat();
      return weighted([4, from(elements)], [1, fc.stringMatching(/^[a-z0-9]{0,3}$/)], [1, fc.constant('\u0000')]);
    }
    case 'number':
      return weighted(
        [4, from(seeded(m, slug))],
        [2, fc.integer({ min: -5, max: 120 })],
        [1, fc.double({ noNaN: true, noDefaultInfinity: true })],
        [1, fc.constantFrom(1.5, -0, 1e20, '5')],
      );
    case 'boolean':
      return weighted<unknown>([6, fc.boolean()], [1, fc.constantFrom('true', 1, null)]);
    case 'enum':
      return weighted([6, fc.constantFrom(...f.values!)], [1, fc.constantFrom('LIVE', 'x', '')]);
    case 'uuid': {
      const ids = seeded(m, slug) as string[];
      return weighted(
        [4, from(ids)],
        [1, from(ids).map((s) => String(s).toUpperCase())],
        [1, fc.uuid()],
        [1, fc.constantFrom('abc', '00000000-0000-0000-0000-00000000000g')],
      );
    }
    case 'datetime': {
      const instants = (seeded(m, slug) as string[]).map((s) => instant(s)!);
      const near = from(instants).chain((t) =>
        fc.constantFrom(0, 1, -1, 3_600_000, -86_400_000).chain((d) => fc.constantFrom(...instantForms(Number(t) + d))),
      );
      const junk = fc.constantFrom(
        '2026-02-30',
        '2025-02-29',
        '0000-01-01T00:00:00Z',
        'yesterday',
        '2026-01-01T25:00:00Z',
        '2026-04-31T10:00:00Z',
        '2026-13-01',
        1767225600000,
      );
      return weighted(
        [5, near],
        [2, fc.date({ min: new Date('1990-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString())],
        [1, junk],
      );
    }
  }
}

function leafArb(m: ResourceModel, knownField = false): fc.Arbitrary<Json> {
  const slugs = Object.keys(m.fields);
  const field = knownField
    ? fc.constantFrom(...slugs)
    : weighted([9, fc.constantFrom(...slugs)], [1, fc.constantFrom(...JUNK_FIELDS, ...m.selectOnly)]);
  // Mostly operators that apply to the field, so that many filters are valid and get checked.
  const opFor = (slug: string) => {
    const f = fieldOf(m, slug);
    const fitting = f ? LEAF_OPS.filter((o) => applicable(f, o) === 'valid') : [...LEAF_OPS];
    return weighted<string>(
      [8, fc.constantFrom(...fitting)],
      [4, fc.constantFrom(...LEAF_OPS)],
      [knownField ? 0 : 1, fc.constantFrom(...JUNK_OPS)],
    );
  };
  return field
    .chain((slug) => opFor(slug).map((op) => [slug, op] as const))
    .chain(([fieldSlug, operator]) => {
      const value: fc.Arbitrary<unknown> =
        operator === 'is_null' || operator === 'is_not_null'
          ? weighted<unknown>([6, fc.constant(ABSENT)], [1, junkJson])
          : operator === 'in' || operator === 'not_in'
            ? weighted<unknown>(
                [6, fc.array(typedValue(m, fieldSlug), { minLength: 1, maxLength: 4 })],
                [1, junkJson],
                [1, fc.constant([])],
              )
            : weighted<unknown>([6, typedValue(m, fieldSlug)], [1, junkJson]);
      const extra = weighted([20, fc.constant({})], [1, fc.constant({ caseSensitive: true })]);
      return fc.tuple(value, extra).map(([fieldValue, more]) => ({
        fieldSlug,
        operator,
        ...(fieldValue === ABSENT ? {} : { fieldValue }),
        ...more,
      }));
    });
}

function filterArb(m: ResourceModel): fc.Arbitrary<Param<Json>> {
  const { tree } = fc.letrec<{ tree: Json; group: Json }>((tie) => ({
    tree: weighted([3, leafArb(m)], [2, tie('group')]),
    group: fc
      .tuple(
        weighted<unknown>([15, fc.constantFrom('and', 'or')], [1, fc.constantFrom('AND', 'not', 1)]),
        fc.array(tie('tree'), { maxLength: 4 }),
        weighted([20, fc.constant({})], [1, fc.constant({ negate: true })]),
      )
      .map(([operator, conditions, more]) => ({ operator, conditions, ...more })),
  }));
  const group = (operator: string, conditions: unknown[]) => ({ operator, conditions });
  const deep = fc.tuple(fc.integer({ min: 3, max: 7 }), leafArb(m, true)).map(([depth, leaf]) => {
    let node: Json = leaf;
    for (let i = 0; i < depth; i++) node = group(i % 2 ? 'or' : 'and', [node]);
    return node;
  });
  const wide = fc
    .tuple(fc.constantFrom('and', 'or'), fc.array(leafArb(m, true), { minLength: 45, maxLength: 55 }))
    .map(([op, leaves]) => group(op, leaves));
  const root: fc.Arbitrary<unknown> = weighted(
    [6, tree.filter(isObject).map((t) => ('conditions' in t ? t : group('and', [t])))],
    [1, tree],
    [1, deep],
    [1, wide],
  );
  const asParam = root.map((value): Param<Json> => ({
    raw: JSON.stringify(value),
    validity: filterValidity(m, value),
    value: value as Json,
  }));
  const junk = fc
    .oneof(fc.constantFrom('{', '', 'null', '[]', '{}', '"x"', '42', '{"operator":"and"}'), fc.string({ maxLength: 8 }))
    .map((raw): Param<Json> => ({ raw, validity: 'invalid' }));
  return weighted([9, asParam], [1, junk]);
}

function sortArb(m: ResourceModel): fc.Arbitrary<Param<SortKey[]>> {
  const sortable = Object.keys(m.fields).filter((k) => m.fields[k]!.type !== 'stringArray');
  const unsortable = [...JUNK_FIELDS, ...m.selectOnly, ...Object.keys(m.fields).filter((k) => !sortable.includes(k))];
  const key = fc.record({
    fieldSlug: weighted([9, fc.constantFrom(...sortable)], [1, fc.constantFrom(...unsortable)]),
    order: weighted<unknown>([9, fc.constantFrom('ASC', 'DESC')], [1, fc.constantFrom('asc', 'UP', 1)]),
  });
  return weighted(
    [
      9,
      fc.array(key, { maxLength: 6 }).map((keys): Param<SortKey[]> => {
        const itemsOk = keys.every((k) => sortable.includes(k.fieldSlug) && (k.order === 'ASC' || k.order === 'DESC'));
        // Zero or six keys: the contract names no bound.
        const validity: Validity = !itemsOk ? 'invalid' : keys.length === 0 || keys.length > 5 ? 'unknown' : 'valid';
        return { raw: JSON.stringify(keys), validity, value: keys as SortKey[] };
      }),
    ],
    [
      1,
      fc
        .constantFrom('[', '{}', 'null', '"createdAt"', '[{"fieldSlug":"id"}]')
        .map((raw): Param<SortKey[]> => ({ raw, validity: raw.startsWith('[{') ? 'unknown' : 'invalid' })),
    ],
  );
}

function fieldsArb(m: ResourceModel): fc.Arbitrary<Param<string[]>> {
  const selectable = [...Object.keys(m.fields), ...m.selectOnly];
  return weighted(
    [
      9,
      fc
        .array(weighted([9, fc.constantFrom(...selectable)], [1, fc.constantFrom(...JUNK_FIELDS)]), { maxLength: 4 })
        .map((fields): Param<string[]> => ({
          raw: JSON.stringify(fields),
          validity: fields.every((f) => selectable.includes(f)) ? 'valid' : 'invalid',
          value: fields,
        })),
    ],
    [1, fc.constantFrom('id', '{}', '"id"', '[1]', '[').map((raw): Param<string[]> => ({ raw, validity: 'invalid' }))],
  );
}

const valid = (raw: string): Param<string> => ({ raw, validity: 'valid', value: raw });
const invalid = (raw: string): Param<string> => ({ raw, validity: 'invalid' });
const limitArb = weighted(
  [4, fc.integer({ min: 1, max: 1000 }).map(String).map(valid)],
  [4, fc.constantFrom('1', '2', '3', '5', '10').map(valid)],
  [1, fc.constantFrom('0', '1001', '-1', 'abc', '1.5', '', '1e2', ' 5', '+5', '0x10').map(invalid)],
);
const offsetArb = weighted(
  [8, fc.integer({ min: 0, max: 40 }).map(String).map(valid)],
  [1, fc.constantFrom('-1', 'x', '1.0', '', ' 1', '-0').map(invalid)],
);
const totalArb = weighted([8, fc.constantFrom('true', 'false').map(valid)], [1, fc.constantFrom('maybe', 'TRUE', '', '1').map(invalid)]);
const langArb = weighted([8, fc.constantFrom(...LANGS).map(valid)], [1, fc.constantFrom('xx', 'EN', '', 'fr-FR').map(invalid)]);
/** A parameter the list route does not know; its name is the `raw` here. */
const unknownArb = fc.constantFrom('foo', 'page', 'filter', 'sort', 'orderBy').map(invalid);

type ParamName = 'filters' | 'sortBy' | 'fields' | 'limit' | 'offset' | 'fetchTotalCount' | 'languageCode' | 'unknown';
interface Request {
  slug: string;
  params: Partial<Record<ParamName, Param<any>>>;
}

/** Present in `present` out of `present + absent` requests. */
const maybe = <T>(arb: fc.Arbitrary<T>, present: number, absent: number) =>
  weighted<T | undefined>([present, arb], [absent, fc.constant(undefined)]);

const requestArb: fc.Arbitrary<Request> = fc.constantFrom(...models).chain((m) =>
  fc
    .record({
      filters: maybe(filterArb(m), 4, 1),
      sortBy: maybe(sortArb(m), 1, 1),
      fields: maybe(fieldsArb(m), 3, 7),
      limit: maybe(limitArb, 1, 1),
      offset: maybe(offsetArb, 1, 1),
      fetchTotalCount: maybe(totalArb, 3, 7),
      languageCode: maybe(langArb, 3, 7),
      unknown: maybe(unknownArb, 1, 19),
    })
    .map((all) => ({
      slug: m.slug,
      params: Object.fromEntries(Object.entries(all).filter(([, p]) => p !== undefined)) as Request['params'],
    })),
);

// ---- The property ----------------------------------------------------------------------------

function expectInvalidQuery(res: Reply): void {
  expect(res.body).toEqual({
    error: { status: 400, code: 'invalid_query', message: expect.any(String), details: expect.any(Array), requestId: expect.any(String) },
  });
}

const asColumn = (f: FieldModel | undefined, v: unknown) =>
  f?.type === 'datetime' && typeof v === 'string' ? new Date(instant(v)!).toISOString() : v;

function expectPage(m: ResourceModel, req: Request, res: Reply): void {
  const { params } = req;
  expect(Object.keys(res.body).sort()).toEqual(['data', 'paging']);
  const { data, paging } = res.body as { data: Json[]; paging: Json };
  expect(Array.isArray(data)).toBe(true);
  const limit = Number(params.limit?.value ?? 100);
  const offset = Number(params.offset?.value ?? 0);
  const withTotal = params.fetchTotalCount?.value === 'true';
  expect(Object.keys(paging).sort()).toEqual(
    withTotal ? ['count', 'hasMore', 'limit', 'offset', 'total'] : ['count', 'hasMore', 'limit', 'offset'],
  );
  expect(paging).toMatchObject({ offset, limit, count: data.length, hasMore: expect.any(Boolean) });
  expect(data.length).toBeLessThanOrEqual(limit);
  if (withTotal) expect(paging.hasMore).toBe(offset + data.length < paging.total);

  const selectable = [...Object.keys(m.fields), ...m.selectOnly];
  const keys = params.fields?.value ? ['id', ...(params.fields.value as string[])] : selectable;
  for (const row of data) {
    expect(typeof row.id).toBe('string');
    expect(Object.keys(row).sort()).toEqual([...new Set(keys)].sort());
    const rec = m.records.find((r) => r.id === row.id);
    expect(rec, `a seeded ${m.slug}`).toBeDefined();
    for (const [k, v] of Object.entries(row)) if (!m.selectOnly.includes(k)) expect(v, k).toEqual(asColumn(m.fields[k], rec![k]));
  }
}

/** Compares the page with the model's answer; false when the query's result is not predictable. */
function expectResults(m: ResourceModel, req: Request, res: Reply): boolean {
  const filter = req.params.filters?.value as Json | undefined;
  const sort = (req.params.sortBy?.value as SortKey[] | undefined) ?? [{ fieldSlug: 'createdAt', order: 'DESC' }];
  if (filter && !filterPredictable(m, filter)) return false;
  if (!sort.every((k) => orderPredictable(m, k.fieldSlug))) return false;
  const matching = m.records.filter((r) => !filter || (evaluate(m, filter, r) ?? true));
  const limit = Number(req.params.limit?.value ?? 100);
  const offset = Number(req.params.offset?.value ?? 0);
  const expected = sortRecords(m, matching, sort)
    .slice(offset, offset + limit)
    .map((r) => r.id);
  expect(res.body.data.map((r: Json) => r.id)).toEqual(expected);
  expect(res.body.paging.hasMore).toBe(matching.length > offset + limit);
  if (req.params.fetchTotalCount?.value === 'true') expect(res.body.paging.total).toBe(matching.length);
  return true;
}

describe('random list queries', () => {
  it('answer a well-formed page or 400 invalid_query, and valid ones match the model', async () => {
    const seen = { valid: 0, invalid: 0, unknown: 0, checked: 0 };
    await fc.assert(
      fc.asyncProperty(requestArb, async (req) => {
        const m = model(req.slug);
        const query = Object.fromEntries(
          Object.entries(req.params).map(([name, p]) => (name === 'unknown' ? [p.raw, '1'] : [name, p.raw])),
        );
        const res = await acct.api.get(`/schema/${m.slug}/record`, query);
        const validity = worst(Object.values(req.params).map((p) => p.validity));
        seen[validity] += 1;
        const context = `${res.status} ${JSON.stringify(res.body).slice(0, 400)}`;
        expect([200, 400], context).toContain(res.status);
        if (res.status === 400) {
          expectInvalidQuery(res);
          expect(validity, context).not.toBe('valid');
          return;
        }
        expect(validity, context).not.toBe('invalid');
        expectPage(m, req, res);
        if (validity === 'valid' && expectResults(m, req, res)) seen.checked += 1;
      }),
      { numRuns: 300 },
    );
    // The generators must exercise both sides.
    expect(seen.valid).toBeGreaterThan(30);
    expect(seen.invalid).toBeGreaterThan(30);
    expect(seen.checked).toBeGreaterThan(20);
  }, 60_000);
});
