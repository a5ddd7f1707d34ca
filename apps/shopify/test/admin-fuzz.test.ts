import { randomUUID } from 'node:crypto';
import { TEST_SHOP } from '@shopify/shopify-api/test-helpers';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../core/test/support/harness';
import { adminFetch, answerOf, describeBody, forms, snapshot } from './support/admin-fuzz';
import { type Body, bodies, DEEP, junk, nearly, oddJson, oddString, toJson } from './support/hostile';
import { adminLoad } from './support/orders';
import { type Production, startProduction } from './support/production';
import { creatorFor, streakWithFirstDayReward } from './support/programs';
import { flowRequest } from './support/stack';
import { until } from './support/until';

/**
 * The admin's routes as the merchant's browser reaches them inside the Shopify admin (single
 * fetch's `.data`, App Bridge's session token), sent hostile bodies and query strings on the
 * production build: never a 5xx, a refusal as a 4xx or the route's own refusal, and a refusal
 * changes nothing in the core or in the app's tables.
 */
let prod: Production;
let api: Client;
let coreDb: pg.Pool;
const CUSTOMER = 7301;
const RUNS = 60;
/** An id of nothing, and ids that are no ids. */
const NOTHING = '00000000-0000-4000-8000-000000000000';
const NOT_IDS = ['not-a-uuid', '%00', '%F0%9F%8E%89', '1e309', 'x'.repeat(300), '..%2F..%2Fetc', '%ff', '-1'];

let ids: {
  reward: string;
  streak: string;
  milestone: string;
  tier: string;
  leaderboard: string;
  member: string;
  pointEntry: string;
  webhook: string;
  theme: string;
  floating_widget: string;
  template: string;
};
/** The editors' drafts as their loaders give them, the shape their saves send back. */
let drafts: Record<'reward' | 'tier' | 'leaderboard' | 'points' | 'program' | 'rule' | 'email' | 'branding', Record<string, unknown>>;

/** Tables written after an answer, by the app's loop or the core's deliveries, whatever the request was. */
const ASYNC_CORE = /^(webhook_log|event_log|notification_log|leaderboard_.*|knex_.*)$/;
const ASYNC_APP =
  /^(shopify_webhooks|flow_trigger_outbox|reward_discounts|store_credit_attempts|shopify_app_migrations|points_import_rows|exclusion_sweeps|customer_exclusions)$/;

async function state(): Promise<string> {
  const [core, app] = await Promise.all([snapshot(coreDb, ASYNC_CORE), snapshot(prod.appPool, ASYNC_APP)]);
  return JSON.stringify({ core, app });
}

/** Which tables differ between two states. */
function changedIn(before: string, after: string): string[] {
  const [a, b] = [JSON.parse(before), JSON.parse(after)] as Record<string, Record<string, string>>[];
  return (['core', 'app'] as const).flatMap((db) =>
    Object.keys(b![db]!)
      .filter((t) => a![db]![t] !== b![db]![t])
      .map((t) => `${db}.${t}`),
  );
}

/** What the app process printed that a client's input must never make it print. */
const CRASH = /uncaught|unhandled|ERR_|RangeError|TypeError|SyntaxError|ReferenceError|at .*\.js:\d+/i;

type Data = Record<string, unknown>;

/** A route's answer read: its status, and what its action or loader returned (single fetch's `data`). */
interface Answer {
  status: number;
  data: unknown;
  text: string;
}

/**
 * A refusal, as each route says it: a 4xx, or a 200 whose answer says no (`ok: false`, the
 * dashboard's `retention: 'invalid'`, the coupon import's `error`, a program save's field errors).
 */
function isRefusal({ status, data }: Answer): boolean {
  if (status >= 400) return true;
  if (data === null || typeof data !== 'object') return false;
  const d = data as Data;
  if (d.ok === false || d.retention === 'invalid' || typeof d.error === 'string') return true;
  const outcome = d.outcome as { saved: unknown; errors: Data } | undefined;
  return !!outcome && outcome.saved === null && Object.keys(outcome.errors).length > 0;
}

