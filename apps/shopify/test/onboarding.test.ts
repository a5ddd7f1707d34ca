import { getJwt, TEST_SHOP, TEST_SHOP_NAME } from '@shopify/shopify-api/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../core/test/support/harness';
import { PLAIN_SETTINGS_DATA } from './support/admin-stub';
import { type Production, startProduction } from './support/production';
import { SHOPIFY } from './support/stack';

/**
 * The dashboard's first-run checklist through the production build (its own `start`) and the core's
 * compiled `serve`, over HTTP: each program template creates what it says, in the shop's language;
 * a failing last step leaves nothing behind; the theme embed check reads the main theme's settings.
 */
let prod: Production;
let api: Client;
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';

beforeAll(async () => {
  prod = await startProduction();
  const first = await dashboard();
  expect(first.status).toBe(200);
  const account = (await prod.shops.find(TEST_SHOP))!;
  api = new Client(`${prod.core.url}/api/v1.0`, { 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret });
}, 120_000);

afterAll(() => prod?.close());

/** The dashboard as the embedded admin loads it; its HTML carries the checklist. */
async function dashboard(): Promise<Response> {
  const { token } = await getJwt(TEST_SHOP_NAME, SHOPIFY.apiKey, SHOPIFY.apiSecretKey);
  const url = new URL('/app', prod.url);
  url.searchParams.set('embedded', '1');
  url.searchParams.set('shop', TEST_SHOP);
  url.searchParams.set('host', Buffer.from(`admin.shopify.com/store/${TEST_SHOP_NAME}`).toString('base64'));
  url.searchParams.set('id_token', token);
  return fetch(url, { headers: { 'user-agent': BROWSER }, redirect: 'manual' });
}

