import { TEST_SHOP } from '@shopify/shopify-api/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../core/test/support/harness';
import { answerOf, adminFetch } from './support/admin-fuzz';
import { adminLoad, customerPayload, drawnPage, orderPayload, type OrderSpec } from './support/orders';
import { type Production, startProduction } from './support/production';
import { proxyRequest, webhookRequest } from './support/stack';
import { until } from './support/until';

/**
 * Customers left out of the program by their tags, through what ships: the Points page's action,
 * Shopify's webhooks signed by its test helpers, the worker's sweep through the Admin API stub, and
 * the members, points and refusals read back from the core's built binary.
 */
let prod: Production;
let api: Client;

const gid = (id: number) => `gid://shopify/Customer/${id}`;

async function deliver(topic: string, payload: Record<string, unknown>, webhookId?: string) {
  const res = await prod.send(await webhookRequest(topic, payload, webhookId));
  expect(res.status).toBe(200);
}

const rowOf = async (subject: string) =>
  (
    await prod.appPool.query<{ status: string; last_error: string | null }>(
      'select status, last_error from shopify_webhooks where shop = $1 and subject = $2',
      [TEST_SHOP, subject],
    )
  ).rows[0];

const worked = (subject: string) =>
  until(`${subject} worked off`, async () => {
    const row = await rowOf(subject);
    return row && row.status !== 'pending' ? row : undefined;
  });

/** orders/paid with the customer's tags on it, as Shopify's payload carries them. */
async function paid(id: number, customer: number, tags: string, spec: Partial<OrderSpec> = {}) {
  const payload = orderPayload(id, { customer: { id: customer }, lines: [{ product: 10, quantity: 1, price: '40.00' }], ...spec });
  Object.assign(payload.customer as Record<string, unknown>, { tags, updated_at: new Date().toISOString() });
  await deliver('orders/paid', payload);
  return worked(`order:${id}`);
}

/** customers/update with the customer's tags, as of `at`; answers the webhook id it was sent with. */
async function updated(id: number, tags: string, at = new Date()) {
  const webhookId = `update-${id}-${at.getTime()}-${Math.random()}`;
  await deliver('customers/update', { ...customerPayload(id), verified_email: false, tags, updated_at: at.toISOString() }, webhookId);
  return webhookId;
}

async function memberOf(customer: number): Promise<{ id: string; status: string; pointsBalance: number } | undefined> {
  const filters = { operator: 'and', conditions: [{ fieldSlug: 'externalId', operator: 'equals', fieldValue: gid(customer) }] };
  return (await api.get('/schema/account_user/record', { filters })).body.data[0];
}

const statusOf = (customer: number, status: string) =>
  until(`customer ${customer} ${status}`, async () => ((await memberOf(customer))?.status === status ? true : undefined));

const savePoints = async (draft: Record<string, unknown>) =>
  (
    await answerOf(
      await adminFetch(prod.url, '/app/points.data?_routes=routes%2Fapp.points', {
        contentType: 'application/json',
        text: JSON.stringify({ intent: 'save', language: 'en', draft }),
      }),
    )
  ).value as { data: { ok: boolean; draft?: Record<string, unknown>; refusal?: { fieldErrors: Record<string, string> } } };

async function memberPage(customer: number): Promise<{ leftOut: string[] | null }> {
  const path = `/app/members/${(await memberOf(customer))!.id}.data?_routes=routes%2Fapp.members.%24id`;
  return ((await answerOf(await adminFetch(prod.url, path))).value as Record<string, any>)['routes/app.members.$id'].data.detail;
}

async function pointsPage(): Promise<Record<string, unknown>> {
  const page = await answerOf(await adminFetch(prod.url, '/app/points.data?_routes=routes%2Fapp.points'));
  return (page.value as Record<string, any>)['routes/app.points'].data.draft;
}

/** What the Points page says under the tags, as it renders, once the sweep after their last change is done. */
async function leftOutSaid(): Promise<string | null> {
  await until('the sweep done', async () => {
    const page = await answerOf(await adminFetch(prod.url, '/app/points.data?_routes=routes%2Fapp.points'));
    return (page.value as Record<string, any>)['routes/app.points'].data.exclusions.sweeping ? undefined : true;
  });
  const html = await (await adminLoad(prod.url, '/app/points')).text();
  return /<span data-left-out="true">([^<]*)<\/span>/.exec(html)?.[1] ?? null;
}

/** The customers the members list shows with `?status=`, as the page's loader answers it. */
async function listed(status: string): Promise<string[]> {
  const path = `/app/members.data?status=${status}&_routes=routes%2Fapp.members._index`;
  const data = ((await answerOf(await adminFetch(prod.url, path))).value as Record<string, any>)['routes/app.members._index'].data;
  expect(data.status).toBe(status);
  return (data.members as { externalId: string }[]).map((member) => member.externalId).sort();
}

let rewardId: string;