/** A 4xx is said as Remix says a thrown Response (ErrorResponse), as the route's own JSON, or in the app's error body. */
function expectRefusalBody(answer: Answer, what: string): void {
  const value: unknown = answer.data;
  const said =
    (value !== null && typeof value === 'object') ||
    (typeof value === 'string' && value.length > 0) ||
    (answer.status === 405 && answer.text === '');
  expect(said, `a ${answer.status} that says nothing: ${answer.text.slice(0, 300)} for ${what}`).toBe(true);
}

/** Sends and reads a request; `data` is the route's own value, or the thrown Response as `{ $type: 'ErrorResponse', … }`. */
async function send(path: string, body?: Body): Promise<Answer> {
  const res = await adminFetch(prod.url, path, body).catch((err: Error) => {
    throw new Error(`no answer (${String(err.cause ?? err)}); the app printed:\n${prod.appOutput().slice(-3000)}`);
  });
  const { status, value, text } = await answerOf(res);
  const v = value as Data | null;
  const data = v && typeof v === 'object' && ('data' in v || 'error' in v) ? (v.data ?? v.error) : value;
  return { status, data, text };
}

/** A request as the admin's page sends it: a GET, or a POST with its body. */
interface Sent {
  path: string;
  body?: Body;
}

const say = (r: Sent) => `${r.body ? 'POST' : 'GET'} ${r.path} ${r.body ? describeBody(r.body) : ''}`.slice(0, 600);

/** Runs the property: never a 5xx, a refusal said, and nothing changed by one; answers the statuses seen and the refusals counted. */
async function survey(
  arbitrary: fc.Arbitrary<Sent>,
  { runs = RUNS, alwaysUnchanged = false, settled }: { runs?: number; alwaysUnchanged?: boolean; settled?: () => Promise<unknown> } = {},
) {
  const seen: Record<string, number> = {};
  const printed = prod.appOutput().length;
  await fc.assert(
    fc.asyncProperty(arbitrary, async (request) => {
      // What an earlier accepted request set going in the background is done before this one is compared.
      await settled?.();
      const before = await state();
      const answer = await send(request.path, request.body);
      const refused = isRefusal(answer);
      const key = `${answer.status}${refused && answer.status < 400 ? ' refused' : ''}`;
      seen[key] = (seen[key] ?? 0) + 1;
      expect(answer.status, `${answer.status} for ${say(request)}; the app printed:\n${prod.appOutput().slice(-2000)}`).toBeLessThan(500);
      if (answer.status >= 400) expectRefusalBody(answer, say(request));
      if (refused || alwaysUnchanged) {
        const changed = changedIn(before, await state());
        expect(changed, `changed by ${answer.status} ${answer.text.slice(0, 200)} for ${say(request)}`).toEqual([]);
      }
    }),
    { numRuns: runs },
  );
  expect(prod.appOutput().slice(printed)).not.toMatch(CRASH);
  return seen;
}

/** A route's loader data, read as the page reads it. */
async function loaderData(path: string, route: string): Promise<Data> {
  const res = await adminFetch(prod.url, `${path}.data?_routes=${encodeURIComponent(route)}`);
  const { value } = await answerOf(res);
  expect(res.status, JSON.stringify(value).slice(0, 300)).toBe(200);
  return ((value as Data)[route] as { data: Data }).data;
}

const json = (value: unknown): Body => ({ text: JSON.stringify(value), contentType: 'application/json' });

/** A path's id: mostly the seeded record's (or `new`), else an id of nothing or no id at all. */
const idOf = (...real: string[]) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...real) },
    { weight: 2, arbitrary: fc.constantFrom(NOTHING, ...NOT_IDS) },
    { weight: 1, arbitrary: fc.constant(undefined).map(() => randomUUID()) },
  );

/** An intent: the route's own, mostly, else another route's or none of any. */
const intentOf = (...own: string[]) =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...own) },
    { weight: 1, arbitrary: fc.constantFrom('save', 'delete', 'preview', 'grant', 'SAVE', 'save ', '', undefined) },
    { weight: 1, arbitrary: oddJson },
  );

const LANGUAGES = ['en', 'de', 'fr', 'zz', '', 'EN', '__proto__'];

/**
 * An editor's JSON action at `path(id)`: intents, drafts shaped like the loader's. A delete goes to
 * an id of nothing (the seeded records stay for the other runs); the rest to any id.
 */
