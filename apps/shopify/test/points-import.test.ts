import { TEST_SHOP } from '@shopify/shopify-api/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../core/test/support/harness';
import { adminFetch, answerOf } from './support/admin-fuzz';
import { adminLoad } from './support/orders';
import { type Production, startProduction } from './support/production';
import { webhookRequest } from './support/stack';
import { until } from './support/until';

/**
 * Balances brought from another loyalty app, through the production build (web and worker under
 * `start`, the real core, the Admin API stub answering customers by id and by e-mail): the file
 * checked whole, each customer given their balance once as an `adjusted` entry, the same file
 * imported once, and an app killed mid-import giving no row twice.
 */
let prod: Production;
let api: Client;
const gid = (n: number) => `gid://shopify/Customer/${n}`;

beforeAll(async () => {
  // The gate holds a request to the core, so the app can die after the core has it and before the app has its answer.
  prod = await startProduction({ gateCore: true });
  prod.admin.customers.set(gid(8101), { firstName: 'Ada', lastName: 'Byron', email: 'ada@example.com' });
  prod.admin.customers.set(gid(8102), { firstName: 'Bo', lastName: 'Li', email: 'bo@example.com' });
  prod.admin.customers.set(gid(8103), { firstName: 'Cy', lastName: 'Ng', email: 'cy@example.com' });
  expect((await adminLoad(prod.url, '/app')).status).toBe(200);
  const account = (await prod.shops.find(TEST_SHOP))!;
  api = new Client(`${prod.core.url}/api/v1.0`, { 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret });
}, 120_000);

afterAll(() => prod?.close());

const upload = async (csv: string, name = 'balances.csv') => {
  const res = await adminFetch(prod.url, `/app/points-import?language=en&name=${encodeURIComponent(name)}`, {
    contentType: 'text/csv',
    text: csv,
  });
  return { status: res.status, body: (await answerOf(res)).value as Record<string, unknown> };
};

const importCount = async () => Number((await prod.appPool.query('select count(*) n from points_imports')).rows[0].n);

/** The import's rows once the worker has worked every one off. */
const finished = (id: unknown) =>
  until(
    `import ${String(id)} worked off`,
    async () => {
      const { rows } = await prod.appPool.query<{ line: number; status: string; last_error: string | null }>(
        'select line, status, last_error from points_import_rows where import_id = $1 order by line',
        [id],
      );
      return rows.every((r) => r.status !== 'pending') && rows;
    },
    60_000,
  );

async function memberOf(customer: number) {
  const res = await api.get('/schema/account_user/record', {
    filters: { operator: 'and', conditions: [{ fieldSlug: 'externalId', operator: 'equals', fieldValue: gid(customer) }] },
  });
  return res.body.data[0] as { id: string; pointsBalance: number; pointsEarnedInTierWindow: number; firstName: string } | undefined;
}

async function entriesOf(memberId: string) {
  const res = await api.get('/schema/point_entry/record', {
    filters: { operator: 'and', conditions: [{ fieldSlug: 'ownedById', operator: 'equals', fieldValue: memberId }] },
  });
  return res.body.data as { points: number; reason: string; note: string | null }[];
}

