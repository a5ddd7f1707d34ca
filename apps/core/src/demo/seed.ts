import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { readIfExists, writeDataFile } from '../config.js';
import { LANGUAGE_CODES, type LanguageCode } from '../formats.js';
import type { Services } from '../services.js';
import { provisionAccount } from '../tenancy.js';
import { DEMO_TEXTS, type DemoTexts } from './texts.js';

export interface DemoCredentials {
  organizationId: string;
  accountId: string;
  apiKey: string;
  apiSecret: string;
}

/** The demo account's reference, and the shopper the demo storefront signs in. */
export const DEMO_REF = 'demo';
export const DEMO_SHOPPER = { externalId: 'demo-shopper', firstName: 'Alex', lastName: 'Martin', email: 'alex@example.com' };

/** The demo account's credentials, in the data dir. */
export const DEMO_FILE = 'demo.json';

/**
 * The demo account (externalRef "demo"), with credentials remembered in the data dir so every
 * start prints the same live key instead of minting a new one, and its demo data, seeded through
 * the API at `apiUrl`.
 */
export async function ensureDemoAccount(s: Services, apiUrl: string): Promise<DemoCredentials> {
  const creds = await demoCredentials(s);
  await seedDemo(new DemoApi(apiUrl, creds));
  return creds;
}

async function demoCredentials(s: Services): Promise<DemoCredentials> {
  const path = resolve(s.config.dataDir, DEMO_FILE);
  const saved = readIfExists(path);
  if (saved) {
    const creds = JSON.parse(saved) as DemoCredentials;
    const key = await s.db('apikey').where({ account_id: creds.accountId, api_key: creds.apiKey, status: 'live' }).first('id');
    if (key) return creds;
  }
  const made = await provisionAccount(s.db, s.box, { organizationName: 'Demo Shop Inc.', accountName: 'Demo Shop', externalRef: DEMO_REF });
  const creds: DemoCredentials = {
    organizationId: made.organization.id,
    accountId: made.account.id,
    apiKey: made.apiKey.apiKey,
    apiSecret: made.apiKey.apiSecret,
  };
  writeDataFile(s.config.dataDir, DEMO_FILE, JSON.stringify(creds, null, 2));
  return creds;
}

type Body = Record<string, unknown>;
type Texts = Record<string, unknown>;
/** A record's localisable fields in one language; `made` is the record as created, absent while it is being created. */
type Translated = (t: DemoTexts, lang: LanguageCode, made: Made | undefined) => Texts;
/** A record as the API answers it. */
type Made = { id: string } & Body;

/** The records API with the demo key, exactly as a merchant's backend would call it. */
class DemoApi {
  constructor(
    private readonly apiUrl: string,
    private readonly creds: DemoCredentials,
  ) {}