function editorRequests(
  path: (id: string) => string,
  realIds: string[],
  template: fc.Arbitrary<Data>,
  intents: string[],
): fc.Arbitrary<Sent> {
  return intentOf(...intents).chain((intent) =>
    fc
      .tuple(intent === 'delete' ? idOf('new', NOTHING) : idOf(...realIds), bodies(template.map((b) => ({ ...b, intent }))))
      .map(([id, body]) => ({ path: `${path(id)}.data`, body })),
  );
}

beforeAll(async () => {
  prod = await startProduction();
  prod.admin.customers.set(`gid://shopify/Customer/${CUSTOMER}`, { firstName: 'Fuzz', lastName: 'Admin', email: 'fa@example.com' });
  expect((await adminLoad(prod.url, '/app')).status).toBe(200);
  const account = (await prod.shops.find(TEST_SHOP))!;
  api = new Client(`${prod.core.url}/api/v1.0`, { 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret });
  coreDb = new pg.Pool({ connectionString: prod.coreDatabaseUrl, max: 1 });
  const created = creatorFor(() => api);
  const { reward, streak } = await streakWithFirstDayReward(created, { couponCodePrefix: 'AF-', completionTargetValue: 5 });
  const tier = await created('/schema/tier/record', { name: 'Gold', status: 'live', pointsThreshold: 100, earnMultiplier: 1 });
  const leaderboard = await created('/schema/leaderboard/record', {
    name: 'Board',
    linkedSchemaSlug: 'streak',
    linkedSchemaRecordId: streak.id,
  });
  const adjusted = await prod.send(await flowRequest('adjust-points', { customer_id: CUSTOMER, points: 100, note: 'start' }));
  expect(adjusted.status).toBe(200);
  const widget = await send('/app/onboarding.data', json({ intent: 'widget' }));
  expect(widget.data).toMatchObject({ ok: true });
  const member = (await api.get('/schema/account_user/record')).body.data[0];
  const pointEntry = (await api.get('/schema/point_entry/record')).body.data[0];
  const milestone = (await api.get('/schema/milestone/record')).body.data[0];
  const webhook = (await prod.shops.coreWebhook(TEST_SHOP))!;
  const branding = await loaderData('/app/widget/branding', 'routes/app.widget_.branding');
  const widgetIds = branding.ids as Record<'theme' | 'floating_widget' | 'template', string>;
  ids = {
    reward: reward.id,
    streak: streak.id,
    milestone: milestone.id,
    tier: tier.id,
    leaderboard: leaderboard.id,
    member: member.id,
    pointEntry: pointEntry.id,
    webhook: webhook.id,
    ...widgetIds,
  };
  const draftOf = async (path: string, route: string) => (await loaderData(path, route)).draft as Data;
  drafts = {
    reward: await draftOf(`/app/rewards/${ids.reward}`, 'routes/app.rewards.$id'),
    tier: await draftOf(`/app/tiers/${ids.tier}`, 'routes/app.tiers.$id'),
    leaderboard: await draftOf(`/app/leaderboards/${ids.leaderboard}`, 'routes/app.leaderboards.$id'),
    points: await draftOf('/app/points', 'routes/app.points'),
    program: await draftOf(`/app/programs/streak/${ids.streak}`, 'routes/app.programs.$kind.$id'),
    rule: {
      ...(await draftOf('/app/notifications/rules/new', 'routes/app.notifications_.rules.$id')),
      name: 'Rule',
      eventCodes: ['streak_progress_milestone_completed'],
      templateId: NOTHING,
      integrationId: NOTHING,
    },
    email: {
      ...(await draftOf('/app/notifications/emails/new', 'routes/app.notifications_.emails.$id')),
      name: 'Mail',
      subject: 'Hi {{firstName}}',
      htmlContent: '<p>{{firstName}}</p>',
    },
    branding: branding.draft as Data,
  };
}, 180_000);

afterAll(async () => {
  await coreDb?.end();
  await prod?.close();
});

