import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../core/test/support/harness';
import { type AdminApp, startAdminApp } from './support/admin';
import { orderPayload } from './support/orders';
import { creatorFor } from './support/programs';
import { webhookRequest, TEST_SHOP } from './support/stack';

/**
 * The dashboard's "What the program earns" in Chromium (production build, real core), in English
 * and German: first with no orders (a holdout with "not enough orders yet"), then with enough paid
 * orders for the holdout's sentence with its interval; screenshots of each.
 */
let admin: AdminApp;
let api: Client;
let spend: { id: string };
const created = creatorFor(() => api);

const heldOut = (definitionId: string, customer: number) =>
  createHash('sha256').update(`${definitionId}:gid://shopify/Customer/${customer}`, 'utf8').digest().readUInt32BE(0) / 2 ** 32 < 0.2;

beforeAll(async () => {
  admin = await startAdminApp(async (installed) => {
    const account = (await installed.app.shops.find(TEST_SHOP))!;
    api = installed.core.anon.with({ 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret });
    spend = await created('/schema/challenge/record', {
      name: 'Monthly spend',
      status: 'live',
      aggregationPeriod: 'monthly',
      aggregationMethod: 'sum',
      completionTargetValue: 500,
      holdoutPercent: 20,
    });
  });
}, 180_000);

afterAll(() => admin?.close());

const page = () => admin.browser.page;
const section = (name: string) => page().getByRole('region', { name });

describe('What the program earns', () => {
  it('without orders: zero figures and "not enough orders yet", in English and German', async () => {
    await admin.browser.open('/app');
    const earns = section('What the program earns');
    await earns.waitFor();
    await earns
      .getByText(/Not enough orders yet: each group needs at least 30 ordering customers \(0 in the program, 0 held out so far\)/)
      .waitFor();
    await earns.getByText('Redemption rate').waitFor();
    // Before the first order, money is already in the shop's currency (Shopify's, read by the admin).
    await earns.getByText('€0.00').first().waitFor();
    await earns.scrollIntoViewIfNeeded();
    await admin.browser.shot('earnings-empty');
    await admin.browser.open('/app?locale=de');
    const de = section('Was das Programm einbringt');
    await de.waitFor();
    await de.getByText(/Noch nicht genug Bestellungen/).waitFor();
    // German money and percentages: "1.234,50 €", "12 %" (a no-break space before the sign).
    await de
      .getByText(/^0,00\s€$/)
      .first()
      .waitFor();
    await admin.browser.shot('earnings-empty-de');
  });

  it('with enough orders: the lift as a sentence with its interval, money and percentages in the admin’s language', async () => {
    const deliver = async (payload: Record<string, unknown>) => {
      const request = await webhookRequest('orders/paid', payload);
      const res = await fetch(`${admin.server.url}/webhooks/orders/paid`, {
        method: 'POST',
        headers: request.headers,
        body: await request.text(),
      });
      expect(res.status).toBe(200);
    };
    // 250 customers (about 50 held out); those in the program spend half as much again, so the
    // interval lies above 0.
    const payloads = [];
    for (let i = 0; i < 250; i++) {
      const customer = 60_000 + i;
      const amount = (30 + (i % 7) * 10) * (heldOut(spend.id, customer) ? 1 : 1.5);
      payloads.push(
        orderPayload(80_000 + i, {
          customer: { id: customer },
          lines: [{ product: 1, quantity: 1, price: '10.00' }],
          total: amount.toFixed(2),
        }),
      );
    }
    for (let i = 0; i < payloads.length; i += 20) await Promise.all(payloads.slice(i, i + 20).map(deliver));
    await admin.browser.open('/app');
    const earns = section('What the program earns');
    await earns.waitFor();
    await earns
      .getByText(/^Members in the program spent \d+% more per customer \(between \d+% and \d+%\) than the 20% held out\.$/)
      .waitFor();
    await earns.getByText(/ordering customers in the program spent €[\d.,]+ each/).waitFor();
    await admin.browser.shot('earnings');
    await admin.browser.open('/app?locale=de');
    const de = section('Was das Programm einbringt');
    await de.waitFor();
    await de
      .getByText(
        /^Mitglieder im Programm haben pro Kunde \d+\s% mehr ausgegeben \(zwischen \d+\s% und \d+\s%\) als die 20\s%, die ausgenommen sind\.$/,
      )
      .waitFor();
    await de
      .getByText(/je [\d.,]+\s€/)
      .first()
      .waitFor();
    await admin.browser.shot('earnings-de');
    // Hundreds of webhooks through the production build, sharing two cores with the rest of CI.
  }, 120_000);
});