beforeAll(async () => {
  prod = await startProduction();
  expect((await adminLoad(prod.url, '/app')).status).toBe(200);
  const account = (await prod.shops.find(TEST_SHOP))!;
  api = new Client(`${prod.core.url}/api/v1.0`, { 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret });
  const settingId = (await api.get('/schema/points_setting/record')).body.data[0].id;
  const on = await api.patch(`/schema/points_setting/record/${settingId}`, {
    status: 'live',
    pointsPerOrder: 10,
    pointsOnSignUp: 50,
    pointsOnReferral: 100,
    pointsOnReferredOrder: 40,
  });
  expect(on.status, JSON.stringify(on.body)).toBe(200);
  const reward = await api.post('/schema/reward/record', {
    name: 'Five off',
    description: 'Five off for 10 points',
    rewardKind: 'code',
    discountType: 'fixed_amount',
    discountValue: 5,
    pointsCost: 10,
    rewardExpiryType: 'no_expiry',
    handleCoupon: true,
    handleCouponAutoGeneration: true,
    status: 'live',
  });
  expect(reward.status, JSON.stringify(reward.body)).toBe(200);
  rewardId = reward.body.data.id;
  for (const id of [901, 902, 904, 905])
    prod.admin.customers.set(gid(id), { firstName: 'Cus', lastName: `${id}`, email: `c${id}@example.com` });
}, 180_000);

afterAll(() => prod?.close());