describe('admin actions (hostile bodies with a valid session token)', () => {
  it('the dashboard (/app?index): odd retention months', async () => {
    const seen = await survey(forms({ retentionMonths: '12' }).map((body) => ({ path: '/app.data?index', body })));
    console.info('/app?index', seen);
  });

  it('rewards (/app/rewards/$id): save, delete, retry', async () => {
    const template = nearly({ language: 'en', rewardLogId: NOTHING, draft: drafts.reward });
    const seen = await survey(editorRequests((id) => `/app/rewards/${id}`, [ids.reward, 'new'], template, ['save', 'delete', 'retry']));
    console.info('/app/rewards/$id', seen);
  });

  it('coupon import (/app/coupons/$rewardId): odd files', async () => {
    const file = fc.oneof(
      fc
        .array(fc.oneof(oddString, fc.constantFrom('CODE-1', 'code', 'CODE-1', 'a,b;c\td')), { maxLength: 6 })
        .map((lines) => lines.join('\n')),
      junk,
    );
    const request = fc
      .tuple(
        idOf(ids.reward),
        file,
        fc.constantFrom('text/csv', 'text/plain', 'application/json', undefined),
        fc.constantFrom(...LANGUAGES),
      )
      .map(([id, text, contentType, lang]) => ({
        path: `/app/coupons/${id}.data?language=${encodeURIComponent(lang)}`,
        body: { text, contentType },
      }));
    const seen = await survey(request);
    console.info('/app/coupons/$rewardId', seen);
  });

  it('balances import (/app/points-import): odd files and names', async () => {
    const header = fc.constantFrom(
      'email,points',
      'Customer ID;E-mail;Points balance;Note',
      'id\tbalance',
      'points',
      '"email","points","note"',
      '',
    );
    const cell = fc.oneof(oddString, fc.constantFrom('a@example.com', 'fa@example.com', '7301', '1.200', '0', '-5', '"q,uoted"', '""'));
    const file = fc.oneof(
      fc
        .tuple(
          header,
          fc.array(fc.array(cell, { maxLength: 4 }), { maxLength: 5 }),
          fc.constantFrom(',', ';', '\t'),
          fc.constantFrom('\n', '\r\n'),
        )
        .map(([head, rows, sep, newline]) => [head, ...rows.map((r) => r.join(sep))].join(newline)),
      // Files the route takes, with odd notes, naming customers the shop does not have: the worker
      // then changes no core table while later requests compare them.
      fc
        .uniqueArray(fc.tuple(fc.constantFrom('a@example.com', 'y@example.com', 'z@example.com'), fc.nat(1_000_000), oddString), {
          selector: ([email]) => email,
          minLength: 1,
          maxLength: 3,
        })
        .map((rows) => ['email,points,note', ...rows.map(([e, n, note]) => `${e},${n},"${note.replaceAll('"', '""')}"`)].join('\n')),
      junk,
    );
    const request = fc
      .tuple(file, fc.constantFrom('text/csv', 'text/plain', undefined), fc.constantFrom(...LANGUAGES), oddString)
      .map(([text, contentType, lang, name]) => ({
        path: `/app/points-import.data?language=${encodeURIComponent(lang)}&name=${encodeURIComponent(name.toWellFormed())}`,
        body: { text, contentType },
      }));
    // A file the route takes may name the shop's customer (fa@example.com, 7301): the worker gives
    // their balance in the background, which must not be taken for a later refusal's change.
    const worked = () =>
      until('the imports worked off', async () => {
        const pending = await prod.appPool.query("select 1 from points_import_rows where status = 'pending' limit 1");
        return pending.rowCount === 0;
      });
    const seen = await survey(request, { settled: worked });
    console.info('/app/points-import', seen);
  });

  it('tiers (/app/tiers/$id): save, delete', async () => {
    const template = nearly({ language: 'en', draft: drafts.tier });
    const seen = await survey(editorRequests((id) => `/app/tiers/${id}`, [ids.tier, 'new'], template, ['save', 'delete']));
    console.info('/app/tiers/$id', seen);
  });

  it('leaderboards (/app/leaderboards/$id): save, delete', async () => {
    const template = nearly({ language: 'en', draft: drafts.leaderboard });
    const seen = await survey(editorRequests((id) => `/app/leaderboards/${id}`, [ids.leaderboard, 'new'], template, ['save', 'delete']));
    console.info('/app/leaderboards/$id', seen);
  });

  it('programs (/app/programs/$kind/$id): drafts', async () => {
    const request = fc
      .tuple(
        fc.constantFrom('streak', 'streak', 'challenge', 'mission', 'points', 'zz'),
        idOf(ids.streak, 'new'),
        bodies(nearly({ language: 'en', draft: drafts.program })),
      )
      .map(([kind, id, body]) => ({ path: `/app/programs/${kind}/${id}.data`, body }));
    const seen = await survey(request);
    console.info('/app/programs/$kind/$id', seen);
  });

  it('points settings (/app/points): save', async () => {
    const seen = await survey(
      bodies(nearly({ intent: 'save', language: 'en', draft: drafts.points })).map((body) => ({
        path: '/app/points.data',
        body,
      })),
    );
    console.info('/app/points', seen);
  });

  it('members (/app/members/$id): grant, resend, adjust, birthday as forms', async () => {
    const request = fc
      .tuple(
        idOf(ids.member),
        forms(
          {
            intent: 'adjust',
            points: '5',
            note: 'fuzz',
            key: 'k',
            progressId: NOTHING,
            count: '1',
            rewardLogId: NOTHING,
            // Blank, as sent to clear a birthday: one set would let the core's sweep give points while later requests are compared.
            month: '',
            day: '',
          },
          ['intent'],
        ),
        fc.constantFrom('adjust', 'grant', 'resend', 'birthday', 'ADJUST', ''),
      )
      .map(([id, body, intent]) => ({
        path: `/app/members/${id}.data`,
        // The form's intent is one of the four, mostly.
        body:
          body.contentType === 'application/x-www-form-urlencoded'
            ? { ...body, text: body.text.replace(/^intent=adjust/, `intent=${intent}`) }
            : body,
      }));
    const seen = await survey(request);
    console.info('/app/members/$id', seen);
  });

  it('notification rules (/app/notifications/rules/$id): save, preview, delete', async () => {
    const template = nearly({
      language: 'en',
      templateId: NOTHING,
      provider: 'cloud_sms',
      eventCode: 'streak_progress_milestone_completed',
      draft: drafts.rule,
    });
    const seen = await survey(
      editorRequests((id) => `/app/notifications/rules/${id}`, ['new', NOTHING], template, ['save', 'preview', 'delete']),
    );
    console.info('/app/notifications/rules/$id', seen);
  });

  it('email templates (/app/notifications/emails/$id): save, preview, delete', async () => {
    const template = nearly({ language: 'en', draft: drafts.email });
    const seen = await survey(
      editorRequests((id) => `/app/notifications/emails/${id}`, ['new', NOTHING], template, ['save', 'preview', 'delete']),
    );
    console.info('/app/notifications/emails/$id', seen);
  });

  it('records (/app/r/$slug/$id): save, delete, add-milestone, delete-milestone, rotate-secret, resend-delivery', async () => {
    const inputs: Record<string, Data> = {
      streak: { name: 'S', status: 'live', aggregationTargetValue: '1', completionTargetValue: '5', maxFreezes: '0' },
      milestone: { name: 'M', description: 'd', milestoneTargetValue: '2', status: 'live', rewardId: ids.reward },
      reward: { name: 'R', description: 'd', discountType: 'percentage', discountValue: '10' },
      tier: { name: 'T', status: 'draft', pointsThreshold: '200', earnMultiplier: '1' },
      webhook: { name: 'W', endpointUrl: 'https://example.com/hook' },
      floating_widget: { name: 'L', eudTitle: 'Rewards' },
      notification: { name: 'N' },
    };
    const realOf: Record<string, string[]> = {
      streak: [ids.streak, 'new'],
      milestone: [ids.milestone],
      reward: [ids.reward, 'new'],
      tier: [ids.tier],
      webhook: [ids.webhook],
      floating_widget: [ids.floating_widget],
      notification: ['new'],
    };
    const request = fc
      .tuple(
        fc.oneof(
          { weight: 9, arbitrary: fc.constantFrom(...Object.keys(inputs)) },
          { weight: 1, arbitrary: fc.constantFrom('zz', 'points_setting', '') },
        ),
        intentOf('save', 'delete', 'add-milestone', 'delete-milestone', 'rotate-secret', 'resend-delivery'),
      )
      .chain(([slug, intent]) => {
        const milestone = { name: 'M2', description: 'd', milestoneTargetValue: '3', status: 'draft' };
        const template = nearly({ language: 'en', id: NOTHING, inputs: intent === 'add-milestone' ? milestone : (inputs[slug] ?? {}) });
        // Deletes go to ids of nothing, as the seeded records stay for the other runs.
        const id = intent === 'delete' || intent === 'delete-milestone' ? idOf('new', NOTHING) : idOf(...(realOf[slug] ?? ['new']));
        return fc
          .tuple(id, bodies(template.map((b) => ({ ...b, intent }))))
          .map(([i, body]) => ({ path: `/app/r/${slug}/${i}.data`, body }));
      });
    const seen = await survey(request, { runs: 100 });
    console.info('/app/r/$slug/$id', seen);
  });

  it('widget branding (/app/widget/branding): save', async () => {
    const template = nearly({
      intent: 'save',
      language: 'en',
      textLanguage: 'en',
      ids: { theme: ids.theme, floating_widget: ids.floating_widget, template: ids.template },
      draft: drafts.branding,
    });
    const seen = await survey(bodies(template).map((body) => ({ path: '/app/widget/branding.data', body })));
    console.info('/app/widget/branding', seen);
  });

  it('onboarding (/app/onboarding): create, launch, widget, mark, open, preview-token', async () => {
    const template = nearly({
      template: 'daily-visit',
      status: 'draft',
      shopifyDiscounts: false,
      slug: 'streak',
      id: NOTHING,
      step: 'automate',
      done: true,
      open: true,
      language: 'en',
    });
    const request = intentOf('create', 'launch', 'mark', 'open', 'preview-token', 'widget').chain((intent) =>
      bodies(template.map((b) => ({ ...b, intent }))).map((body) => ({ path: '/app/onboarding.data', body })),
    );
    const seen = await survey(request);
    console.info('/app/onboarding', seen);
  });

  it('routes with no action, or GET only, answer a POST as a 4xx', async () => {
    const request = fc
      .tuple(
        fc.constantFrom(
          '/app/members.data',
          '/app/tiers.data',
          '/app/widget.data',
          '/app/help.data',
          '/app/notifications.data',
          '/app/r/reward.data',
          `/app/data-requests/${NOTHING}.data`,
          '/app/data-requests.data',
          '/app/earnings.csv',
          '/app/members.csv',
          '/app.data',
        ),
        bodies(nearly({ intent: 'delete', id: ids.reward })),
      )
      .map(([path, body]) => ({ path, body }));
    const seen = await survey(request, { alwaysUnchanged: true });
    console.info('no action', seen);
  });
});