describe('importing balances from another loyalty app', () => {
  it('checks the file whole: a refused file imports nothing and names each line’s problem', async () => {
    const refused = await upload(
      ['Email,Points', 'ada@example.com,12.5', ',40', 'not-an-address,10', 'bo@example.com,2000000', 'ADA@example.com,5'].join('\n'),
    );
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      error: 'Nothing was imported: the file needs changes.',
      details: [
        'Line 2: “12.5” is not a whole number of points from 0 to 1,000,000.',
        'Line 3: no e-mail and no customer id.',
        'Line 4: “not-an-address” is not an e-mail address.',
        'Line 5: “2000000” is not a whole number of points from 0 to 1,000,000.',
        'Line 6: the same customer as line 2.',
      ],
    });
    const headless = await upload('ada@example.com,10\n');
    expect(headless).toEqual({
      status: 400,
      body: {
        error: 'Nothing was imported: the file needs changes.',
        details: ['The header row names no points column (“points” or “balance”).'],
      },
    });
    expect((await upload('Email;Points\n')).body.details).toEqual([
      'The file has no balances: a header row and at least one customer with points.',
    ]);
    expect(await importCount()).toBe(0);
  });

  it('gives each customer their balance once, by e-mail in any case or by customer id, as an adjusted entry with its note; a customer the shop does not have is listed', async () => {
    // A member already, with points of their own.
    const cy = (await api.post('/schema/account_user/record', { externalId: gid(8103), firstName: 'Cy' })).body.data;
    expect((await api.post('/schema/point_entry/record', { ownedById: cy.id, points: 50, reason: 'adjusted' })).status).toBe(200);
    // Semicolons and a decimal comma's thousands, as a European spreadsheet saves them.
    const csv = [
      'Customer ID;E-mail;Points balance;Note',
      ';ADA@Example.com;1.200;',
      '8103;;300;Welcome over from SmileRewards',
      ';nobody@example.com;75;',
      ';bo@example.com;0;',
    ].join('\r\n');
    const queued = await upload(csv, 'smile-export.csv');
    expect(queued).toEqual({ status: 200, body: { queued: true, id: expect.any(String), rows: 3, zero: 1 } });
    expect(await finished(queued.body.id)).toEqual([
      { line: 2, status: 'done', last_error: null },
      { line: 3, status: 'done', last_error: null },
      { line: 4, status: 'failed', last_error: 'not_found' },
    ]);
    const ada = (await memberOf(8101))!;
    expect(ada).toMatchObject({ firstName: 'Ada', pointsBalance: 1200, pointsEarnedInTierWindow: 0 });
    expect(await entriesOf(ada.id)).toEqual([
      expect.objectContaining({ points: 1200, reason: 'adjusted', note: 'Balance brought from our previous rewards program' }),
    ]);
    expect((await memberOf(8103))!.pointsBalance).toBe(350);
    expect((await entriesOf(cy.id)).map((e) => [e.points, e.note])).toEqual(
      expect.arrayContaining([[300, 'Welcome over from SmileRewards']]),
    );
    // Bo's row had nothing to bring: no member made for it.
    expect(await memberOf(8102)).toBeUndefined();
    // What the points page shows of it.
    const page = await answerOf(await adminFetch(prod.url, '/app/points.data'));
    expect(JSON.stringify(page.value)).toContain('smile-export.csv');
    expect(page.text).toContain('nobody@example.com');

    // The same file again: nothing imported twice.
    expect(await upload(csv, 'again.csv')).toEqual({
      status: 200,
      body: { queued: false, id: queued.body.id, createdAt: expect.any(String), zero: 1 },
    });
    expect((await memberOf(8101))!.pointsBalance).toBe(1200);
    expect(await importCount()).toBe(1);
  });

  it('a corrected file uploaded again gives the customers not given yet, and no one a second balance', async () => {
    const corrected = await upload(['Email,Points', 'ada@example.com,1200', 'bo@example.com,80'].join('\n'), 'smile-export-fixed.csv');
    expect(corrected.body).toMatchObject({ queued: true, rows: 2 });
    expect(await finished(corrected.body.id)).toEqual([
      { line: 2, status: 'failed', last_error: 'already_imported' },
      { line: 3, status: 'done', last_error: null },
    ]);
    expect((await memberOf(8101))!.pointsBalance).toBe(1200);
    expect((await memberOf(8102))!.pointsBalance).toBe(80);
  });

  it('works an import’s rows several at once, each customer given theirs once', async () => {
    const customers = Array.from({ length: 12 }, (_, i) => 8400 + i);
    for (const n of customers) prod.admin.customers.set(gid(n), { firstName: `D${n}`, lastName: null, email: `d${n}@example.com` });
    // Four entries held at the core at the same time: four rows in flight, one per lane.
    const held = Array.from({ length: 4 }, () =>
      prod.coreGate!.hold((method, path) => method === 'POST' && path.endsWith('/schema/point_entry/record')),
    );
    const queued = await upload(['customer_id,points', ...customers.map((n) => `${n},${n - 8390}`)].join('\n'), 'lanes.csv');
    expect(queued.body.rows).toBe(12);
    await Promise.all(held.map((h) => h.arrived));
    for (const h of held) h.release();
    const rows = await finished(queued.body.id);
    expect(rows.filter((r) => r.status === 'done')).toHaveLength(12);
    for (const n of customers) expect((await memberOf(n))!.pointsBalance, `customer ${n}`).toBe(n - 8390);
  });

  it('a row Shopify throttles, or the core limits, waits and goes on: throttling spends none of its attempts', async () => {
    prod.admin.customers.set(gid(8450), { firstName: 'Thr', lastName: null, email: 't8450@example.com' });
    prod.admin.customers.set(gid(8451), { firstName: 'Lim', lastName: null, email: 't8451@example.com' });
    // More throttled answers than the retry schedule has attempts (three here).
    prod.admin.scripted.set(
      'LoyaltyCustomer',
      Array.from({ length: 5 }, () => ({ throttled: true })),
    );
    const queued = await upload(['customer_id,points', '8450,45'].join('\n'), 'throttled.csv');
    try {
      expect(await finished(queued.body.id)).toEqual([{ line: 2, status: 'done', last_error: null }]);
      // Every throttled answer was given, and the row went on after each.
      expect(prod.admin.scripted.get('LoyaltyCustomer')).toEqual([]);
    } finally {
      prod.admin.scripted.delete('LoyaltyCustomer');
    }
    expect((await memberOf(8450))!.pointsBalance).toBe(45);
    const { rows } = await prod.appPool.query('select attempts from points_import_rows where import_id = $1', [queued.body.id]);
    expect(rows).toEqual([{ attempts: 1 }]);

    // The core's per-key limit: 429 four times, then its answer.
    let limited = 0;
    const refusal = prod.coreGate!.refuse(
      (method, path) => method === 'POST' && path.endsWith('/schema/point_entry/record') && ++limited <= 4,
      { status: 429, code: 'rate_limited', message: 'Too many requests.' },
    );
    try {
      const second = await upload(['customer_id,points', '8451,46'].join('\n'), 'limited.csv');
      expect(await finished(second.body.id)).toEqual([{ line: 2, status: 'done', last_error: null }]);
    } finally {
      refusal.restore();
    }
    expect(limited).toBeGreaterThan(4);
    expect((await memberOf(8451))!.pointsBalance).toBe(46);
  });

  it('an app killed between the core writing a row’s entry and the row being marked gives that row once, and every other row once', async () => {
    const customers = Array.from({ length: 60 }, (_, i) => 8200 + i);
    for (const n of customers) prod.admin.customers.set(gid(n), { firstName: `C${n}`, lastName: null, email: `c${n}@example.com` });
    const adjusted = async () =>
      (
        await api.get('/schema/point_entry/record', {
          filters: { operator: 'and', conditions: [{ fieldSlug: 'reason', operator: 'equals', fieldValue: 'adjusted' }] },
          limit: 1,
          fetchTotalCount: true,
        })
      ).body.paging.total as number;
    const before = await adjusted();
    const held = prod.coreGate!.hold((method, path) => method === 'POST' && path.endsWith('/schema/point_entry/record'));
    const queued = await upload(['customer_id,points', ...customers.map((n) => `${n},${n - 8000}`)].join('\n'));
    expect(queued.body.rows).toBe(60);
    await held.arrived;
    await prod.crashAndRestart(async () => {
      // The core writes the held entry while the app that asked is gone (other lanes' rows may have gone through beside it).
      held.release();
      expect(await held.answered).toBe(200);
    });
    const rows = await finished(queued.body.id);
    expect(rows.filter((r) => r.status === 'done')).toHaveLength(60);
    expect(await adjusted()).toBe(before + 60);
    for (const n of customers) {
      const member = (await memberOf(n))!;
      expect(member.pointsBalance, `customer ${n}`).toBe(n - 8000);
    }
  }, 120_000);

  it('customers/data_request exports a customer’s import rows; customers/redact erases them, by id once given and by e-mail while waiting', async () => {
    // A row still waiting for its customer (its next attempt an hour away), named by e-mail only.
    const { rows: made } = await prod.appPool.query<{ id: string }>(
      "insert into points_imports (shop, file_hash, file_name, note) values ($1, 'h', 'later.csv', 'n') returning id",
      [TEST_SHOP],
    );
    await prod.appPool.query(
      `insert into points_import_rows (import_id, line, shop, email, points, next_attempt_at) values ($1, 2, $2, 'dee@example.com', 9, now() + interval '1 hour')`,
      [made[0]!.id, TEST_SHOP],
    );
    const rowsOf = async (where: string, value: string) =>
      (await prod.appPool.query(`select line from points_import_rows where shop = $1 and ${where} = $2`, [TEST_SHOP, value])).rows;
    expect(await rowsOf('customer_id', '8103')).toHaveLength(1);

    const requested = await prod.send(
      await webhookRequest('customers/data_request', {
        shop_domain: TEST_SHOP,
        customer: { id: 8103, email: 'cy@example.com' },
        orders_requested: [],
        data_request: { id: 9901 },
      }),
    );
    expect(requested.status).toBe(200);
    const { rows: exported } = await prod.appPool.query<{ export: { app: Record<string, unknown[]> } }>(
      "select export from data_requests where shop = $1 and request_id = '9901'",
      [TEST_SHOP],
    );
    expect(exported[0]!.export.app.points_import_rows).toEqual([
      expect.objectContaining({ customer_id: '8103', points: 300, status: 'done' }),
    ]);

    for (const customer of [
      { id: 8103, email: 'cy@example.com' },
      { id: 8104, email: 'Dee@Example.com' },
    ]) {
      const res = await prod.send(await webhookRequest('customers/redact', { shop_domain: TEST_SHOP, customer, orders_to_redact: [] }));
      expect(res.status).toBe(200);
    }
    expect(await rowsOf('customer_id', '8103')).toEqual([]);
    expect(await rowsOf('email', 'dee@example.com')).toEqual([]);
    // Another customer's rows stay.
    expect(await rowsOf('customer_id', '8101')).toHaveLength(1);
  });

  it('a tier column places each customer in the shop’s tier of that name, as earned today, their balance what the file says', async () => {
    const tiered = [8301, 8302, 8303, 8304];
    for (const n of tiered) prod.admin.customers.set(gid(n), { firstName: `T${n}`, lastName: null, email: `t${n}@example.com` });
    const csv = [
      'email,points,VIP Tier',
      't8301@example.com,300,Gold',
      't8302@example.com,2000,silver',
      't8303@example.com,40,',
      't8304@example.com,0,GOLD',
    ];
    const setting = (await api.get('/schema/points_setting/record')).body.data[0];
    for (const [name, pointsThreshold, earnMultiplier] of [
      ['Silver', 500, 1.5],
      ['Gold', 1000, 2],
    ] as const)
      expect((await api.post('/schema/tier/record', { name, status: 'live', pointsThreshold, earnMultiplier })).status).toBe(200);
    // A tier the shop has not made is named; a placement earns, so points must be on.
    expect((await upload(csv.join('\n').replace('silver', 'Platinum'))).body.details).toEqual([
      'Line 3: you have no tier named “Platinum”. Create it on the VIP tiers page, or change the name in the file.',
    ]);
    const refused = await upload(csv.join('\n'));
    expect(refused).toEqual({
      status: 409,
      body: {
        error: 'Nothing was imported: the file needs changes.',
        details: ['The file gives tiers, which need points to be on: turn points on above first, or leave the tier column out.'],
      },
    });
    expect((await api.patch(`/schema/points_setting/record/${setting.id}`, { status: 'live' })).status).toBe(200);
    // A member already in Silver, whose window lacks 400 of Gold: 267 earned at ×1.5 is 400.
    const t8304 = (await api.post('/schema/account_user/record', { externalId: gid(8304), firstName: 'T8304' })).body.data;
    expect((await api.post('/schema/point_entry/record', { ownedById: t8304.id, points: 600, reason: 'earned' })).status).toBe(200);
    const importsBefore = await importCount();

    const queued = await upload(csv.join('\n'), 'smile-vip.csv');
    expect(queued.body).toMatchObject({ queued: true, rows: 4 });
    expect((await finished(queued.body.id)).every((r) => r.status === 'done')).toBe(true);
    expect(await importCount()).toBe(importsBefore + 1);
    const tiers = (await api.get('/schema/tier/record')).body.data as { id: string; name: string }[];
    const tierId = (name: string) => tiers.find((t) => t.name === name)!.id;
    const placed = async (n: number) => {
      const member = (await memberOf(n))! as Awaited<ReturnType<typeof memberOf>> & { tierId: string | null };
      const entries = (await entriesOf(member.id)).map((e) => [e.reason, e.points, e.note]).sort();
      return { balance: member.pointsBalance, window: member.pointsEarnedInTierWindow, tierId: member.tierId, entries };
    };
    const tierNote = 'VIP tier brought from our previous rewards program';
    const note = 'Balance brought from our previous rewards program';
    expect(await placed(8301)).toEqual({
      balance: 300,
      window: 1000,
      tierId: tierId('Gold'),
      entries: [
        ['adjusted', -700, note],
        ['earned', 1000, tierNote],
      ],
    });
    expect(await placed(8302)).toEqual({
      balance: 2000,
      window: 500,
      tierId: tierId('Silver'),
      entries: [
        ['adjusted', 1500, note],
        ['earned', 500, tierNote],
      ],
    });
    expect(await placed(8303)).toEqual({ balance: 40, window: 0, tierId: null, entries: [['adjusted', 40, note]] });
    expect(await placed(8304)).toEqual({
      balance: 600,
      window: 1000,
      tierId: tierId('Gold'),
      entries: [
        ['adjusted', -400, note],
        ['earned', 400, tierNote],
        ['earned', 600, null],
      ],
    });
    // The import's line on the Points page counts the customers it placed in tiers.
    const progress = await answerOf(await adminFetch(prod.url, '/app/points-import.data?_routes=routes%2Fapp.points-import'));
    const { imports } = (progress.value as Record<string, any>)['routes/app.points-import'].data;
    expect(imports.find((i: { fileName: string }) => i.fileName === 'smile-vip.csv')).toMatchObject({
      done: 4,
      given: 4,
      points: 2340,
      tiered: 3,
    });

    // The app killed after the core wrote a placement and before the row was marked: the row's retry finds the placement, and the balance is still the file's.
    prod.admin.customers.set(gid(8305), { firstName: 'T8305', lastName: null, email: 't8305@example.com' });
    const held = prod.coreGate!.hold((method, path) => method === 'POST' && path.endsWith('/schema/point_entry/record'));
    const again = await upload('email,points,tier\nt8305@example.com,100,Gold\n', 'smile-vip-late.csv');
    await held.arrived;
    await prod.crashAndRestart(async () => {
      held.release();
      await until('the held placement written', async () => ((await memberOf(8305))?.pointsEarnedInTierWindow ?? 0) > 0);
    });
    expect(await finished(again.body.id)).toEqual([{ line: 2, status: 'done', last_error: null }]);
    expect(await placed(8305)).toEqual({
      balance: 100,
      window: 1000,
      tierId: tierId('Gold'),
      entries: [
        ['adjusted', -900, note],
        ['earned', 1000, tierNote],
      ],
    });

    // A file of tiers after one of balances: a customer given their balance already is placed in their tier, the balance left as it was.
    const later = await upload('email,points,tier\nada@example.com,1200,Gold\nbo@example.com,80,\n', 'smile-tiers-later.csv');
    expect(await finished(later.body.id)).toEqual([
      { line: 2, status: 'done', last_error: null },
      { line: 3, status: 'failed', last_error: 'already_imported' },
    ]);
    expect(await placed(8101)).toEqual({
      balance: 1200,
      window: 1000,
      tierId: tierId('Gold'),
      entries: [
        ['adjusted', -1000, tierNote],
        ['adjusted', 1200, note],
        ['earned', 1000, tierNote],
      ],
    });
    const lines = await answerOf(await adminFetch(prod.url, '/app/points-import.data?_routes=routes%2Fapp.points-import'));
    const shown = (lines.value as Record<string, any>)['routes/app.points-import'].data.imports;
    expect(shown.find((i: { fileName: string }) => i.fileName === 'smile-tiers-later.csv')).toMatchObject({
      done: 1,
      given: 0,
      points: 0,
      tiered: 1,
    });
  });

  it('a tier deleted before its row’s turn ends the row as tier_gone, giving nothing', async () => {
    prod.admin.customers.set(gid(8306), { firstName: 'T8306', lastName: null, email: 't8306@example.com' });
    const bronze = (await api.post('/schema/tier/record', { name: 'Bronze', status: 'live', pointsThreshold: 100, earnMultiplier: 1 })).body
      .data;
    // The worker's read of the tier waits while the merchant deletes it.
    const held = prod.coreGate!.hold((method, path) => method === 'GET' && path.includes(`/schema/tier/record/${bronze.id}`));
    const queued = await upload('email,points,tier\nt8306@example.com,5,Bronze\n', 'bronze.csv');
    await held.arrived;
    expect((await api.delete(`/schema/tier/record/${bronze.id}`)).status).toBe(204);
    held.release();
    expect(await finished(queued.body.id)).toEqual([{ line: 2, status: 'failed', last_error: 'tier_gone' }]);
    expect((await memberOf(8306))?.pointsBalance ?? 0).toBe(0);
  });

  it('a birthday column gives each customer who has none their birthday, even one given their balance before; one set since stays', async () => {
    const bo = (await memberOf(8102))!;
    expect((await api.patch(`/schema/account_user/record/${bo.id}`, { birthday: '01-01' })).status).toBe(200);
    const before = (await memberOf(8101))!.pointsBalance;
    const queued = await upload(
      ['email,points,Date of birth', 'ada@example.com,5,1990-03-14', 'bo@example.com,0,1988-12-24', 'cy@example.com,0,07-04'].join('\n'),
      'birthdays.csv',
    );
    expect(queued.body).toMatchObject({ queued: true, rows: 3 });
    expect((await finished(queued.body.id)).map((r) => r.status)).toEqual(['done', 'done', 'done']);
    const birthdayOf = async (customer: number) =>
      (await api.get(`/schema/account_user/record/${(await memberOf(customer))!.id}`)).body.data.birthday;
    expect([await birthdayOf(8101), await birthdayOf(8102), await birthdayOf(8103)]).toEqual(['03-14', '01-01', '07-04']);
    // Ada's balance came with an earlier file: this one gives her birthday, not its points.
    expect((await memberOf(8101))!.pointsBalance).toBe(before);
    const page = await answerOf(await adminFetch(prod.url, '/app/points.data?_routes=routes%2Fapp.points'));
    const imports = (page.value as Record<string, any>)['routes/app.points'].data.imports as { fileName: string; birthdays: number }[];
    expect(imports.find((i) => i.fileName === 'birthdays.csv')).toMatchObject({ birthdays: 2 });
  });

  it('counts the points of a large import given whole, past an integer’s range', async () => {
    const { rows: made } = await prod.appPool.query<{ id: string }>(
      "insert into points_imports (shop, file_hash, file_name, note) values ($1, 'big', 'big.csv', 'n') returning id",
      [TEST_SHOP],
    );
    await prod.appPool.query(
      `insert into points_import_rows (import_id, line, shop, customer_id, points, status)
       select $1, n, $2, (900000 + n)::text, 1000000, 'done' from generate_series(2, 2201) n`,
      [made[0]!.id, TEST_SHOP],
    );
    const res = await adminFetch(prod.url, '/app/points-import.data');
    expect(res.status).toBe(200);
    expect(JSON.stringify((await answerOf(res)).value)).toContain('2200000000');
    await prod.appPool.query('delete from points_imports where id = $1', [made[0]!.id]);
  });
});
