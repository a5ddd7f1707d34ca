import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPointsProgram,
  launchPoints,
  POINTS_TEMPLATE,
  type PointsOptions,
  type TemplateMemory,
} from '../app/admin/onboarding/create-points.server';
import { type AccountClient, accountClient } from '../app/core/client.server';
import { TemplateLaunchesStore } from '../app/storage/template-launches.server';
import { type Stack, startStack, TEST_SHOP } from './support/stack';

/**
 * The points and tiers template (CONTRACT §19) in-process against the real core: what one launch
 * creates, in the shop's language with English beside it; a failing step leaves points as they were
 * and nothing behind; a draft set live; a launch repeated, or two at once, never makes anything twice.
 */
let stack: Stack;
let api: AccountClient;
let store: TemplateLaunchesStore;
let memory: TemplateMemory;
const marks = new Map<string, boolean>();
const discounts = { markShopifyDiscount: async (id: string, on: boolean) => void marks.set(id, on) };

beforeAll(async () => {
  stack = await startStack();
  await stack.install();
  api = accountClient(stack.core.url, (await stack.app.shops.find(TEST_SHOP))!);
  store = new TemplateLaunchesStore(() => stack.app.pool);
  memory = {
    claim: () => store.claim(TEST_SHOP, POINTS_TEMPLATE),
    release: (claim) => store.release(TEST_SHOP, POINTS_TEMPLATE, claim),
    records: () => store.records(TEST_SHOP, POINTS_TEMPLATE),
    keep: (record) => store.keep(TEST_SHOP, POINTS_TEMPLATE, record),
    forget: (keys) => store.forget(TEST_SHOP, POINTS_TEMPLATE, keys),
  };
}, 120_000);

afterAll(() => stack?.close());

const GERMAN: PointsOptions = { status: 'live', shopifyDiscounts: false, language: 'de', currency: 'EUR' };
const launch = (options: Partial<PointsOptions> = {}, app = discounts) => createPointsProgram(api, { ...GERMAN, ...options }, app, memory);

type Row = Record<string, any>;
async function list(slug: 'reward' | 'tier' | 'points_setting', languageCode?: 'en' | 'de'): Promise<Row[]> {
  const res = await api.GET(`/schema/${slug}/record` as '/schema/reward/record', {
    params: { query: { limit: 100, ...(languageCode ? { languageCode } : {}) } },
  });
  expect(res.error).toBeUndefined();
  return res.data!.data as Row[];
}
const setting = async (languageCode?: 'en' | 'de') => (await list('points_setting', languageCode))[0]!;
const redeemable = async (languageCode?: 'en' | 'de') =>
  (await list('reward', languageCode)).filter((r) => r.pointsCost != null).sort((a, b) => a.pointsCost - b.pointsCost);
const tiers = async (languageCode?: 'en' | 'de') =>
  (await list('tier', languageCode)).sort((a, b) => a.pointsThreshold - b.pointsThreshold);