/** The checklist's action as App Bridge's fetch sends it: JSON with the session token. */
async function onboarding(body: Record<string, unknown>): Promise<{ status: number; body: any }> {
  const { token } = await getJwt(TEST_SHOP_NAME, SHOPIFY.apiKey, SHOPIFY.apiSecretKey);
  const res = await fetch(`${prod.url}/app/onboarding`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'user-agent': BROWSER },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

const where = (conditions: [string, unknown][]) => ({
  filters: { operator: 'and', conditions: conditions.map(([fieldSlug, fieldValue]) => ({ fieldSlug, operator: 'equals', fieldValue })) },
});

async function list(slug: string, conditions: [string, unknown][] = [], query: Record<string, unknown> = {}): Promise<any[]> {
  const res = await api.get(`/schema/${slug}/record`, { ...where(conditions), limit: 100, ...query });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

async function milestonesOf(definitionId: string) {
  const found = await list('milestone', [['linkedSchemaRecordId', definitionId]]);
  const rewards = new Map((await list('reward')).map((r) => [r.id, r]));
  return found
    .sort((a, b) => a.milestoneTargetValue - b.milestoneTargetValue)
    .map((m) => ({ target: m.milestoneTargetValue, status: m.status, reward: rewards.get(m.rewardId) }));
}

/** The earning rule the app keeps for a definition (CONTRACT §17); undefined when none. */
const ruleOf = async (definitionId: string) =>
  (
    await prod.appPool.query('select kind, source, collection_ids from earning_rules where shop = $1 and definition_id = $2', [
      TEST_SHOP,
      definitionId,
    ])
  ).rows[0];

const discountRewards = async () =>
  new Set(
    (
      await prod.appPool.query<{ reward_id: string }>('select reward_id from shopify_discount_rewards where shop = $1', [TEST_SHOP])
    ).rows.map((r) => r.reward_id),
  );

describe('program templates', () => {
  it('daily visit streak: a live daily streak of 7 days fed by visits, rewards at 3 and 7 days, codes from the core, and the widget records', async () => {
    const res = await onboarding({ intent: 'create', template: 'daily-visit', status: 'live', shopifyDiscounts: false });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ ok: true, language: 'en', definition: { slug: 'streak', name: 'Daily visit streak' } });
    const streak = (await api.get(`/schema/streak/record/${res.body.definition.id}`)).body.data;
    expect(streak).toMatchObject({
      status: 'live',
      aggregationPeriod: 'daily',
      aggregationMethod: 'count',
      aggregationTargetValue: 1,
      completionTargetValue: 7,
      rewardHoldDays: 0,
      eudTitle: 'Daily visit streak',
    });
    expect(await ruleOf(streak.id)).toEqual({ kind: 'streak', source: 'visits', collection_ids: [] });
    const milestones = await milestonesOf(streak.id);
    expect(milestones.map((m) => [m.target, m.status, m.reward.discountType, m.reward.discountValue, m.reward.handleCoupon])).toEqual([
      [3, 'live', 'percentage', 10, true],
      [7, 'live', 'percentage', 20, true],
    ]);
    expect(milestones.every((m) => m.reward.handleCouponAutoGeneration && m.reward.rewardExpiryType === 'relative')).toBe(true);
    // The widget needs a live launcher, theme and texts; the account had none.
    for (const slug of ['floating_widget', 'theme', 'template']) expect(await list(slug, [['status', 'live']])).toHaveLength(1);
    expect(await discountRewards()).toEqual(new Set());
  });

  it('the checklist counts the live program as done however many drafts are newer', async () => {
    for (let i = 0; i < 21; i++)
      expect((await api.post('/schema/streak/record', { name: `Draft ${i}`, status: 'draft' })).status).toBe(200);
    const html = await (await dashboard()).text();
    expect(html).toContain('1 of 4 steps done');
    for (const draft of await list('streak', [['status', 'draft']]))
      expect((await api.delete(`/schema/streak/record/${draft.id}`)).status).toBe(204);
  });

  it('weekly streak with freezes fed by orders, held 14 days, as a draft, its rewards issued as Shopify discounts; "Set live" launches it', async () => {
    const res = await onboarding({ intent: 'create', template: 'weekly-freezes', status: 'draft', shopifyDiscounts: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const streak = (await api.get(`/schema/streak/record/${res.body.definition.id}`)).body.data;
    expect(streak).toMatchObject({
      status: 'draft',
      aggregationPeriod: 'weekly',
      completionTargetValue: null,
      maxFreezes: 2,
      freezeEarnEveryPeriods: 4,
      rewardHoldDays: 14,
    });
    expect(await ruleOf(streak.id)).toEqual({ kind: 'streak', source: 'orders', collection_ids: [] });
    const milestones = await milestonesOf(streak.id);
    expect(milestones.map((m) => [m.target, m.reward.discountValue, m.reward.handleCoupon, m.reward.handleCouponAutoGeneration])).toEqual([
      [4, 10, false, false],
      [12, 25, false, false],
    ]);
    expect(await discountRewards()).toEqual(new Set(milestones.map((m) => m.reward.id)));
    // Only one launcher, theme and template: the first template created them.
    expect(await list('floating_widget')).toHaveLength(1);

    const launched = await onboarding({ intent: 'launch', slug: 'streak', id: streak.id });
    expect(launched.body).toMatchObject({ ok: true, name: 'Weekly streak' });
    expect((await api.get(`/schema/streak/record/${streak.id}`)).body.data.status).toBe('live');
  });

  it('monthly spend challenge: order amounts add up to 200 in a calendar month, held 14 days, rewards at 100 and 200, and its leaderboard', async () => {
    const res = await onboarding({ intent: 'create', template: 'monthly-spend', status: 'live', shopifyDiscounts: false });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const challenge = (await api.get(`/schema/challenge/record/${res.body.definition.id}`)).body.data;
    expect(challenge).toMatchObject({
      status: 'live',
      aggregationPeriod: 'monthly',
      aggregationMethod: 'sum',
      completionTargetValue: 200,
      rewardHoldDays: 14,
    });
    expect(await ruleOf(challenge.id)).toEqual({ kind: 'challenge', source: 'orders', collection_ids: [] });
    const milestones = await milestonesOf(challenge.id);
    expect(milestones.map((m) => [m.target, m.reward.discountType, m.reward.discountValue])).toEqual([
      [100, 'fixed_amount', 5],
      [200, 'fixed_amount', 15],
    ]);
    // What shoppers read names the amounts in the shop's currency (the stub's EUR).
    expect(challenge.eudDescription).toBe('Reach €200 in orders this month and unlock rewards on the way.');
    expect(milestones.map((m) => m.reward.eudTitle)).toEqual(['€5 off your next order', '€15 off your next order']);
    expect((await list('milestone', [['linkedSchemaRecordId', challenge.id]])).map((m) => m.eudTitle).sort()).toEqual([
      'Halfway: €100 spent',
      '€200 spent this month',
    ]);
    const boards = await list('leaderboard', [['linkedSchemaRecordId', challenge.id]]);
    expect(boards).toEqual([
      expect.objectContaining({
        status: 'live',
        linkedSchemaSlug: 'challenge',
        rankBy: 'window_progress',
        eudTitle: 'Top spenders this month',
      }),
    ]);
    const standings = await api.get(`/schema/leaderboard/record/${boards[0].id}/standings`);
    expect(standings.status).toBe(200);
  });

  it('welcome mission: an account and a first order, both built-in activities, held 14 days, and a reward for both', async () => {
    const res = await onboarding({ intent: 'create', template: 'welcome-mission', status: 'live', shopifyDiscounts: false });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const mission = (await api.get(`/schema/mission/record/${res.body.definition.id}`)).body.data;
    expect(mission.tasks.map((t: any) => [t.activityId, t.eudTitle, t.targetValue])).toEqual([
      ['account_created', 'Create an account', 1],
      ['first_order', 'Place your first order', 1],
    ]);
    expect(mission.rewardHoldDays).toBe(14);
    const reward = (await api.get(`/schema/reward/record/${mission.rewardId}`)).body.data;
    expect(reward).toMatchObject({ discountType: 'percentage', discountValue: 15 });
  });

  it('points and tiers: points live with their rates and name, rewards to redeem as Shopify discounts, Silver and Gold; launched twice, or twice at once, made once', async () => {
    const pointsOf = async () => ({
      setting: (await list('points_setting'))[0],
      rewards: (await list('reward')).filter((r) => r.pointsCost != null).sort((a, b) => a.pointsCost - b.pointsCost),
      tiers: (await list('tier')).sort((a, b) => a.pointsThreshold - b.pointsThreshold),
    });
    // The checklist's data (in the page for its client) lists points, by their setting's id, once they are live.
    const listsPoints = async (settingId: string) => (await (await dashboard()).text()).includes(settingId);
    // The account's one setting exists from the start, earning nothing and not live.
    const [unlaunched] = await list('points_setting');
    expect(unlaunched?.status).not.toBe('live');
    expect(await listsPoints(unlaunched.id)).toBe(false);
    const res = await onboarding({ intent: 'create', template: 'points-tiers', status: 'live', shopifyDiscounts: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ ok: true, language: 'en', definition: { slug: 'points_setting', name: 'Points and tiers' } });
    const first = await pointsOf();
    expect(first.setting).toMatchObject({
      status: 'live',
      pointsPerCurrencyUnit: 1,
      pointsPerOrder: 0,
      pointsOnSignUp: 100,
      pointsOnBirthday: 100,
      pointsOnReferral: 500,
      pointsOnReferredOrder: 250,
      eudCurrencyName: 'points',
    });
    // 5 off in the shop's currency (the Admin API stub's shop is in euros).
    expect(first.rewards.map((r) => [r.pointsCost, r.discountType, r.discountValue, r.status, r.eudTitle, r.handleCoupon])).toEqual([
      [500, 'fixed_amount', 5, 'live', '€5 off your next order', false],
      [1000, 'percentage', 10, 'live', '10% off your next order', false],
    ]);
    // Named with their program, so the admin tells them from another template's "10% off your next order".
    expect(first.rewards.map((r) => r.name)).toEqual([
      '€5 off your next order · Points and tiers',
      '10% off your next order · Points and tiers',
    ]);
    for (const r of first.rewards) expect((await discountRewards()).has(r.id)).toBe(true);
    expect(first.tiers.map((t) => [t.name, t.status, t.pointsThreshold, t.earnMultiplier, t.eudTitle, t.eudDescription])).toEqual([
      ['Silver', 'live', 500, 1.2, 'Silver', 'Earn 20% more points on every purchase.'],
      ['Gold', 'live', 1500, 1.5, 'Gold', 'Earn 50% more points on every purchase.'],
    ]);
    expect(await listsPoints(first.setting.id)).toBe(true);

    const again = await onboarding({ intent: 'create', template: 'points-tiers', status: 'live', shopifyDiscounts: true });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.created).toEqual([]);
    const racing = await Promise.all(
      [1, 2].map(() => onboarding({ intent: 'create', template: 'points-tiers', status: 'live', shopifyDiscounts: true })),
    );
    for (const r of racing) expect([200, 409], JSON.stringify(r.body)).toContain(r.status);
    const ids = (p: Awaited<ReturnType<typeof pointsOf>>) => ({ rewards: p.rewards.map((r) => r.id), tiers: p.tiers.map((t) => t.id) });
    expect(ids(await pointsOf())).toEqual(ids(first));
  });

  it('refuses an unknown template or status with a 400 and creates nothing', async () => {
    const before = (await list('streak')).length;
    expect((await onboarding({ intent: 'create', template: 'nope', status: 'live' })).status).toBe(400);
    expect((await onboarding({ intent: 'create', template: 'daily-visit', status: 'archived' })).status).toBe(400);
    expect((await onboarding({ intent: 'dance' })).status).toBe(400);
    expect(await list('streak')).toHaveLength(before);
  });

  it('a failing last step removes everything created before it and says why', async () => {
    const before = {
      streak: (await list('streak')).length,
      reward: (await list('reward')).length,
      milestone: (await list('milestone')).length,

      rules: (await prod.appPool.query('select count(*)::int as n from earning_rules')).rows[0].n,
    };
    // The app's own database refuses to record the Shopify discount rewards: the step after the core's.
    await prod.appPool.query(`create function refuse_discounts() returns trigger language plpgsql as $$
      begin raise exception 'discount settings are unavailable'; end $$`);
    await prod.appPool.query(
      'create trigger refuse_discounts before insert on shopify_discount_rewards for each row execute function refuse_discounts()',
    );
    try {
      const res = await onboarding({ intent: 'create', template: 'daily-visit', status: 'live', shopifyDiscounts: true });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ ok: false, leftOver: [] });
      expect(res.body.message).toContain('discount settings are unavailable');
    } finally {
      await prod.appPool.query('drop trigger refuse_discounts on shopify_discount_rewards; drop function refuse_discounts()');
    }
    expect({
      streak: (await list('streak')).length,
      reward: (await list('reward')).length,
      milestone: (await list('milestone')).length,
      rules: (await prod.appPool.query('select count(*)::int as n from earning_rules')).rows[0].n,
    }).toEqual(before);
  });
});

