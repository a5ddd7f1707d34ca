import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

// An http public URL, so that the "http only for this service's uploads" rule of eudIcon is exercised.
const PUBLIC_URL = 'http://loyalty.test:8080';

let app: TestApp;
let acct: TestAccount;
let other: TestAccount;
beforeAll(async () => {
  app = await startTestApp({ LOYALTY_PUBLIC_URL: PUBLIC_URL });
  acct = await app.createAccount({ defaultLanguageCode: 'de' });
  other = await app.createAccount();
});
afterAll(() => app.close());

const WIDGET = '/schema/floating_widget/record';
const THEME = '/schema/theme/record';
const TEMPLATE = '/schema/template/record';

async function create(client: Client, path: string, body: Record<string, unknown>, query?: Record<string, unknown>) {
  const res = await client.request('POST', path, { body, query });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as Record<string, unknown> & { id: string };
}

/** Expects a 400 invalid_input whose details name `field` with `code`. */
async function expectInvalid(res: Promise<{ status: number; body: any }>, field: string, code: string) {
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBe(400);
  expect(r.body.error.code).toBe('invalid_input');
  expect(r.body.error.details).toContainEqual(expect.objectContaining({ field, code }));
}

const guest = (accountId?: string) => app.anon.with(accountId ? { 'x-account-id': accountId } : {});