describe('points and tiers template', () => {
  it('a failing step deletes what the launch made and leaves points as they were', async () => {
    const before = await setting();
    expect(before).toMatchObject({ status: 'draft', pointsPerCurrencyUnit: 0, pointsOnSignUp: 0 });
    const failing = {
      markShopifyDiscount: async () => {
        throw new Error('discount settings are unavailable');
      },
    };
    const res = await launch({ shopifyDiscounts: true }, failing);
    expect(res).toMatchObject({ ok: false, message: 'discount settings are unavailable', leftOver: [] });
    expect(await redeemable()).toEqual([]);
    expect(await tiers()).toEqual([]);
    expect(await setting()).toMatchObject({ status: 'draft', pointsPerCurrencyUnit: 0, pointsOnSignUp: 0 });
    expect(await memory.records()).toEqual([]);
    // The launch let go of its claim: the next one runs.
    expect((await stack.app.pool.query('select count(*)::int as n from template_launches')).rows[0].n).toBe(0);
  });

  it('as a draft in German: rates and names set, points still off, rewards with costs and tiers as drafts; “Set live” launches all', async () => {
    const res = await launch({ status: 'draft' });
    expect(res.ok, JSON.stringify(res)).toBe(true);
    if (!res.ok) return;
    expect(res.definition).toMatchObject({ slug: 'points_setting', name: 'Punkte und Stufen' });
    expect(await setting('de')).toMatchObject({
      status: 'draft',
      pointsPerCurrencyUnit: 1,
      pointsPerOrder: 0,
      pointsOnSignUp: 100,
      pointsOnBirthday: 100,
      pointsOnReferral: 500,
      pointsOnReferredOrder: 250,
      eudCurrencyName: 'Punkte',
      eudCurrencyNameOne: 'Punkt',
    });
    expect(await setting('en')).toMatchObject({ eudCurrencyName: 'points', eudCurrencyNameOne: 'point' });
    expect((await redeemable('de')).map((r) => [r.status, r.pointsCost, r.discountType, r.discountValue, r.eudTitle])).toEqual([
      ['draft', 500, 'fixed_amount', 5, '5\u00a0€ Rabatt auf deine nächste Bestellung'],
      ['draft', 1000, 'percentage', 10, '10 % Rabatt auf deine nächste Bestellung'],
    ]);
    expect((await redeemable('en')).map((r) => r.eudTitle)).toEqual(['€5 off your next order', '10% off your next order']);
    // Codes from the core (no Shopify discounts chosen), valid 30 days.
    for (const r of await redeemable())
      expect(r).toMatchObject({
        handleCoupon: true,
        handleCouponAutoGeneration: true,
        rewardExpiryType: 'relative',
        rewardExpiryInDays: 30,
      });
    expect((await tiers('de')).map((t) => [t.name, t.status, t.pointsThreshold, t.earnMultiplier, t.eudTitle])).toEqual([
      ['Silber', 'draft', 500, 1.2, 'Silber'],
      ['Gold', 'draft', 1500, 1.5, 'Gold'],
    ]);
    expect((await tiers('en')).map((t) => [t.eudTitle, t.eudDescription])).toEqual([
      ['Silver', 'Earn 20% more points on every purchase.'],
      ['Gold', 'Earn 50% more points on every purchase.'],
    ]);
    expect(marks.size).toBe(0);

    const launched = await launchPoints(api, memory, 'Punkte und Stufen');
    expect(launched).toEqual({ ok: true, name: 'Punkte und Stufen' });
    expect((await setting()).status).toBe('live');
    expect((await redeemable()).map((r) => r.status)).toEqual(['live', 'live']);
    expect((await tiers()).map((t) => t.status)).toEqual(['live', 'live']);
  });

  it('launched again: nothing made twice, and the merchant’s own settings kept', async () => {
    const ids = async () => ({ rewards: (await redeemable()).map((r) => r.id), tiers: (await tiers()).map((t) => t.id) });
    const before = await ids();
    // The merchant's rate and name since the first launch.
    const { id } = await setting();
    const changed = await api.PATCH('/schema/points_setting/record/{id}', {
      params: { path: { id }, query: { languageCode: 'de' } },
      body: { pointsPerCurrencyUnit: 0.5, eudCurrencyName: 'Sterne' },
    });
    expect(changed.error).toBeUndefined();
    const again = await launch();
    expect(again).toMatchObject({ ok: true, created: [] });
    expect(await ids()).toEqual(before);
    expect(await setting('de')).toMatchObject({
      status: 'live',
      pointsPerCurrencyUnit: 0.5,
      pointsOnSignUp: 100,
      pointsOnBirthday: 100,
      pointsOnReferral: 500,
      pointsOnReferredOrder: 250,
      eudCurrencyName: 'Sterne',
    });
    expect((await setting('en')).eudCurrencyName).toBe('points');
  });

  it('two launches at once, after the merchant deleted a tier and a reward: each made again once, the rest kept', async () => {
    const [silver, gold] = await tiers();
    const [fixed, percent] = await redeemable();
    expect((await api.DELETE('/schema/tier/record/{id}', { params: { path: { id: gold!.id } } })).response.status).toBe(204);
    expect((await api.DELETE('/schema/reward/record/{id}', { params: { path: { id: percent!.id } } })).response.status).toBe(204);

    const results = await Promise.all([launch(), launch(), launch()]);
    // Each either ran or found another launch running; at least one ran.
    for (const r of results) expect(r.ok || (!r.ok && r.busy), JSON.stringify(r)).toBe(true);
    expect(results.some((r) => r.ok)).toBe(true);
    const made = results.flatMap((r) => (r.ok ? r.created.map((c) => c.slug) : [])).sort();
    expect(made).toEqual(['reward', 'tier']);

    const nowTiers = await tiers();
    expect(nowTiers.map((t) => [t.pointsThreshold, t.status])).toEqual([
      [500, 'live'],
      [1500, 'live'],
    ]);
    expect(nowTiers[0]!.id).toBe(silver!.id);
    const nowRewards = await redeemable();
    expect(nowRewards.map((r) => r.pointsCost)).toEqual([500, 1000]);
    expect(nowRewards[0]!.id).toBe(fixed!.id);
    expect((await memory.records()).map((r) => r.key).sort()).toEqual([
      'reward:fixed500',
      'reward:percent1000',
      'tier:gold',
      'tier:silver',
    ]);
  });

  it('a crashed launch’s claim is taken over after two minutes, never before', async () => {
    const claim = await memory.claim();
    expect(claim).toBeTruthy();
    expect(await launch()).toMatchObject({ ok: false, busy: true });
    await stack.app.pool.query(`update template_launches set started_at = now() - interval '3 minutes'`);
    expect(await launch()).toMatchObject({ ok: true, created: [] });
    // The stale claim's owner releasing late does not free the new one's (already released) row.
    await memory.release(claim!);
    expect((await stack.app.pool.query('select count(*)::int as n from template_launches')).rows[0].n).toBe(0);
  });
});