describe('template texts in the shop primary language', () => {
  it.each([
    ['de', 'de', 'Tägliche Besuchsserie', '3 Tage in Folge'],
    ['pt-BR', 'pt', 'Sequência de visitas diárias', '3 dias seguidos'],
    ['zh-CN', 'zh-CN', '每日访问连续记录', '连续 3 天'],
    ['nl', 'en', 'Daily visit streak', '3 days in a row'],
    ['zh-TW', 'en', 'Daily visit streak', '3 days in a row'],
  ])('primary locale %s: texts in %s, English for other languages', async (locale, language, title, milestone) => {
    prod.admin.locales = [
      { locale: 'en', primary: false },
      { locale, primary: true },
    ];
    try {
      const res = await onboarding({ intent: 'create', template: 'daily-visit', status: 'draft', shopifyDiscounts: false });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.language).toBe(language);
      const id = res.body.definition.id;
      const read = async (languageCode: string) => (await api.get(`/schema/streak/record/${id}`, { languageCode })).body.data;
      expect((await read(language)).eudTitle).toBe(title);
      expect((await read('en')).eudTitle).toBe('Daily visit streak');
      // A shopper in a language the template was not written in reads the English text.
      expect((await read('it')).eudTitle).toBe('Daily visit streak');
      const [first] = await list('milestone', [['linkedSchemaRecordId', id]], {
        languageCode: language,
        sortBy: JSON.stringify([{ fieldSlug: 'milestoneTargetValue', order: 'ASC' }]),
      });
      expect(first.eudTitle).toBe(milestone);
    } finally {
      prod.admin.locales = [{ locale: 'en', primary: true }];
    }
  });

  it('a German shop without widget records gets them in German: the launcher, and the template’s texts and tab titles', async () => {
    // As in a shop that has none live: the earlier programs' widget records set aside.
    for (const slug of ['floating_widget', 'template'])
      for (const record of await list(slug, [['status', 'live']]))
        expect((await api.patch(`/schema/${slug}/record/${record.id}`, { status: 'draft' })).status).toBe(200);
    prod.admin.locales = [
      { locale: 'en', primary: false },
      { locale: 'de', primary: true },
    ];
    try {
      const res = await onboarding({ intent: 'create', template: 'daily-visit', status: 'draft', shopifyDiscounts: false });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const live = async (slug: string, languageCode: string) => list(slug, [['status', 'live']], { languageCode });
      expect(await live('template', 'de')).toEqual([
        expect.objectContaining({
          loggedOutTitle: 'Mach mit bei unserem Prämienprogramm',
          signUpButtonText: 'Registrieren',
          streaksTabTitle: 'Serien',
        }),
      ]);
      expect((await live('floating_widget', 'de'))[0].eudTitle).toBe('Prämien');
      // The records' names too, as the merchant finds them in the admin's lists.
      expect([(await live('floating_widget', 'de'))[0].name, (await live('template', 'de'))[0].name]).toEqual([
        'Loyalty-Button',
        'Loyalty-Texte',
      ]);
      // English readers keep English texts.
      expect((await live('template', 'en'))[0]).toMatchObject({ loggedOutTitle: 'Join our rewards program', streaksTabTitle: 'Streaks' });
      expect((await live('floating_widget', 'en'))[0].eudTitle).toBe('Rewards');
    } finally {
      prod.admin.locales = [{ locale: 'en', primary: true }];
    }
  });

  it('a shop whose locales cannot be read gets English texts', async () => {
    prod.admin.scripted.set('LoyaltyShopLocales', [{ status: 403 }]);
    const res = await onboarding({ intent: 'create', template: 'welcome-mission', status: 'draft', shopifyDiscounts: false });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.language).toBe('en');
  });
});