describe('customers left out by tag', () => {
  it('keeps no customer update while the shop leaves no one out', async () => {
    const webhookId = await updated(990, 'wholesale');
    await new Promise((r) => setTimeout(r, 500));
    expect(await rowOf(`tags:990:${webhookId}`)).toBeUndefined();
  });

  it('the Points page saves the tags, each once whatever its case, and refuses more than 20 with nothing saved', async () => {
    const draft = await pointsPage();
    expect(draft.excludedTags).toBe('');
    const tooMany = await savePoints({ ...draft, excludedTags: Array.from({ length: 21 }, (_, i) => `t${i}`).join(',') });
    expect(tooMany.data.ok).toBe(false);
    expect(tooMany.data.refusal!.fieldErrors.excludedTags).toBe('At most 20 tags.');
    expect((await pointsPage()).excludedTags).toBe('');
    expect(await leftOutSaid()).toBeNull();
  });

  it('sweeps the customers tagged already when the tags are saved: their members are paused, their orders earn nothing, they redeem nothing', async () => {
    // 901 a member with points before; 904 and 905 tagged but never seen by the program; 902 untagged.
    expect((await paid(1, 901, '')).status).toBe('done');
    expect((await memberOf(901))!.pointsBalance).toBe(10);
    prod.admin.tags.set(gid(901), new Set(['WholeSale']));
    prod.admin.tags.set(gid(904), new Set(['wholesale', 'vip']));
    prod.admin.tags.set(gid(905), new Set(['Staff']));
    prod.admin.tags.set(gid(902), new Set(['vip']));
    // Pages of two: the sweep follows Shopify's cursor.
    prod.admin.customersPageSize = 2;
    const saved = await savePoints({ ...(await pointsPage()), excludedTags: ' Wholesale, staff, WHOLESALE ,' });
    expect(saved.data).toMatchObject({ ok: true, draft: { excludedTags: 'Wholesale, staff' } });
    await Promise.all([statusOf(901, 'paused'), statusOf(904, 'paused'), statusOf(905, 'paused')]);
    expect(await memberOf(902)).toBeUndefined();
    expect((await memberOf(901))!.pointsBalance).toBe(10);
    // The Points page says how many the tags leave out.
    expect(await leftOutSaid()).toBe('3 customers are left out now.');
    // Beside it, a link to the members list narrowed to the paused ones: those three.
    const link = /<a [^>]*data-see-paused[^>]*>/.exec(await (await adminLoad(prod.url, '/app/points')).text())?.[0];
    expect(link).toContain('href="/app/members?status=paused"');
    expect(await listed('paused')).toEqual([gid(901), gid(904), gid(905)].sort());
    expect(await listed('live')).not.toContain(gid(901));
    // The member page says which of the shop's tags leaves them out, as the merchant typed it.
    expect((await memberPage(901)).leftOut).toEqual(['Wholesale']);
    const page = await drawnPage(await adminLoad(prod.url, `/app/members/${(await memberOf(901))!.id}`));
    expect(page).toContain('Left out of the program');
    expect(page).not.toContain('paused outside this app');

    const skipped = await paid(2, 901, 'WholeSale');
    expect(skipped).toMatchObject({ status: 'done', last_error: 'customer excluded by tag' });
    expect((await memberOf(901))!.pointsBalance).toBe(10);
    expect((await paid(3, 902, 'vip')).last_error).toBeNull();
    expect((await memberOf(902))!).toMatchObject({ status: 'live', pointsBalance: 10 });
    expect((await memberPage(902)).leftOut).toBeNull();

    // The storefront's token still opens their record, but nothing is redeemed with it.
    const proxied = await prod.send(
      await proxyRequest('/apps/loyalty/token', { logged_in_customer_id: '901', path_prefix: '/apps/loyalty' }),
    );
    const { accessToken } = (await proxied.json()) as { accessToken: string };
    const account = (await prod.shops.find(TEST_SHOP))!;
    const shopper = new Client(`${prod.core.url}/api/v1.0`, { 'x-enduser-access-token': accessToken, 'x-account-id': account.accountId });
    // The storefront reads that they are paused (and reminds them of nothing: nudgeText).
    expect((await shopper.get('/schema/account_user/me')).body.data.status).toBe('paused');
    const redeemed = await shopper.post(`/schema/reward/record/${rewardId}/action/redeem`, {});
    expect(redeemed.status).toBe(409);
    expect(redeemed.body.error).toMatchObject({ code: 'not_redeemable', details: [expect.objectContaining({ field: 'ownedById' })] });
    expect((await memberOf(901))!.pointsBalance).toBe(10);
  });

  it('a new customer with an excluded tag gets no sign-up points and a paused member', async () => {
    await deliver('customers/create', { ...customerPayload(903), tags: 'staff, newsletter', updated_at: new Date().toISOString() });
    expect(await worked('customer:903')).toMatchObject({ status: 'done', last_error: 'customer excluded by tag' });
    expect(await memberOf(903)).toMatchObject({ status: 'paused', pointsBalance: 0 });
  });

  it('the tag taken off a customer brings them back, and an older update worked off later changes nothing', async () => {
    const before = new Date(Date.now() - 60_000);
    prod.admin.tags.set(gid(901), new Set(['vip']));
    const webhookId = await updated(901, 'vip');
    expect(await worked(`tags:901:${webhookId}`)).toMatchObject({ status: 'done', last_error: null });
    await statusOf(901, 'live');
    const older = await updated(901, 'wholesale', before);
    await worked(`tags:901:${older}`);
    expect((await memberOf(901))!.status).toBe('live');
    expect((await paid(4, 901, 'vip')).last_error).toBeNull();
    expect((await memberOf(901))!.pointsBalance).toBe(20);
    // Tagged again: paused again.
    prod.admin.tags.set(gid(901), new Set(['vip', 'wholesale']));
    await worked(`tags:901:${await updated(901, 'vip, wholesale')}`);
    await statusOf(901, 'paused');
  });

  it('a tag taken off the list brings back its customers at the next sweep', async () => {
    prod.admin.tags.set(gid(903), new Set(['staff']));
    prod.admin.customers.set(gid(903), { firstName: 'Grace', lastName: 'Hopper', email: 'c903@example.com' });
    const saved = await savePoints({ ...(await pointsPage()), excludedTags: 'wholesale' });
    expect(saved.data.ok).toBe(true);
    await Promise.all([statusOf(903, 'live'), statusOf(905, 'live')]);
    expect((await memberOf(901))!.status).toBe('paused');
    expect((await memberOf(904))!.status).toBe('paused');
    const swept = await prod.appPool.query(
      'select s.swept_at >= e.changed_at done from shop_exclusions e join exclusion_sweeps s using (shop)',
    );
    expect(swept.rows[0].done).toBe(true);
    expect(await leftOutSaid()).toBe('2 customers are left out now.');
    // Swept once: the worker's polls find nothing more to do.
    const searches = () => prod.admin.requests.filter((r) => r.operation === 'LoyaltyTaggedCustomers').length;
    const after = searches();
    await new Promise((r) => setTimeout(r, 2500));
    expect(searches()).toBe(after);
  });

  it('a referrer left out earns nothing when a friend orders through their link; the friend earns theirs', async () => {
    const referrer = (await api.get(`/schema/account_user/record/${(await memberOf(904))!.id}`)).body.data;
    expect(referrer.status).toBe('paused');
    const friend = { customer: { id: 907, created_at: new Date().toISOString() }, attributes: { _loyalty_ref: referrer.referralCode } };
    expect((await paid(6, 907, '', friend)).last_error).toBeNull();
    expect((await memberOf(907))!.pointsBalance).toBe(50);
    expect((await memberOf(904))!.pointsBalance).toBe(0);
  });

  it('an empty list brings everyone back', async () => {
    expect((await savePoints({ ...(await pointsPage()), excludedTags: '' })).data.ok).toBe(true);
    await Promise.all([statusOf(901, 'live'), statusOf(904, 'live')]);
    expect((await paid(5, 904, 'wholesale')).last_error).toBeNull();
    expect((await memberOf(904))!.pointsBalance).toBe(10);
    // No tags and no one left out: nothing to say, and no one paused to list.
    expect(await leftOutSaid()).toBeNull();
    expect(await listed('paused')).toEqual([]);
    const html = await (await adminLoad(prod.url, '/app/members?status=paused')).text();
    expect(html).toContain('No member is paused');
  });
});