describe('admin loaders (hostile query strings with a valid session token)', () => {
  it('every page read with odd query parameters and ids answers below 500 and changes nothing', async () => {
    const pages = () => [
      '/app',
      '/app/members',
      `/app/members/${ids.member}`,
      `/app/rewards/${ids.reward}`,
      '/app/rewards/new',
      `/app/tiers/${ids.tier}`,
      '/app/tiers',
      `/app/leaderboards/${ids.leaderboard}`,
      `/app/programs/streak/${ids.streak}`,
      '/app/programs/challenge/new',
      '/app/points',
      `/app/r/leaderboard/${ids.leaderboard}`,
      `/app/r/streak/${ids.streak}`,
      '/app/r/reward',
      '/app/notifications',
      '/app/notifications/rules/new',
      '/app/notifications/emails/new',
      '/app/widget',
      '/app/widget/branding',
      '/app/data-requests',
      '/app/help',
    ];
    const PARAMS = ['page', 'q', 'from', 'to', 'periodKey', 'locale', 'language', 'tab', 'index'];
    const value = fc.oneof(
      { weight: 4, arbitrary: oddString },
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          '-1e309',
          '1e309',
          '-1',
          '2147483648',
          '0000-13-45',
          '2026-02-30',
          '9999-12-31',
          '2026-W99',
          '2026-13',
          'zz',
          'de',
        ),
      },
    );
    const wellFormed = (s: string) => s.replace(/[\ud800-\udfff]/g, '\ufffd');
    const query = fc.array(fc.tuple(fc.constantFrom(...PARAMS), value), { minLength: 1, maxLength: 3 });
    const page = fc.oneof(
      {
        weight: 5,
        arbitrary: fc
          .constant(null)
          .map(() => pages())
          .chain((p) => fc.constantFrom(...p)),
      },
      {
        weight: 2,
        arbitrary: fc
          .tuple(
            fc.constantFrom(
              '/app/members/',
              '/app/rewards/',
              '/app/tiers/',
              '/app/leaderboards/',
              '/app/programs/streak/',
              '/app/programs/zz/',
              '/app/r/streak/',
              '/app/r/zz/',
              '/app/notifications/rules/',
              '/app/notifications/emails/',
              '/app/data-requests/',
            ),
            fc.constantFrom(NOTHING, ...NOT_IDS),
          )
          .map(([prefix, id]) => `${prefix}${id}`),
      },
    );
    const request = fc.tuple(page, query, fc.boolean()).map(([path, params, data]) => {
      const search = new URLSearchParams(params.map(([k, v]) => [k, wellFormed(v)])).toString();
      // The downloads are resource routes, read as they are; the pages as their data.
      return { path: `${path}${data ? '.data' : ''}?${search}` };
    });
    const downloads = fc
      .tuple(fc.constantFrom('/app/earnings.csv', '/app/members.csv'), query)
      .map(([path, params]) => ({ path: `${path}?${new URLSearchParams(params.map(([k, v]) => [k, wellFormed(v)])).toString()}` }));
    const seen = await survey(fc.oneof({ weight: 5, arbitrary: request }, { weight: 1, arbitrary: downloads }), {
      runs: 200,
      alwaysUnchanged: true,
    });
    console.info('loaders', seen);
  });
});