describe('the theme embed check', () => {
  /** settings_data.json with the app's embed block (as the theme editor writes it). */
  const withEmbed = (block: Record<string, unknown>, wrap: 'current' | 'preset' = 'current') => {
    const blocks = {
      '17418375123456789': {
        type: 'shopify://apps/loyalty/blocks/loyalty-widget/0b4f6a1e-1234-4c1d-9a53-0f7c2b8e9d10',
        ...block,
      },
      '99': { type: 'shopify://apps/another-app/blocks/chat/11111111-2222-3333-4444-555555555555', disabled: false, settings: {} },
    };
    const settings = { colors_solid_button_labels: '#ffffff', blocks };
    const json = wrap === 'current' ? { current: settings, presets: {} } : { current: 'Sunrise', presets: { Sunrise: settings } };
    return `/*\n * IMPORTANT: The contents of this file are auto-generated. {"current": "not this"}\n */\n${JSON.stringify(json, null, 2)}`;
  };

  /** The dashboard's HTML, which renders the check's outcome in the checklist's second step. */
  // The page as drawn: without its scripts, which carry every text of the admin's language for its client.
  const checklistText = async () => {
    const res = await dashboard();
    expect(res.status).toBe(200);
    return (await res.text()).replace(/<script\b[\s\S]*?<\/script>/g, '');
  };
  const expectReason = async (reason: string) => {
    const html = await checklistText();
    expect(html).toContain(reason);
    expect(html).toContain('1 of 4 steps done');
  };

  afterAll(() => {
    prod.admin.mainTheme = { name: 'Dawn', settingsData: PLAIN_SETTINGS_DATA };
  });

  it('embed on: ticked, whatever settings the block kept (the ids come from the metafields); no id is shown', async () => {
    const ticked = async (theme: string) => {
      const html = await checklistText();
      expect(html).toContain(`The widget is on in your live theme “${theme}”.`);
      expect(html).toContain('2 of 4 steps done');
      expect(html).not.toContain('The widget is not on in your live theme yet.');
      expect(html).not.toMatch(/Template ID|Theme ID|Floating widget ID/);
    };
    prod.admin.mainTheme = { name: 'Dawn', settingsData: withEmbed({ disabled: false, settings: {} }) };
    await ticked('Dawn');
    // The settings an older version of the embed had do not matter any more.
    prod.admin.mainTheme = { name: 'Sense', settingsData: withEmbed({ settings: { template_id: 'abc', theme_id: '' } }, 'preset') };
    await ticked('Sense');
  });

  it('each fault says what is wrong', async () => {
    prod.admin.mainTheme = { name: 'Dawn', settingsData: PLAIN_SETTINGS_DATA };
    await expectReason('The widget is not on in your live theme yet.');
    prod.admin.mainTheme = { name: 'Dawn', settingsData: withEmbed({ disabled: true, settings: {} }) };
    await expectReason('The widget is switched off in your live theme “Dawn”.');
    prod.admin.mainTheme = { name: 'Dawn', settingsData: null };
    await expectReason('The widget is not on in your live theme yet.');
    prod.admin.mainTheme = { name: 'Dawn', settingsData: '/* unterminated { "current": ' };
    await expectReason('Your live theme could not be read');
    prod.admin.mainTheme = null;
    await expectReason('Your store has no published theme.');
    prod.admin.scripted.set('LoyaltyMainTheme', [{ status: 403 }]);
    await expectReason('Your live theme could not be read');
  });
});