describe('floating_widget', () => {
  it('applies every default of the spec table on a create with only the required fields', async () => {
    const w = await create(acct.api, WIDGET, { name: 'Launcher', description: 'Bottom right' });
    expect(w).toEqual({
      id: w.id,
      name: 'Launcher',
      description: 'Bottom right',
      status: 'live',
      eudTitle: null,
      eudIcon: null,
      alignment: 'bottom_right',
      alignmentPositionX: 20,
      alignmentPositionY: 20,
      backgroundColor: 'rgba(255, 255, 255, 1)',
      borderColor: 'rgba(226, 232, 240, 1)',
      textColor: 'rgba(26, 28, 30, 1)',
      borderWidth: 1,
      borderRadius: 8,
      boxShadow: '0 1px 2px rgba(16, 24, 40, 0.06), 0 4px 8px rgba(16, 24, 40, 0.08), 0 12px 24px rgba(16, 24, 40, 0.12)',
      fontSize: 18,
      createdAt: w.createdAt,
      updatedAt: w.updatedAt,
    });
    // Three layers, within the limit.
    expect((w.boxShadow as string).split('),').length).toBe(3);
    expect((w.boxShadow as string).length).toBeLessThanOrEqual(256);
  });

  it('stores every field it is given and patches them', async () => {
    const w = await create(acct.api, WIDGET, {
      name: 'Top left',
      description: 'x',
      status: 'draft',
      alignment: 'top_left',
      alignmentPositionX: 0,
      alignmentPositionY: 2000,
      backgroundColor: 'rgba(0, 0, 0, 0.5)',
      borderColor: 'rgba(1,2,3,0)',
      textColor: 'rgba(255, 255, 255, 1)',
      borderWidth: 0,
      borderRadius: 2000,
      boxShadow: 'none',
      fontSize: 200,
      eudIcon: 'https://cdn.example.com/icon.png',
    });
    expect(w).toMatchObject({
      status: 'draft',
      alignment: 'top_left',
      alignmentPositionY: 2000,
      borderColor: 'rgba(1,2,3,0)',
      boxShadow: 'none',
      fontSize: 200,
    });
    const patched = await acct.api.patch(`${WIDGET}/${w.id}`, {
      alignment: 'bottom_left',
      fontSize: 1,
      boxShadow: 'inset 0 0 0 1px var(--ring), 0 2px 4px hsla(0, 0%, 0%, 0.2)',
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.data).toMatchObject({ alignment: 'bottom_left', fontSize: 1, alignmentPositionY: 2000 });
    expect((await acct.api.get(`${WIDGET}/${w.id}`)).body.data.alignment).toBe('bottom_left');
    // CSS is case-insensitive, and so is the pattern the document publishes (the test client checks each answer against it).
    const shouted = await acct.api.patch(`${WIDGET}/${w.id}`, { boxShadow: 'INSET 0 0 1PX RED' });
    expect(shouted.status, JSON.stringify(shouted.body)).toBe(200);
    expect(shouted.body.data.boxShadow).toBe('INSET 0 0 1PX RED');
    expect((await acct.api.delete(`${WIDGET}/${w.id}`)).status).toBe(204);
    expect((await acct.api.get(`${WIDGET}/${w.id}`)).status).toBe(404);
  });

  it('refuses each invalid value with a detail naming the field', async () => {
    const base = { name: 'W', description: 'd' };
    const post = (extra: Record<string, unknown>) => acct.api.post(WIDGET, { ...base, ...extra });
    await expectInvalid(acct.api.post(WIDGET, { description: 'd' }), 'name', 'required');
    await expectInvalid(acct.api.post(WIDGET, { name: 'W' }), 'description', 'required');
    await expectInvalid(post({ backgroundColor: 'rgb(1, 2, 3)' }), 'backgroundColor', 'invalid');
    await expectInvalid(post({ borderColor: 'rgba(256, 0, 0, 1)' }), 'borderColor', 'invalid');
    await expectInvalid(post({ textColor: 'rgba(0, 0, 0, 1.5)' }), 'textColor', 'invalid');
    await expectInvalid(post({ textColor: '#ffffff' }), 'textColor', 'invalid');
    await expectInvalid(post({ backgroundColor: null }), 'backgroundColor', 'not_nullable');
    await expectInvalid(post({ alignment: null }), 'alignment', 'not_nullable');
    await expectInvalid(post({ alignment: 'center' }), 'alignment', 'invalid_enum');
    await expectInvalid(post({ alignmentPositionX: 2001 }), 'alignmentPositionX', 'too_large');
    await expectInvalid(post({ alignmentPositionY: -1 }), 'alignmentPositionY', 'too_small');
    await expectInvalid(post({ alignmentPositionX: 1.5 }), 'alignmentPositionX', 'invalid_type');
    await expectInvalid(post({ alignmentPositionX: '20' }), 'alignmentPositionX', 'invalid_type');
    await expectInvalid(post({ borderWidth: 101 }), 'borderWidth', 'too_large');
    await expectInvalid(post({ borderRadius: -1 }), 'borderRadius', 'too_small');
    await expectInvalid(post({ fontSize: 0 }), 'fontSize', 'too_small');
    await expectInvalid(post({ fontSize: 201 }), 'fontSize', 'too_large');
    await expectInvalid(post({ eudTitle: 'x'.repeat(49) }), 'eudTitle', 'too_long');
    await expectInvalid(post({ name: 'x'.repeat(257) }), 'name', 'too_long');
    await expectInvalid(post({ description: 'x'.repeat(1025) }), 'description', 'too_long');
    await expectInvalid(post({ boxShadow: `0 0 1px ${'rgba(0, 0, 0, 1), 0 0 1px '.repeat(12)}red` }), 'boxShadow', 'too_long');
    await expectInvalid(post({ boxShadow: '0 0 1px red; background: blue' }), 'boxShadow', 'invalid_format');
    await expectInvalid(post({ boxShadow: '0 0 1px url(evil.png)' }), 'boxShadow', 'invalid');
    await expectInvalid(post({ status: 'archived' }), 'status', 'invalid_enum');
    await expectInvalid(post({ colour: 'rgba(0, 0, 0, 1)' }), 'colour', 'unknown_field');
    // System fields are the service's to set; the engine reports them as unknown body fields.
    await expectInvalid(post({ id: randomUUID() }), 'id', 'read_only');
    await expectInvalid(post({ createdAt: new Date().toISOString() }), 'createdAt', 'read_only');
    // Limits hold on update too.
    const w = await create(acct.api, WIDGET, base);
    await expectInvalid(acct.api.patch(`${WIDGET}/${w.id}`, { alignmentPositionY: 5000 }), 'alignmentPositionY', 'too_large');
    await expectInvalid(acct.api.patch(`${WIDGET}/${w.id}`, { fontSize: null }), 'fontSize', 'not_nullable');
    await expectInvalid(acct.api.patch(`${WIDGET}/${w.id}`, { updatedAt: new Date().toISOString() }), 'updatedAt', 'read_only');
  });

  it('accepts only https icons or upload URLs of this service as eudIcon, on every resource', async () => {
    const upload = `${PUBLIC_URL}/files/${acct.accountId}/${randomUUID()}`;
    const w = await create(acct.api, WIDGET, { name: 'Icon', description: 'd', eudIcon: upload });
    expect(w.eudIcon).toBe(upload);
    const https = await acct.api.patch(`${WIDGET}/${w.id}`, { eudIcon: 'https://cdn.example.com/a.svg' });
    expect(https.body.data.eudIcon).toBe('https://cdn.example.com/a.svg');
    for (const bad of [
      'http://cdn.example.com/a.png',
      `${PUBLIC_URL}/docs`,
      `${PUBLIC_URL}/files/${acct.accountId}/../../docs`,
      `http://loyalty.test:9090/files/${acct.accountId}/${randomUUID()}`,
      'javascript:alert(1)',
      'ftp://cdn.example.com/a.png',
      'data:image/png;base64,AAAA',
      '/files/x/y',
    ]) {
      await expectInvalid(acct.api.patch(`${WIDGET}/${w.id}`, { eudIcon: bad }), 'eudIcon', 'invalid_format');
    }
    // The same builder serves the definitions' eudIcon.
    await expectInvalid(
      acct.api.post('/schema/streak/record', { name: 'S', eudIcon: 'http://cdn.example.com/a.png' }),
      'eudIcon',
      'invalid_format',
    );
    const s = await create(acct.api, '/schema/streak/record', { name: 'S', eudIcon: upload });
    expect(s.eudIcon).toBe(upload);
  });

  it('stores eudTitle per language and falls back to the account default, then en', async () => {
    // The account's default language is de, which has no text yet.
    const w = await create(acct.api, WIDGET, { name: 'L', description: 'd', eudTitle: 'Rewards' }, { languageCode: 'en' });
    const id = w.id;
    expect((await acct.api.patch(`${WIDGET}/${id}`, { eudTitle: 'Récompenses' }, {}, { languageCode: 'fr' })).status).toBe(200);
    const read = async (languageCode?: string) =>
      (await acct.api.get(`${WIDGET}/${id}`, languageCode ? { languageCode } : undefined)).body.data.eudTitle;
    expect(await read('fr')).toBe('Récompenses');
    expect(await read('en')).toBe('Rewards');
    expect(await read('es')).toBe('Rewards');
    expect(await read()).toBe('Rewards');
    // Written without languageCode: the account default (de), which es now falls back to.
    await acct.api.patch(`${WIDGET}/${id}`, { eudTitle: 'Prämien' });
    expect(await read('es')).toBe('Prämien');
    expect(await read()).toBe('Prämien');
    expect(await read('fr')).toBe('Récompenses');
    expect(await read('en')).toBe('Rewards');
    // Guests read the same texts.
    expect((await guest().get(`${WIDGET}/${id}`, { languageCode: 'fr' })).body.data.eudTitle).toBe('Récompenses');
    // Clearing one language leaves the others.
    await acct.api.patch(`${WIDGET}/${id}`, { eudTitle: null }, {}, { languageCode: 'fr' });
    expect(await read('fr')).toBe('Prämien');
    expect(await read('en')).toBe('Rewards');
    // The limit applies per language.
    await expectInvalid(
      acct.api.patch(`${WIDGET}/${id}`, { eudTitle: 'é'.repeat(49) }, {}, { languageCode: 'ja' }),
      'eudTitle',
      'too_long',
    );
  });
});

describe('theme', () => {
  it('applies its defaults on a create with only the name', async () => {
    const t = await create(acct.api, THEME, { name: 'Default' });
    expect(t).toEqual({
      id: t.id,
      name: 'Default',
      status: 'live',
      primaryColor: 'rgba(124, 58, 237, 1)',
      primaryContrastTextColor: 'rgba(255, 255, 255, 1)',
      secondaryColor: 'rgba(237, 233, 254, 1)',
      primaryTextColor: 'rgba(26, 28, 30, 1)',
      secondaryTextColor: 'rgba(100, 116, 139, 1)',
      backgroundColor: 'rgba(255, 255, 255, 1)',
      fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
      borderRadius: 12,
      createdAt: t.createdAt,
      updatedAt: t.updatedAt,
    });
  });

  it('refuses each invalid value with a detail naming the field', async () => {
    const post = (extra: Record<string, unknown>) => acct.api.post(THEME, { name: 'T', ...extra });
    await expectInvalid(acct.api.post(THEME, {}), 'name', 'required');
    await expectInvalid(post({ primaryColor: 'purple' }), 'primaryColor', 'invalid');
    await expectInvalid(post({ secondaryColor: 'rgba(0, 0, 0)' }), 'secondaryColor', 'invalid');
    await expectInvalid(post({ primaryContrastTextColor: 'rgba(0, 300, 0, 1)' }), 'primaryContrastTextColor', 'invalid');
    await expectInvalid(post({ backgroundColor: null }), 'backgroundColor', 'not_nullable');
    await expectInvalid(post({ borderRadius: 2001 }), 'borderRadius', 'too_large');
    await expectInvalid(post({ borderRadius: 4.5 }), 'borderRadius', 'invalid_type');
    await expectInvalid(post({ fontFamily: 'Arial; } body { display: none' }), 'fontFamily', 'invalid_format');
    await expectInvalid(post({ fontFamily: 'x'.repeat(257) }), 'fontFamily', 'too_long');
    await expectInvalid(post({ description: 'themes have none' }), 'description', 'unknown_field');
    const ok = await create(acct.api, THEME, {
      name: 'Japanese',
      fontFamily: '"Hiragino Sans", メイリオ, sans-serif',
      primaryColor: 'rgba(0, 0, 0, .25)',
    });
    expect(ok.fontFamily).toBe('"Hiragino Sans", メイリオ, sans-serif');
  });
});

describe('template', () => {
  const DEFAULTS = {
    loggedInTitle: 'Your rewards',
    loggedInSubTitle: 'Keep going to unlock your next reward.',
    loggedOutTitle: 'Join our rewards program',
    loggedOutSubTitle: 'Sign up or log in to earn rewards for what you already do.',
    signUpButtonText: 'Sign up',
    signUpUrl: null,
    logInButtonText: 'Log in',
    logInUrl: null,
    copiedMessage: 'Copied!',
    streaksTabTitle: 'Streaks',
    challengesTabTitle: 'Challenges',
    missionsTabTitle: 'Missions',
    rewardsTabTitle: 'Rewards',
  };

  it('has English defaults for the texts a widget shows', async () => {
    const t = await create(acct.api, TEMPLATE, { name: 'Default' });
    expect(t).toEqual({ id: t.id, name: 'Default', status: 'live', ...DEFAULTS, createdAt: t.createdAt, updatedAt: t.updatedAt });
    // Defaults are English, so every language falls back to them.
    expect((await acct.api.get(`${TEMPLATE}/${t.id}`, { languageCode: 'ko' })).body.data).toMatchObject(DEFAULTS);
    // An explicit null means no text at all.
    const bare = await create(acct.api, TEMPLATE, { name: 'Bare', copiedMessage: null });
    expect(bare.copiedMessage).toBeNull();
    expect((await acct.api.get(`${TEMPLATE}/${bare.id}`, { languageCode: 'en' })).body.data.copiedMessage).toBeNull();
  });

  it('keeps defaults in en when created in another language, and localises every text', async () => {
    const t = await create(
      acct.api,
      TEMPLATE,
      { name: 'FR', loggedOutTitle: 'Rejoignez-nous', signUpUrl: '/fr/account/register' },
      { languageCode: 'fr' },
    );
    expect(t.loggedOutTitle).toBe('Rejoignez-nous');
    const read = async (languageCode?: string) =>
      (await acct.api.get(`${TEMPLATE}/${t.id}`, languageCode ? { languageCode } : undefined)).body.data;
    // en: the written fr text is not English, so en has only the defaults; es falls back to de (none), then en.
    expect((await read('en')).loggedOutTitle).toBe('Join our rewards program');
    expect((await read('es')).loggedOutTitle).toBe('Join our rewards program');
    expect((await read('fr')).loggedOutTitle).toBe('Rejoignez-nous');
    expect((await read('fr')).signUpUrl).toBe('/fr/account/register');
    expect((await read('en')).signUpUrl).toBeNull();
    expect((await read('fr')).signUpButtonText).toBe('Sign up');

    const texts = Object.keys(DEFAULTS).filter((k) => !k.endsWith('Url'));
    const fr = Object.fromEntries(texts.map((k) => [k, `fr ${k}`]));
    const de = Object.fromEntries(texts.map((k) => [k, `de ${k}`]));
    expect(
      (await acct.api.patch(`${TEMPLATE}/${t.id}`, { ...fr, logInUrl: 'https://shop.example/fr/login' }, {}, { languageCode: 'fr' }))
        .status,
    ).toBe(200);
    expect(await read('fr')).toMatchObject({ ...fr, logInUrl: 'https://shop.example/fr/login' });
    expect(await read('es')).toMatchObject(Object.fromEntries(texts.map((k) => [k, DEFAULTS[k as keyof typeof DEFAULTS]])));
    await acct.api.patch(`${TEMPLATE}/${t.id}`, de);
    expect(await read('es')).toMatchObject(de);
    expect(await read('fr')).toMatchObject(fr);
    expect((await read('es')).logInUrl).toBeNull();
  });

  it('refuses invalid texts and links', async () => {
    const post = (extra: Record<string, unknown>) => acct.api.post(TEMPLATE, { name: 'T', ...extra });
    await expectInvalid(acct.api.post(TEMPLATE, { loggedInTitle: 'x' }), 'name', 'required');
    await expectInvalid(post({ loggedInTitle: 'x'.repeat(257) }), 'loggedInTitle', 'too_long');
    await expectInvalid(post({ loggedOutSubTitle: 'x'.repeat(1025) }), 'loggedOutSubTitle', 'too_long');
    await expectInvalid(post({ signUpButtonText: 'x'.repeat(65) }), 'signUpButtonText', 'too_long');
    await expectInvalid(post({ rewardsTabTitle: 'x'.repeat(49) }), 'rewardsTabTitle', 'too_long');
    await expectInvalid(post({ copiedMessage: 42 }), 'copiedMessage', 'invalid_type');
    for (const bad of [
      'javascript:alert(1)',
      '//evil.example/register',
      '/\\evil.example',
      'register',
      'ftp://x.example/',
      '/a b',
      // Read as evil.example by browsers and as shop.example by others; user information; white space.
      'https://evil.example\\@shop.example/',
      'https://user:pw@shop.example/login',
      'https://shop.example/a b',
    ]) {
      await expectInvalid(post({ signUpUrl: bad }), 'signUpUrl', 'invalid');
    }
    await expectInvalid(post({ logInUrl: `https://x.example/${'a'.repeat(2048)}` }), 'logInUrl', 'too_long');
    await expectInvalid(post({ theme: 'dark' }), 'theme', 'unknown_field');
    const ok = await create(acct.api, TEMPLATE, {
      name: 'Links',
      signUpUrl: 'HTTPS://shop.example/register?ref=widget',
      logInUrl: '/account/login',
    });
    expect(ok).toMatchObject({ signUpUrl: 'HTTPS://shop.example/register?ref=widget', logInUrl: '/account/login' });
  });
});

describe('end users and guests', () => {
  const resources = [
    { path: WIDGET, body: { description: 'd', eudTitle: 'Open' }, secret: ['name', 'description', 'status'], shown: 'eudTitle' },
    { path: THEME, body: {}, secret: ['name', 'status'], shown: 'primaryColor' },
    { path: TEMPLATE, body: {}, secret: ['name', 'status'], shown: 'loggedOutTitle' },
  ];

  for (const r of resources) {
    it(`${r.path}: guests read live records' public fields only`, async () => {
      const tenant = await app.createAccount();
      const live = await create(tenant.api, r.path, { name: 'live one', ...r.body });
      const draft = await create(tenant.api, r.path, { name: 'draft one', status: 'draft', ...r.body });
      const paused = await create(tenant.api, r.path, { name: 'paused one', status: 'paused', ...r.body });

      const list = await guest(tenant.accountId).get(r.path);
      expect(list.status, JSON.stringify(list.body)).toBe(200);
      expect(list.body.data.map((d: { id: string }) => d.id)).toEqual([live.id]);
      const seen = list.body.data[0];
      for (const key of r.secret) expect(seen).not.toHaveProperty(key);
      expect(seen[r.shown]).toBe(live[r.shown]);
      expect(Object.keys(seen).sort()).toEqual(
        Object.keys(live)
          .filter((k) => !r.secret.includes(k))
          .sort(),
      );

      // Private fields are unknown to guests' queries.
      const byName = await guest(tenant.accountId).get(r.path, {
        filters: { operator: 'and', conditions: [{ fieldSlug: 'name', operator: 'equals', fieldValue: 'live one' }] },
      });
      expect(byName.status).toBe(400);
      expect(byName.body.error.code).toBe('invalid_query');
      expect((await guest(tenant.accountId).get(r.path, { fields: ['status'] })).status).toBe(400);

      const noAccount = await guest().get(r.path);
      expect(noAccount.status).toBe(401);
      expect(noAccount.body.error.code).toBe('unauthenticated');
      expect((await guest(randomUUID()).get(r.path)).status).toBe(401);

      const got = await guest().get(`${r.path}/${live.id}`);
      expect(got.status, JSON.stringify(got.body)).toBe(200);
      expect(got.body.data).toEqual(seen);
      expect((await guest(tenant.accountId).get(`${r.path}/${live.id}`)).status).toBe(200);
      expect((await guest(acct.accountId).get(`${r.path}/${live.id}`)).status).toBe(404);
      expect((await guest().get(`${r.path}/${draft.id}`)).status).toBe(404);
      expect((await guest(tenant.accountId).get(`${r.path}/${paused.id}`)).status).toBe(404);
      expect((await guest().get(`${r.path}/not-a-uuid`)).status).toBe(404);

      // Guests never write.
      expect((await guest(tenant.accountId).post(r.path, { name: 'x', ...r.body })).status).toBe(401);
      expect((await guest(tenant.accountId).patch(`${r.path}/${live.id}`, { name: 'x' })).status).toBe(401);
      expect((await guest(tenant.accountId).delete(`${r.path}/${live.id}`)).status).toBe(401);
    });

    it(`${r.path}: end users read live records but cannot write`, async () => {
      const tenant = await app.createAccount();
      const live = await create(tenant.api, r.path, { name: 'live one', ...r.body });
      const draft = await create(tenant.api, r.path, { name: 'draft one', status: 'draft', ...r.body });
      const minted = await tenant.api.post('/enduser/token', { externalId: 'shopper-1' });
      expect(minted.status).toBe(200);
      const member = app.anon.with({ 'x-enduser-access-token': minted.body.data.accessToken, 'x-account-id': tenant.accountId });

      const list = await member.get(r.path);
      expect(list.status, JSON.stringify(list.body)).toBe(200);
      expect(list.body.data.map((d: { id: string }) => d.id)).toEqual([live.id]);
      for (const key of r.secret) expect(list.body.data[0]).not.toHaveProperty(key);
      expect((await member.get(`${r.path}/${live.id}`)).status).toBe(200);
      expect((await member.get(`${r.path}/${draft.id}`)).status).toBe(404);

      for (const res of [
        await member.post(r.path, { name: 'x', ...r.body }),
        await member.patch(`${r.path}/${live.id}`, { name: 'x' }),
        await member.delete(`${r.path}/${live.id}`),
      ]) {
        expect(res.status, JSON.stringify(res.body)).toBe(403);
        expect(res.body.error.code).toBe('forbidden');
      }
      expect((await tenant.api.get(`${r.path}/${live.id}`)).body.data.name).toBe('live one');

      const bad = await app.anon.with({ 'x-enduser-access-token': 'not.a.token', 'x-account-id': tenant.accountId }).get(r.path);
      expect(bad.status).toBe(401);
    });

    it(`${r.path}: another account's records are 404`, async () => {
      const mine = await create(acct.api, r.path, { name: 'mine', ...r.body });
      expect((await other.api.get(`${r.path}/${mine.id}`)).status).toBe(404);
      expect((await other.api.patch(`${r.path}/${mine.id}`, { name: 'stolen' })).status).toBe(404);
      expect((await other.api.delete(`${r.path}/${mine.id}`)).status).toBe(404);
      const list = await other.api.get(r.path);
      expect(list.body.data.map((d: { id: string }) => d.id)).not.toContain(mine.id);
      expect((await acct.api.get(`${r.path}/${mine.id}`)).body.data.name).toBe('mine');
    });
  }
});