describe('what the properties found, as single requests', () => {
  it('a JSON body to an action that reads a form (the dashboard’s retention, a member’s intents) is its 400, not a 500', async () => {
    const before = await state();
    const retention = await send('/app.data?index', json({ retentionMonths: '12' }));
    expect(retention).toMatchObject({ status: 400, data: { retention: 'invalid' } });
    for (const body of [
      json({ intent: 'adjust', points: '5', note: 'n', key: 'k' }),
      { text: '--zz', contentType: 'multipart/form-data; boundary=zz' },
    ]) {
      const member = await send(`/app/members/${ids.member}.data`, body);
      expect(member.status, member.text).toBe(400);
    }
    expect(changedIn(before, await state())).toEqual([]);
  });

  it('a member search holding a NUL searches without it, not answered with the core’s refusal of the filter', async () => {
    const answer = await send('/app/members.data?q=%00');
    expect(answer.status).toBe(200);
    expect(answer.text).not.toContain('wrong type');
    expect(JSON.stringify(answer.data)).toContain('"failure":null');
  });

  it('a data request id holding a NUL names none: 404, not a 500', async () => {
    for (const path of ['/app/data-requests/%00', '/app/data-requests/a%00b.data']) expect((await send(path)).status).toBe(404);
  });

  it('a program draft whose fields have the wrong types (an id that is an object, texts left out, a milestone that is a number) is 400', async () => {
    const before = await state();
    const settings = drafts.program.settings as Data;
    const statuses: number[] = [];
    for (const draft of [
      { ...drafts.program, id: {} },
      { ...drafts.program, settings: { ...settings, name: 5, description: undefined } },
      { ...drafts.program, settings: { ...settings, tasks: [1] } },
      { ...drafts.program, milestones: [7] },
      { ...drafts.program, milestones: [{ ...(drafts.program.milestones as Data[])[0], reward: { mode: 'existing' } }] },
      { ...drafts.program, earning: { source: 'none', collectionIds: [{}] } },
      { ...drafts.program, completionReward: { mode: 'new', rewardId: '', draft: null } },
    ]) {
      // To a new program, where the body's id is the one saved.
      statuses.push((await send('/app/programs/streak/new.data', json({ language: 'en', draft }))).status);
    }
    expect(statuses).toEqual(statuses.map(() => 400));
    expect(changedIn(before, await state())).toEqual([]);
  });

  /** The branding editor's save of the three records, its draft changed by `changes` and its ids by `otherIds`. */
  const saveBranding = (changes: Data, otherIds: Data = {}) =>
    send(
      '/app/widget/branding.data',
      json({
        intent: 'save',
        language: 'en',
        textLanguage: 'en',
        ids: { theme: ids.theme, floating_widget: ids.floating_widget, template: ids.template, ...otherIds },
        draft: { ...drafts.branding, ...changes },
      }),
    );

  it('a branding save naming a launcher or texts record that is not there is refused before the theme is written', async () => {
    const before = await state();
    for (const other of [{ floating_widget: NOTHING }, { template: 'x'.repeat(300) }]) {
      const res = await saveBranding({ primaryColor: '#112233' }, other);
      expect(res.status).toBeLessThan(500);
      expect(res.data).toMatchObject({ ok: false });
    }
    expect(changedIn(before, await state())).toEqual([]);
  });

  it('an id with a lone surrogate in a JSON body (no URL can carry it to the core) is refused, not a 500', async () => {
    const before = await state();
    const odd = 'x\udc00';
    const requests: [string, Data][] = [
      [
        '/app/widget/branding.data',
        {
          intent: 'save',
          language: 'en',
          textLanguage: 'en',
          ids: { theme: ids.theme, floating_widget: odd, template: ids.template },
          draft: drafts.branding,
        },
      ],
      [`/app/r/streak/${ids.streak}.data`, { intent: 'delete-milestone', id: odd }],
      [`/app/r/webhook/${ids.webhook}.data`, { intent: 'resend-delivery', id: odd }],
      ['/app/notifications/rules/new.data', { intent: 'preview', templateId: odd, provider: 'service_email' }],
      [
        '/app/notifications/rules/new.data',
        { intent: 'preview', templateId: odd, provider: 'cloud_sms', eventCode: 'streak_progress_milestone_completed' },
      ],
      ['/app/onboarding.data', { intent: 'launch', slug: 'streak', id: odd }],
    ];
    const statuses = [];
    for (const [path, body] of requests) statuses.push([path, body.intent, (await send(path, json(body))).status]);
    expect(statuses.filter(([, , status]) => (status as number) >= 500)).toEqual([]);
    expect(changedIn(before, await state())).toEqual([]);
  });

  it('a body nesting 20,000 deep anywhere (an id, a template, beside a draft) is refused, not read (String(), structuredClone and the answer recurse as deep)', async () => {
    const before = await state();
    const deep = (fields: Record<string, unknown>): Body => ({
      text: toJson({ language: 'en', ...fields }),
      contentType: 'application/json',
    });
    const requests: [string, Body][] = [
      [`/app/r/streak/${ids.streak}.data`, deep({ intent: 'delete-milestone', id: DEEP[0] })],
      [`/app/r/webhook/${ids.webhook}.data`, deep({ intent: 'resend-delivery', id: DEEP[0] })],
      ['/app/onboarding.data', deep({ intent: 'create', status: 'live', template: DEEP[0] })],
      // Beside a whole draft, which a page copies and sends back: refused before it is read.
      [`/app/programs/streak/${ids.streak}.data`, deep({ draft: { ...drafts.program, '': DEEP[0] } })],
      [`/app/rewards/${ids.reward}.data`, deep({ intent: 'save', draft: { ...drafts.reward, extra: DEEP[1] } })],
      [`/app/tiers/${ids.tier}.data`, deep({ intent: 'save', draft: { ...drafts.tier, extra: DEEP[0] } })],
      [`/app/leaderboards/${ids.leaderboard}.data`, deep({ intent: 'save', draft: { ...drafts.leaderboard, extra: DEEP[0] } })],
      ['/app/points.data', deep({ intent: 'save', draft: { ...drafts.points, extra: DEEP[0] } })],
      ['/app/notifications/rules/new.data', deep({ intent: 'save', draft: { ...drafts.rule, extra: DEEP[0] } })],
      ['/app/notifications/emails/new.data', deep({ intent: 'save', draft: { ...drafts.email, extra: DEEP[0] } })],
      ['/app/widget/branding.data', deep({ intent: 'save', textLanguage: 'en', draft: { ...drafts.branding, extra: DEEP[1] } })],
    ];
    const statuses = [];
    for (const [path, body] of requests) statuses.push([path, (await send(path, body)).status]);
    expect(statuses.filter(([, status]) => (status as number) >= 500)).toEqual([]);
    expect(changedIn(before, await state())).toEqual([]);
  });

  // The core checks each of the three records as it is written: the ones it took are put back.
  it('a branding save with one record refused (the launcher’s offset) leaves the others (the theme’s colour) as they were', async () => {
    const before = await state();
    const res = await saveBranding({ primaryColor: '#123456', offsetX: '-99999' });
    expect(res.data).toMatchObject({ ok: false, refusal: { fieldErrors: { offsetX: expect.any(String) } } });
    expect(changedIn(before, await state())).toEqual([]);
  });
});
