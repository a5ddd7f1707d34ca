import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoCredentials, demoRoutes, ensureDemoAccount } from '../../src/demo/index.js';
import { DEMO_TEXTS } from '../../src/demo/texts.js';
import { LANGUAGE_CODES } from '../../src/formats.js';
import { createDb } from '../../src/db/knex.js';
import { type RunningApi, startApi } from '../../src/server.js';
import { Client, startTestApp, type TestApp } from '../support/harness.js';

/**
 * The demo storefront mints end-user tokens for the demo account: only `serve --demo` mounts it.
 * Both services run on one database that holds the demo account and its data. The data folder does
 * not exist yet, as on a fresh checkout started with DATABASE_URL.
 */
const tempDir = mkdtempSync(join(tmpdir(), 'loyalty-demo-mode-'));
const dataDir = join(tempDir, 'data');
let production: TestApp;
let demo: RunningApi;
let demoDb: ReturnType<typeof createDb>;

let creds: DemoCredentials;

beforeAll(async () => {
  production = await startTestApp({ LOYALTY_DATA_DIR: dataDir });
  creds = await ensureDemoAccount(production.running.services, production.url);
  demoDb = createDb(production.config.databaseUrl!);
  demo = await startApi(production.config, demoDb, pino({ level: 'silent' }), { extraRoutes: demoRoutes });
});
afterAll(async () => {
  await demo?.close();
  await demoDb?.destroy();
  await production?.close();
  rmSync(tempDir, { recursive: true, force: true });
});

/** /demo is a page, not an API operation: the OpenAPI document leaves it out. */
const page = (url: string, path: string) => new Client(url).request('GET', path, { validate: false });

describe('/demo', () => {
  it.each(['/demo', '/demo?mode=member'])('%s is not found on a production start, even with a demo account', async (path) => {
    const res = await page(production.url, path);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });

  it('serves the storefront, and a member token in member mode, under serve --demo', async () => {
    const guest = await page(demo.url, '/demo');
    expect(guest.status).toBe(200);
    expect(guest.headers.get('content-type')).toContain('text/html');
    expect(guest.body).not.toContain('accessToken');
    const member = await page(demo.url, '/demo?mode=member');
    expect(member.status).toBe(200);
    expect(member.body).toContain('accessToken');
  });

  // Seeding the demo account whole: 3 s alone, 15 s beside the suite's other files, past 30 s under a slow CI host's load.
  it('asks to come back while serve --demo is still seeding the demo account, then serves it', { timeout: 90_000 }, async () => {
    const starting = await startTestApp({ LOYALTY_DATA_DIR: join(tempDir, 'starting') }, { extraRoutes: demoRoutes });
    try {
      const early = await page(starting.url, '/demo');
      expect(early.status).toBe(503);
      expect(early.headers.get('retry-after')).toBe('1');
      expect(early.headers.get('content-type')).toContain('text/html');
      expect(early.body).toContain('<meta http-equiv="refresh" content="1">');
      await ensureDemoAccount(starting.running.services, starting.url);
      expect((await page(starting.url, '/demo')).status).toBe(200);
    } finally {
      await starting.close();
    }
  });
});

describe('the demo data', () => {
  it('reads in each of the nine languages: the widget’s records, the definitions, tasks, milestones, rewards, tiers and the currency', async () => {
    const api = production.anon.with({ 'x-api-key': creds.apiKey, 'x-api-secret': creds.apiSecret });
    for (const languageCode of LANGUAGE_CODES) {
      const t = DEMO_TEXTS[languageCode];
      const list = async (slug: string) => (await api.get(`/schema/${slug}/record`, { languageCode, limit: 100 })).body.data;
      const titles = async (slug: string) => (await list(slug)).map((r: { eudTitle: string }) => r.eudTitle).sort();
      const [template] = await list('template');
      const member = languageCode === 'en' ? '/demo?mode=member' : `/demo?mode=member&lang=${languageCode}`;
      expect(template, languageCode).toMatchObject({ ...t.template, signUpUrl: member, logInUrl: member });
      expect((await list('floating_widget'))[0].eudTitle).toBe(t.launcher);
      expect((await list('streak'))[0]).toMatchObject({ eudTitle: t.streak.title, eudDescription: t.streak.description });
      expect((await list('challenge'))[0]).toMatchObject({ eudTitle: t.challenge.title, eudDescription: t.challenge.description });
      const [mission] = await list('mission');
      expect(mission).toMatchObject({ eudTitle: t.mission.title, eudDescription: t.mission.description });
      expect(mission.tasks.map((task: { activityId: 'sign_up' | 'review' | 'referral'; eudTitle: string }) => task.eudTitle)).toEqual(
        mission.tasks.map((task: { activityId: 'sign_up' | 'review' | 'referral' }) => t.mission.tasks[task.activityId]),
      );
      expect(await titles('milestone')).toEqual([...t.streak.milestones, ...t.challenge.milestones, t.mission.milestone].sort());
      const { starsFive, starsTen, ...coupons } = t.rewards;
      expect((await titles('reward')).filter(Boolean)).toEqual([...Object.values(coupons), starsFive, starsTen].sort());
      expect((await list('tier')).map((tier: { eudDescription: string }) => tier.eudDescription).sort()).toEqual([...t.tiers].sort());
      expect((await list('leaderboard'))[0]).toMatchObject({ eudTitle: t.leaderboard.title, eudDescription: t.leaderboard.description });
      expect((await list('points_setting'))[0].eudCurrencyName).toBe(t.currency);
    }
  });

  it('keeps what was changed in the points setting when seeded again, and earns nothing while points are off', async () => {
    const api = production.anon.with({ 'x-api-key': creds.apiKey, 'x-api-secret': creds.apiSecret });
    const [setting] = (await api.get('/schema/points_setting/record')).body.data;
    expect(setting).toMatchObject({ status: 'live', eudCurrencyName: 'Stars', pointsPerCurrencyUnit: 2 });
    const entries = async () => (await api.get('/schema/point_entry/record', { fetchTotalCount: true, limit: 1 })).body.paging.total;
    expect(await entries()).toBe(3);
    expect((await api.patch(`/schema/points_setting/record/${setting.id}`, { status: 'draft', pointsPerCurrencyUnit: 5 })).status).toBe(
      200,
    );
    await ensureDemoAccount(production.running.services, production.url);
    expect((await api.get(`/schema/points_setting/record/${setting.id}`)).body.data).toMatchObject({
      status: 'draft',
      pointsPerCurrencyUnit: 5,
    });
    expect(await entries()).toBe(3);
  });
});