  async call(method: string, path: string, body?: Body, query: Record<string, string> = {}): Promise<{ status: number; data: any }> {
    const url = new URL(`${this.apiUrl}/api/v1.0${path}`);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    const res = await fetch(url, {
      method,
      headers: {
        'x-api-key': this.creds.apiKey,
        'x-api-secret': this.creds.apiSecret,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await res.json()) as { data?: unknown; error?: { code: string } };
    // A replayed log is how a second seed run recognises what the first one posted.
    if (!res.ok && json.error?.code !== 'duplicate_unique_identifier') {
      throw new Error(`demo seed: ${method} ${path} answered ${res.status}: ${JSON.stringify(json)}`);
    }
    return { status: res.status, data: json.data };
  }

  /** The first record whose fields equal these values, if any. */
  async find(slug: string, values: Body): Promise<Made | undefined> {
    const conditions = Object.entries(values).map(([fieldSlug, fieldValue]) => ({ fieldSlug, operator: 'equals', fieldValue }));
    const found = await this.call('GET', `/schema/${slug}/record`, undefined, {
      filters: JSON.stringify({ operator: 'and', conditions }),
      limit: '1',
    });
    const [first]: (Made | undefined)[] = found.data;
    return first;
  }

  /**
   * The record of this name, or a new one with `texts` of English, then each other language's
   * (`texts` of that language's DemoTexts, which may name the record made).
   */
  async ensure(slug: string, name: string, body: Body, texts: Translated = () => ({})): Promise<Made> {
    const found = await this.find(slug, { name });
    if (found) return found;
    const made: Made = (
      await this.call('POST', `/schema/${slug}/record`, { name, ...body, ...texts(DEMO_TEXTS.en, 'en', undefined) }, { languageCode: 'en' })
    ).data;
    for (const lang of LANGUAGE_CODES) {
      const translated = lang === 'en' ? {} : texts(DEMO_TEXTS[lang], lang, made);
      if (Object.keys(translated).length) await this.call('PATCH', `/schema/${slug}/record/${made.id}`, translated, { languageCode: lang });
    }
    return made;
  }

  log(kind: 'streak' | 'challenge' | 'mission', body: Body, ownedBy: Body = DEMO_SHOPPER) {
    return this.call('POST', `/schema/${kind}_log/record`, { ...body, ownedBy });
  }
}

/** Deterministic, plausible-looking coupon codes: a second seed run imports the same ones (as duplicates). */
const coupons = (prefix: string) =>
  Array.from({ length: 25 }, (_, i) => `${prefix}-${createHash('sha256').update(`${prefix}${i}`).digest('hex').slice(0, 6).toUpperCase()}`);

async function reward(
  api: DemoApi,
  name: string,
  discountType: string,
  discountValue: number,
  prefix: string,
  title: keyof DemoTexts['rewards'],
): Promise<string> {
  const made = await api.ensure(
    'reward',
    name,
    {
      description: `Demo reward: ${name}`,
      discountType,
      discountValue,
      rewardExpiryType: 'relative',
      rewardExpiryInDays: 30,
      handleCoupon: true,
    },
    (t) => ({ eudTitle: t.rewards[title] }),
  );
  await api.call('POST', `/schema/reward/record/${made.id}/action/import_coupons`, { couponCodes: coupons(prefix) });
  return made.id;
}

async function milestone(
  api: DemoApi,
  parent: 'streak' | 'challenge' | 'mission',
  parentId: string,
  target: number,
  title: (t: DemoTexts) => string,
  rewardId?: string,
) {
  await api.ensure(
    'milestone',
    `Demo ${parent} milestone ${target}`,
    {
      description: title(DEMO_TEXTS.en),
      linkedSchemaSlug: parent,
      linkedSchemaRecordId: parentId,
      milestoneTargetValue: target,
      status: 'live',
      rewardId: rewardId ?? null,
    },
    (t) => ({ eudTitle: title(t) }),
  );
}

const DAY_MS = 86_400_000;

/**
 * The other members on the visits leaderboard: their current run and whether it ends today (0) or
 * yesterday (1, still unbroken). Ties included; the shopper's run of 4 ties with Chloé's at rank 7.
 */
const RIVALS: [firstName: string, lastName: string, run: number, endsAgo: 0 | 1][] = [
  ['Marie', 'Dubois', 12, 0],
  ['Lucas', 'Martin', 9, 0],
  ['Emma', 'Schmidt', 9, 1],
  ['Noah', 'Rossi', 8, 0],
  ['Léa', 'Moreau', 6, 0],
  ['Sofia', 'García', 5, 1],
  ['Chloé', 'Lambert', 4, 1],
  ['Yuki', 'Tanaka', 3, 1],
  ['Mateo', 'Silva', 2, 0],
  ['Anna', 'Kowalski', 2, 1],
  ['Omar', 'Haddad', 2, 0],
  ['Inès', 'Petit', 2, 0],
  ['Jonas', 'Berg', 2, 1],
  ['Ava', 'Johnson', 1, 0],
  ['Ethan', 'Brown', 1, 0],
  ['Mia', 'Fischer', 1, 1],
  ['Leo', 'Ricci', 1, 0],
  ['Nina', 'Novak', 1, 0],
  ['Sam', 'Okafor', 1, 1],
  ['Julia', 'Santos', 1, 0],
  ['Theo', 'Weber', 1, 0],
  ['Clara', 'Costa', 1, 1],
  ['Adam', 'Nowak', 1, 0],
  ['Elena', 'Popescu', 1, 0],
  ['Louis', 'Girard', 1, 0],
  ['Maya', 'Cohen', 1, 1],
  ['Hugo', 'Bernard', 1, 0],
  ['Zoé', 'Roux', 1, 0],
  ['Liam', 'Müller', 1, 0],
];

/**
 * A leaderboard of the streak's current runs, and the rivals' visits. Members are seeded one after
 * another in RIVALS order: among equal runs the one that got there first ranks first, so the order
 * of ties on the demo board is the list's, not a race's.
 */
async function leaderboard(api: DemoApi, streakId: string, now: number): Promise<void> {
  await api.ensure(
    'leaderboard',
    'Demo visit streaks',
    {
      description: 'Current daily visit runs.',
      linkedSchemaSlug: 'streak',
      linkedSchemaRecordId: streakId,
    },
    (t) => ({ eudTitle: t.leaderboard.title, eudDescription: t.leaderboard.description }),
  );
  for (const [firstName, lastName, run, endsAgo] of RIVALS) {
    const externalId = `demo-${firstName}-${lastName}`
      .normalize('NFD')
      .replace(/[^\w-]/g, '')
      .toLowerCase();
    for (let ago = run - 1 + endsAgo; ago >= endsAgo; ago--) {
      const at = new Date(now - ago * DAY_MS).toISOString();
      await api.log(
        'streak',
        { streakId, activityId: 'visit', activityAt: at, uniqueIdentifier: `${externalId}-visit-${at.slice(0, 10)}` },
        { externalId, firstName, lastName },
      );
    }
  }
}

/** Tiers by the points earned in the window: their names (the same in every language), thresholds and multipliers. */
const TIERS: [name: string, threshold: number, multiplier: number][] = [
  ['Silver', 0, 1],
  ['Gold', 500, 1.5],
  ['Platinum', 2000, 2],
];

/** The points setting as the API answers it, in the fields the demo reads. */
type PointsSetting = Made & {
  status: string;
  eudCurrencyName: unknown;
  pointsPerCurrencyUnit: number;
  pointsPerOrder: number;
  pointsOnSignUp: number;
  pointsOnNewsletter: number;
};

/**
 * Points (CONTRACT §19) as a shop runs them: "Stars" earned by spending (2 a unit of currency, 10 an
 * order), on sign-up, for subscribing to the newsletter, for following the shop on Instagram and
 * TikTok, and on their birthday (which the demo shopper has not given: the widget asks for it), three tiers, and three coupons to redeem. The merchant's backend earns the Stars by the rules, as the
 * Shopify app does for a shop: the shopper's sign-up and each of today's orders (the challenge's logs
 * `orders`) give an `earned` entry whose uniqueIdentifier makes a second run change nothing.
 */
async function points(api: DemoApi, shopper: string, orders: [suffix: string, value: number][], today: string): Promise<void> {
  let setting: PointsSetting = (await api.call('GET', '/schema/points_setting/record')).data[0];
  // Set up once, as the account was made: what someone trying the demo changes there, a restart keeps.
  if (setting.status === 'draft' && setting.eudCurrencyName === null) {
    const path = `/schema/points_setting/record/${setting.id}`;
    // Stars expire after a year without earning or spending, as most shops run them: the widget shows the date.
    const rules = {
      pointsPerCurrencyUnit: 2,
      pointsPerOrder: 10,
      pointsOnSignUp: 100,
      pointsOnNewsletter: 50,
      pointsOnBirthday: 200,
      pointsOnReferral: 500,
      pointsOnReferredOrder: 250,
      // The networks' own profiles: the demo shop has none, and these are sure to exist.
      pointsOnFollow: 25,
      instagramUrl: 'https://www.instagram.com/instagram',
      tiktokUrl: 'https://www.tiktok.com/@tiktok',
      expiryMonthsOfInactivity: 12,
    };
    const named = (lang: LanguageCode) => ({
      eudCurrencyName: DEMO_TEXTS[lang].currency,
      eudCurrencyNameOne: DEMO_TEXTS[lang].currencyOne,
    });
    setting = (await api.call('PATCH', path, { status: 'live', ...named('en'), ...rules }, { languageCode: 'en' })).data;
    for (const lang of LANGUAGE_CODES) if (lang !== 'en') await api.call('PATCH', path, named(lang), { languageCode: lang });
  }
  for (const [i, [name, pointsThreshold, earnMultiplier]] of TIERS.entries())
    await api.ensure('tier', `Demo ${name}`, { status: 'live', pointsThreshold, earnMultiplier }, (t) => ({
      eudTitle: name,
      eudDescription: t.tiers[i],
    }));
  // The third has no title: the widget says what it gives, in the shopper's language.
  for (const [cost, discountType, discountValue, prefix, title] of [
    [300, 'fixed_amount', 5, 'STARS5', 'starsFive'],
    [800, 'fixed_amount', 10, 'STARS10', 'starsTen'],
    [2000, 'percentage', 20, 'STARS20', null],
  ] as const)
    await api.ensure(
      'reward',
      `Demo ${prefix} for ${cost} Stars`,
      {
        description: `Redeemed for ${cost} Stars`,
        discountType,
        discountValue,
        pointsCost: cost,
        rewardExpiryType: 'relative',
        rewardExpiryInDays: 30,
        handleCoupon: true,
        handleCouponAutoGeneration: true,
        couponCodePrefix: prefix,
      },
      (t) => (title ? { eudTitle: t.rewards[title] } : {}),
    );
  // Earned by the setting's rates as they are now, and only while points are live: nothing earns otherwise.
  if (setting.status !== 'live') return;
  const { pointsPerCurrencyUnit, pointsPerOrder, pointsOnSignUp } = setting;
  // Linked as the Shopify app links them (an order's entry names the order), so the widget's history
  // says what each came from in the shopper's language.
  const earn = async (points: number, uniqueIdentifier: string, links: Record<string, string>) => {
    // A rate set to 0 earns nothing, and an entry is never 0.
    if (points > 0)
      await api.call('POST', '/schema/point_entry/record', { ownedById: shopper, points, reason: 'earned', uniqueIdentifier, ...links });
  };
  await earn(pointsOnSignUp, 'demo-points-sign-up', {
    linkedSchemaSlug: 'shopify_customer',
    linkedSchemaRecordId: DEMO_SHOPPER.externalId,
  });
  for (const [i, [suffix, value]] of orders.entries())
    await earn(Math.floor(value * pointsPerCurrencyUnit) + pointsPerOrder, `demo-points-order-${today}-${suffix}`, {
      linkedSchemaSlug: 'shopify_order',
      linkedSchemaRecordId: `demo-order-${today}-${suffix}`,
      note: `#${1001 + i}`,
    });
}

/**
 * The demo data: a daily streak, a weekly challenge and a mission with milestones and coupon
 * rewards, the launcher, theme and template (in each of the nine languages), the demo shopper's progress:
 * four daily visits in a row with a missed day covered by a freeze, two orders this week, two of
 * three mission tasks, a leaderboard of the streak's runs with 29 other members, and points with
 * tiers: the shopper's Stars for signing up and for today's orders. Records are found by name and logs by their unique
 * identifiers, so a second run the same day changes nothing; a run on a later day adds that day's
 * activity, keeping the demo current.
 */
async function seedDemo(api: DemoApi): Promise<void> {
  const tenOff = await reward(api, 'Demo 10% off', 'percentage', 10, 'STREAK10', 'tenOff');
  const fifteenOff = await reward(api, 'Demo 15% off', 'percentage', 15, 'STREAK15', 'fifteenOff');
  const fiveOff = await reward(api, 'Demo 5 off', 'fixed_amount', 5, 'SHOP5', 'fiveOff');
  const welcome = await reward(api, 'Demo welcome gift', 'percentage', 20, 'WELCOME20', 'welcome');

  const streak = await api.ensure(
    'streak',
    'Demo daily visit',
    {
      description: 'Visit the shop on consecutive days.',
      aggregationPeriod: 'daily',
      completionTargetValue: 30,
      maxFreezes: 2,
      freezeEarnEveryPeriods: 2,
    },
    (t) => ({ eudTitle: t.streak.title, eudDescription: t.streak.description }),
  );
  await milestone(api, 'streak', streak.id, 3, (t) => t.streak.milestones[0], tenOff);
  await milestone(api, 'streak', streak.id, 7, (t) => t.streak.milestones[1], fifteenOff);

  const challenge = await api.ensure(
    'challenge',
    'Demo weekly shopper',
    {
      description: 'Spend 200 within a calendar week.',
      aggregationPeriod: 'weekly',
      aggregationMethod: 'sum',
      completionTargetValue: 200,
    },
    (t) => ({ eudTitle: t.challenge.title, eudDescription: t.challenge.description }),
  );
  await milestone(api, 'challenge', challenge.id, 100, (t) => t.challenge.milestones[0], fiveOff);
  await milestone(api, 'challenge', challenge.id, 200, (t) => t.challenge.milestones[1]);

  type Task = { id?: string; name: string; activityId: keyof DemoTexts['mission']['tasks']; targetValue: number };
  const tasks: Task[] = [
    { name: 'Create an account', activityId: 'sign_up', targetValue: 1 },
    { name: 'Write a review', activityId: 'review', targetValue: 1 },
    { name: 'Refer a friend', activityId: 'referral', targetValue: 1 },
  ];
  const mission = await api.ensure(
    'mission',
    'Demo getting started',
    { description: 'Onboarding tasks within a week.', aggregationPeriod: 'weekly', rewardId: welcome },
    (t, _lang, made) => ({
      eudTitle: t.mission.title,
      eudDescription: t.mission.description,
      // Task texts are per language: the other languages' go to the task ids the create made.
      tasks: ((made?.tasks as Task[] | undefined) ?? tasks).map(({ id, name, activityId, targetValue }) => ({
        ...(id && { id }),
        name,
        activityId,
        targetValue,
        eudTitle: t.mission.tasks[activityId],
      })),
    }),
  );
  await milestone(api, 'mission', mission.id, 2, (t) => t.mission.milestone);

  await api.ensure(
    'floating_widget',
    'Demo launcher',
    {
      description: 'The launcher of the demo storefront.',
      alignment: 'bottom_right',
      alignmentPositionX: 24,
      alignmentPositionY: 24,
      backgroundColor: 'rgba(91, 33, 182, 1)',
      borderColor: 'rgba(91, 33, 182, 1)',
      textColor: 'rgba(255, 255, 255, 1)',
      borderWidth: 1,
      borderRadius: 999,
      fontSize: 16,
    },
    (t) => ({ eudTitle: t.launcher }),
  );
  await api.ensure('theme', 'Demo theme', {
    primaryColor: 'rgba(91, 33, 182, 1)',
    primaryContrastTextColor: 'rgba(255, 255, 255, 1)',
    secondaryColor: 'rgba(245, 243, 255, 1)',
    primaryTextColor: 'rgba(30, 27, 46, 1)',
    secondaryTextColor: 'rgba(100, 96, 120, 1)',
    backgroundColor: 'rgba(255, 255, 255, 1)',
    borderRadius: 14,
  });
  await api.ensure('template', 'Demo template', {}, (t, lang) => {
    // Signing up or in keeps the storefront's language.
    const member = lang === 'en' ? '/demo?mode=member' : `/demo?mode=member&lang=${lang}`;
    return { ...t.template, signUpUrl: member, logInUrl: member };
  });

  // The shopper's activity: today's at this very moment, so that it counts for today and this week.
  // Visits on four of the last five days: the freeze the run earned on its second day covers the
  // missed one (a freeze granted now would come after that day's deadline, CONTRACT §17).
  const now = Date.now();
  const day = (at: number) => new Date(at).toISOString().slice(0, 10);
  const visit = (ago: number) => {
    const at = now - ago * DAY_MS;
    return api.log('streak', {
      streakId: streak.id,
      activityId: 'visit',
      activityAt: new Date(at).toISOString(),
      uniqueIdentifier: `demo-visit-${day(at)}`,
    });
  };
  await visit(4);
  await visit(3);
  await visit(1);
  await visit(0);
  const orders: [string, number][] = [
    ['a', 60],
    ['b', 70],
  ];
  for (const [suffix, value] of orders) {
    await api.log('challenge', {
      challengeId: challenge.id,
      activityId: 'order',
      activityAt: new Date(now).toISOString(),
      activityValue: value,
      uniqueIdentifier: `demo-order-${day(now)}-${suffix}`,
    });
  }
  for (const activityId of ['sign_up', 'review']) {
    await api.log('mission', {
      missionId: mission.id,
      activityId,
      activityAt: new Date(now).toISOString(),
      uniqueIdentifier: `demo-${activityId}-${day(now)}`,
    });
  }
  await leaderboard(api, streak.id, now);
  const shopper = await api.find('account_user', { externalId: DEMO_SHOPPER.externalId });
  await points(api, shopper!.id, orders, day(now));
}
