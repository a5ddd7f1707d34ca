import { BASE64_HOST, getJwt, TEST_SHOP, TEST_SHOP_NAME } from '@shopify/shopify-api/test-helpers';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../core/test/support/harness';
import { APP_BRIDGE_UI, editorUi } from './support/app-bridge-ui';
import { type AdminBrowser, openAdmin, USER_AGENT } from './support/browser';
import { type Production, startProduction } from './support/production';
import { creatorFor, streakRewardingFirstDay } from './support/programs';
import { flowLifecycleRequest, SHOPIFY } from './support/stack';
import { STUB_SHOP } from './support/admin-stub';
import { until } from './support/until';

/**
 * The rewards editor in Chromium against what ships (the app's production build with its worker,
 * the core's built binary delivering its webhooks, the Admin API stub): each kind of reward made on
 * the page, and the Admin API mutation each sends when a member earns it (checked by the stub
 * against Shopify's documented input types); the core's refusals on their fields in English and
 * German; the failed issues named by customer with a Retry; a delete after its confirmation.
 */
let prod: Production;
let browser: AdminBrowser;
let api: Client;
const created = creatorFor(() => api);
let earned = 0;

const page = () => browser.page;
const { saveBar, toasts } = editorUi(page);

/** The error text Polaris ties to a field (its aria-describedby), or '' when it has none. */
async function fieldError(label: string | RegExp): Promise<string> {
  const field = page()
    .getByLabel(label, { exact: typeof label === 'string' })
    .first();
  return field.evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .filter((id) => id.endsWith('Error'))
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );
}

/** Saves the page with the save bar; a new reward moves to its own address. Returns the reward's id. */
async function save(): Promise<string> {
  await saveBar()
    .getByRole('button', { name: /Save|Speichern/ })
    .click();
  await page().waitForURL(/\/app\/rewards\/[0-9a-f-]{36}/);
  await page().locator('ui-save-bar:not([data-showing])').waitFor({ state: 'attached' });
  return /\/app\/rewards\/([0-9a-f-]{36})/.exec(page().url())![1]!;
}

/** A member (a Shopify customer) reaches a milestone that rewards `rewardId`; answers the reward log's id. */
async function earn(rewardId: string, customer: string): Promise<string> {
  earned += 1;
  const streak = await streakRewardingFirstDay(created, { id: rewardId }, { name: `Earns ${earned}` });
  const log = await created('/schema/streak_log/record', {
    streakId: streak.id,
    ownedBy: { externalId: customer },
    activityId: 'visit',
    activityAt: DateTime.now().toUTC().toISO(),
    uniqueIdentifier: `r${earned}`,
  });
  return log.achievedMilestoneRewardLog.id as string;
}

const rewardLog = async (id: string) => (await api.get(`/schema/reward_log/record/${id}`)).body.data as Record<string, any>;
const sent = (operation: string) => prod.admin.requests.filter((r) => r.operation === operation);

async function newReward(name: string) {
  await browser.open('/app/rewards/new');
  await page().getByLabel('Name', { exact: true }).fill(name);
}

beforeAll(async () => {
  prod = await startProduction();
  prod.admin.collections = [
    { id: 'gid://shopify/Collection/78', title: 'Hats' },
    { id: 'gid://shopify/Collection/77', title: 'Shoes' },
  ];
  browser = await openAdmin(prod.url);
  await page().addInitScript(APP_BRIDGE_UI);
  // Shopify's admin opening the app installs the shop (token exchange) and registers the core webhook.
  const { token } = await getJwt(TEST_SHOP_NAME, SHOPIFY.apiKey, SHOPIFY.apiSecretKey);
  const url = new URL('/app', prod.url);
  for (const [k, v] of Object.entries({
    embedded: '1',
    shop: TEST_SHOP,
    host: BASE64_HOST,
    id_token: token,
  }))
    url.searchParams.set(k, v);
  expect((await fetch(url, { headers: { 'user-agent': USER_AGENT } })).status).toBe(200);
  const account = (await prod.shops.find(TEST_SHOP))!;
  api = new Client(`${prod.core.url}/api/v1.0`, { 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await prod?.close();
});

describe('the rewards editor creates each kind, and each sends its mutation when earned', () => {
  it('percentage off on chosen collections, with a minimum purchase and combinations: discountCodeBasicCreate', async () => {
    await newReward('Ten percent on hats');
    await page().getByLabel('Percentage', { exact: true }).fill('10');
    expect(await page().getByLabel('A Shopify discount').isChecked()).toBe(true);
    await page()
      .getByLabel(/Minimum purchase amount/)
      .check({ force: true });
    await page().getByLabel('Minimum amount').fill('50');
    await page().getByLabel('Specific collections').check({ force: true });
    await page().getByLabel('Hats').check({ force: true });
    await page().getByLabel('Product discounts').check({ force: true });
    await page().getByLabel('Shipping discounts').check({ force: true });
    await page().getByLabel('Expires a number of days after it is earned').check({ force: true });
    await page().getByLabel('Days', { exact: true }).fill('30');
    expect(await page().getByTestId('reward-summary').innerText()).toBe(
      '10% off · on orders of €50.00 or more · on Hats · valid for 30 days',
    );
    await browser.shot('reward-editor-percentage');
    const id = await save();
    expect(await toasts()).toContain('Reward created');
    const reward = (await api.get(`/schema/reward/record/${id}`)).body.data;
    expect(reward).toMatchObject({
      discountType: 'percentage',
      discountValue: 10,
      rewardExpiryType: 'relative',
      rewardExpiryInDays: 30,
      handleCoupon: false,
    });

    const customer = 'gid://shopify/Customer/4001';
    const log = await earn(id, customer);
    const code = await until('the stamp', async () => (await rewardLog(log)).couponCode);
    const call = sent('LoyaltyDiscountCreate').find((c) => (c.variables.basicCodeDiscount as any).code === code)!;
    expect(call.variables.basicCodeDiscount).toEqual({
      title: 'Loyalty reward: Ten percent on hats',
      code,
      startsAt: expect.any(String),
      endsAt: (await rewardLog(log)).rewardExpiryAt,
      usageLimit: 1,
      appliesOncePerCustomer: true,
      context: { customers: { add: [customer] } },
      combinesWith: { orderDiscounts: false, productDiscounts: true, shippingDiscounts: true },
      minimumRequirement: { subtotal: { greaterThanOrEqualToSubtotal: '50.00' } },
      customerGets: { value: { percentage: 0.1 }, items: { collections: { add: ['gid://shopify/Collection/78'] } } },
    });
    // What was saved reads back in the editor.
    await browser.open(`/app/rewards/${id}`);
    expect(await page().getByLabel('Hats').isChecked()).toBe(true);
    expect(await page().getByLabel('Minimum amount').inputValue()).toBe('50');
  });

  it('a fixed amount in the shop’s currency, on all products: discountCodeBasicCreate with the amount', async () => {
    await newReward('Five euros off');
    await page().getByLabel('Fixed amount off').check({ force: true });
    await page().getByLabel('Amount', { exact: true }).fill('5');
    // Redeemable for points too (CONTRACT §19).
    await page().getByLabel('Cost in points').fill('500');
    expect(await page().getByTestId('reward-summary').innerText()).toBe('€5.00 off · never expires · costs 500 points');
    await browser.shot('reward-editor-fixed-amount');
    const id = await save();
    expect((await api.get(`/schema/reward/record/${id}`)).body.data.pointsCost).toBe(500);
    const customer = 'gid://shopify/Customer/4002';
    const log = await earn(id, customer);
    const code = await until('the stamp', async () => (await rewardLog(log)).couponCode);
    const call = sent('LoyaltyDiscountCreate').find((c) => (c.variables.basicCodeDiscount as any).code === code)!;
    expect(call.variables.basicCodeDiscount).toMatchObject({
      endsAt: null,
      combinesWith: { orderDiscounts: false, productDiscounts: false, shippingDiscounts: false },
      minimumRequirement: null,
      customerGets: { value: { discountAmount: { amount: '5.00', appliesOnEachItem: false } }, items: { all: true } },
    });
  });

  it('free shipping with a minimum number of items: discountCodeFreeShippingCreate', async () => {
    await newReward('Free shipping');
    await page().getByLabel('Free shipping', { exact: true }).check({ force: true });
    expect(await page().getByLabel('Codes you upload').isDisabled()).toBe(true);
    await page().getByLabel('Minimum number of items').check({ force: true });
    await page().getByLabel('Minimum items').fill('2');
    await page().getByLabel('Order discounts').check({ force: true });
    await browser.shot('reward-editor-free-shipping');
    const id = await save();
    const customer = 'gid://shopify/Customer/4003';
    const log = await earn(id, customer);
    const code = await until('the stamp', async () => (await rewardLog(log)).couponCode);
    const call = sent('LoyaltyFreeShippingCreate').find((c) => (c.variables.freeShippingCodeDiscount as any).code === code)!;
    expect(call.variables.freeShippingCodeDiscount).toMatchObject({
      title: 'Loyalty reward: Free shipping',
      usageLimit: 1,
      appliesOncePerCustomer: true,
      context: { customers: { add: [customer] } },
      destination: { all: true },
      combinesWith: { orderDiscounts: true, productDiscounts: false, shippingDiscounts: false },
      minimumRequirement: { quantity: { greaterThanOrEqualToQuantity: '2' } },
    });
    expect(prod.admin.discounts.get(code)?.active).toBe(true);
  });

  it('a free product picked with Shopify’s resource picker: its variant’s price off one item, as priced the day it is earned', async () => {
    const variant = 'gid://shopify/ProductVariant/9001';
    const picked = {
      id: variant,
      title: 'Blue',
      displayName: 'Tote bag - Blue',
      product: { id: 'gid://shopify/Product/77', title: 'Tote bag' },
    };
    const pickerCalls = () => page().evaluate(() => (window as unknown as { __pickerCalls: unknown[] }).__pickerCalls);
    await newReward('Tote bag on us');
    await page().getByLabel('Free product').check({ force: true });
    expect(await page().getByLabel('Codes you upload').isDisabled()).toBe(true);
    // No product yet: the save says what is missing, and nothing is made.
    await saveBar().getByRole('button', { name: 'Save' }).click();
    await page().getByText('Choose a product.').waitFor();
    expect(page().url()).toContain('/app/rewards/new');
    // The merchant closes the picker without choosing: still none.
    await page().getByRole('button', { name: 'Choose product' }).click();
    await page().evaluate((v) => ((window as unknown as { __pick: unknown }).__pick = [v]), picked);
    await page().getByRole('button', { name: 'Choose product' }).click();
    await page().getByText('Tote bag – Blue', { exact: true }).waitFor();
    expect(await pickerCalls()).toEqual([
      { type: 'variant', action: 'select', multiple: false, selectionIds: [] },
      { type: 'variant', action: 'select', multiple: false, selectionIds: [] },
    ]);
    // The product was the one field marked: its error and the banner pointing at it are gone.
    expect(await page().getByText('Choose a product.').count()).toBe(0);
    expect(await page().getByText('Some fields need attention.').count()).toBe(0);
    expect(await page().getByTestId('reward-summary').innerText()).toBe('Free Tote bag – Blue · never expires');
    expect(await page().getByLabel('Title customers see').getAttribute('placeholder')).toBe('Free Tote bag – Blue');
    await browser.shot('reward-editor-free-product');
    const id = await save();
    // Shoppers see what it gives by its title: the core's reward takes no amount off.
    expect((await api.get(`/schema/reward/record/${id}`)).body.data).toMatchObject({
      discountType: 'fixed_amount',
      discountValue: 0,
      eudTitle: 'Free Tote bag – Blue',
      eudRedeemInstructionMessage: 'Add Tote bag – Blue to your cart and enter this code at checkout: one of it is free.',
      handleCoupon: false,
    });

    // The price the day it is earned, taken off one item of that variant only.
    prod.admin.variantPrices.set(variant, '24.90');
    expect((await prod.send(await flowLifecycleRequest('loyalty-reward-issued', true))).status).toBe(200);
    const customer = 'gid://shopify/Customer/4020';
    const log = await earn(id, customer);
    const code = await until('the stamp', async () => (await rewardLog(log)).couponCode);
    const call = sent('LoyaltyDiscountCreate').find((c) => (c.variables.basicCodeDiscount as any).code === code)!;
    expect(call.variables.basicCodeDiscount).toMatchObject({
      title: 'Loyalty reward: Tote bag on us',
      usageLimit: 1,
      context: { customers: { add: [customer] } },
      customerGets: {
        value: { discountAmount: { amount: '24.90', appliesOnEachItem: false } },
        items: { products: { productVariantsToAdd: [variant] } },
      },
    });
    expect(sent('LoyaltyVariantPrice').at(-1)?.variables).toEqual({ id: variant });
    // Flow's Reward issued names it for what it is, with its code.
    const issued = await until('Reward issued', async () =>
      sent('LoyaltyFlowTrigger').find((r) => (r.variables.payload as Record<string, unknown>).coupon_code === code),
    );
    expect(issued.variables.payload).toMatchObject({ customer_id: 4020, discount_type: 'free_product', discount_value: 0 });

    // What was saved reads back, and the picker opens at the chosen variant.
    await browser.open(`/app/rewards/${id}`);
    await page().getByText('Tote bag – Blue', { exact: true }).waitFor();
    await page().getByRole('button', { name: 'Change product' }).click();
    expect((await pickerCalls()).at(-1)).toMatchObject({ selectionIds: [{ id: variant }] });
    await browser.open('/app/r/reward');
    expect(await page().locator('tr', { hasText: 'Tote bag on us' }).first().innerText()).toContain('Free Tote bag – Blue');

    // The shop deleted the variant: the next one earned is listed as not issued, saying why.
    prod.admin.variantPrices.delete(variant);
    const gone = await earn(id, 'gid://shopify/Customer/4021');
    await until(
      'the failure',
      async () =>
        (await prod.appPool.query(`select 1 from reward_discounts where reward_log_id = $1 and status = 'failed'`, [gone])).rowCount,
    );
    await browser.open(`/app/rewards/${id}`);
    await page()
      .getByRole('region', { name: 'Rewards that could not be issued' })
      .getByText('The product this reward gives is no longer in the shop.')
      .waitFor();
  });

  it('codes you upload: the core hands out the next uploaded code, and no Shopify discount is made', async () => {
    await newReward('Partner voucher');
    await page().getByLabel('Fixed amount off').check({ force: true });
    await page().getByLabel('Amount', { exact: true }).fill('15');
    await page().getByLabel('Codes you upload').check({ force: true });
    const id = await save();
    await page().getByText('Coupon pool').waitFor();
    await page()
      .locator('input[type=file]')
      .setInputFiles({ name: 'codes.csv', mimeType: 'text/csv', buffer: Buffer.from('PARTNER-1\nPARTNER-2\n') });
    await page().getByText('Codes imported: 2. Duplicates skipped: 0.').waitFor();
    await browser.shot('reward-editor-uploaded-codes');
    expect((await api.get(`/schema/reward/record/${id}`)).body.data).toMatchObject({
      handleCoupon: true,
      handleCouponAutoGeneration: false,
    });
    const before = prod.admin.requests.length;
    const log = await earn(id, 'gid://shopify/Customer/4004');
    expect((await rewardLog(log)).couponCode).toBe('PARTNER-1');
    await new Promise((r) => setTimeout(r, 1500));
    expect(
      prod.admin.requests
        .slice(before)
        .filter((r) => /Discount|Shipping|StoreCredit/.test(r.operation) && r.operation !== 'LoyaltyStoreCredits'),
    ).toEqual([]);
  });

  it('codes we generate, with a prefix and a length: the core makes the code, and no Shopify discount is made', async () => {
    await newReward('Generated ten');
    await page().getByLabel('Percentage', { exact: true }).fill('10');
    await page().getByLabel('Codes we generate').check({ force: true });
    await page().getByLabel('Code starts with').fill('GEN-');
    await page().getByLabel('Random characters after it').fill('8');
    await browser.shot('reward-editor-generated-codes');
    const id = await save();
    expect((await api.get(`/schema/reward/record/${id}`)).body.data).toMatchObject({
      handleCoupon: true,
      handleCouponAutoGeneration: true,
      couponCodePrefix: 'GEN-',
      couponCodeLength: 8,
    });
    const before = prod.admin.requests.length;
    const log = await earn(id, 'gid://shopify/Customer/4005');
    expect((await rewardLog(log)).couponCode).toMatch(/^GEN-[A-Z0-9]{8}$/);
    await new Promise((r) => setTimeout(r, 1500));
    expect(prod.admin.requests.slice(before).filter((r) => /DiscountCreate|FreeShipping|LoyaltyStoreCredit$/.test(r.operation))).toEqual(
      [],
    );
  });

  it('store credit in the shop’s currency with an expiry date: storeCreditAccountCredit, and the amount stamped', async () => {
    await newReward('Credit for loyal customers');
    await page().getByLabel('Store credit').check({ force: true });
    await page().getByLabel('Amount', { exact: true }).fill('12.5');
    await page().getByLabel('Expires on a date').check({ force: true });
    const last = DateTime.now().plus({ months: 2 }).toISODate()!;
    await page().getByLabel('Last day').fill(last);
    await page()
      .getByText(`Ends at the end of ${DateTime.fromISO(last).setLocale('en').toLocaleString(DateTime.DATE_FULL)}.`)
      .waitFor();
    await browser.shot('reward-editor-store-credit');
    const id = await save();
    // The last day is the shop's (the stub's shop is in Europe/Paris): the credit ends at its midnight there.
    const end = DateTime.fromISO(last, { zone: STUB_SHOP.ianaTimezone }).set({ hour: 23, minute: 59, second: 59 }).toUTC().toISO();
    expect(await page().getByLabel('Last day').inputValue()).toBe(last);
    expect((await api.get(`/schema/reward/record/${id}`)).body.data).toMatchObject({
      discountType: 'fixed_amount',
      discountValue: 12.5,
      handleCoupon: false,
      rewardExpiryType: 'absolute',
      rewardExpiryAt: end,
    });
    const customer = 'gid://shopify/Customer/4006';
    const log = await earn(id, customer);
    expect(await until('the stamp', async () => (await rewardLog(log)).couponCode)).toBe('12.50 EUR');
    expect(sent('LoyaltyStoreCredit').map((c) => c.variables)).toEqual([
      { id: customer, creditInput: { creditAmount: { amount: '12.50', currencyCode: 'EUR' }, expiresAt: end } },
    ]);
    expect(prod.admin.storeCredits.get(customer)).toHaveLength(1);

    // The member page shows the credit for what it is, not as a code, and resends Reward issued as the loop sends it.
    expect((await prod.send(await flowLifecycleRequest('loyalty-reward-issued', true))).status).toBe(200);
    await browser.open(`/app/members/${(await rewardLog(log)).ownedById}`);
    const row = page().getByRole('region', { name: 'Rewards and codes' }).locator('tbody tr', { hasText: 'Credit for loyal customers' });
    await row.getByText('Store credit of €12.50').waitFor();
    await row.getByText(`${DateTime.fromISO(last).setLocale('en').toFormat('LLL d, yyyy')}, 11:59`).waitFor();
    expect(await row.locator('code').count()).toBe(0);
    const before = sent('LoyaltyFlowTrigger').length;
    await row.getByRole('button', { name: 'Resend: Store credit of €12.50' }).click();
    await until('the toast', async () => (await toasts()).includes('Sent "Reward issued" to Flow again for the store credit of €12.50.'));
    expect(
      sent('LoyaltyFlowTrigger')
        .slice(before)
        .map((r) => r.variables),
    ).toEqual([
      {
        handle: 'loyalty-reward-issued',
        payload: expect.objectContaining({
          customer_id: 4006,
          discount_type: 'store_credit',
          discount_value: 12.5,
          coupon_code: '12.50 EUR',
        }),
      },
    ]);
    await browser.shot('member-store-credit');
  });

  it('a reward made in the program editor with a last day: the shopper’s Shopify discount ends at the end of that day in the shop’s zone', async () => {
    await browser.open('/app/programs/streak/new');
    await page().getByText('No milestones yet').waitFor();
    const program = page().getByRole('region', { name: 'Program' });
    await program.getByLabel('Name', { exact: true }).fill('Dated thanks streak');
    await program.getByLabel('Status').selectOption('live');
    await page().getByRole('region', { name: 'How progress counts' }).getByLabel('Complete after').fill('3');
    await page().getByRole('button', { name: 'Add milestone' }).click();
    await page().getByRole('region', { name: 'Milestone: New milestone' }).getByLabel('Name', { exact: true }).fill('First day');
    const form = page().getByRole('region', { name: 'Milestone: First day' });
    await form.getByLabel('Reached after').fill('1');
    await form.getByText('Create a new reward').click();
    await form.getByLabel('Reward name').fill('Dated thanks');
    await form.getByLabel('Value').fill('15');
    await form.getByLabel('Expires', { exact: true }).selectOption({ label: 'On a date' });
    // The stub's shop is in Europe/Paris: its last day ends at midnight there.
    const lastDay = DateTime.now().setZone(STUB_SHOP.ianaTimezone).plus({ days: 20 }).toISODate()!;
    await form.getByLabel('Last day').fill(lastDay);
    await saveBar().getByRole('button', { name: 'Save' }).click();
    await page().waitForURL(/\/app\/programs\/streak\/[0-9a-f-]{36}/);
    const streakId = /\/app\/programs\/streak\/([0-9a-f-]{36})/.exec(page().url())![1]!;

    const customer = 'gid://shopify/Customer/4007';
    const log = await created('/schema/streak_log/record', {
      streakId,
      ownedBy: { externalId: customer },
      activityId: 'visit',
      activityAt: DateTime.now().toUTC().toISO(),
      uniqueIdentifier: 'dated-thanks',
    });
    const rewardLogId = log.achievedMilestoneRewardLog.id as string;
    const code = await until('the stamp', async () => (await rewardLog(rewardLogId)).couponCode);
    const ends = DateTime.fromISO(lastDay, { zone: STUB_SHOP.ianaTimezone }).set({ hour: 23, minute: 59, second: 59 }).toUTC().toISO();
    expect((await rewardLog(rewardLogId)).rewardExpiryAt).toBe(ends);
    const call = sent('LoyaltyDiscountCreate').find((c) => (c.variables.basicCodeDiscount as any).code === code)!;
    expect(call.variables.basicCodeDiscount).toMatchObject({
      title: 'Loyalty reward: Dated thanks',
      code,
      endsAt: ends,
      context: { customers: { add: [customer] } },
      customerGets: { value: { percentage: 0.15 } },
    });
  });

  it('the editor in German', async () => {
    await browser.open('/app/rewards/new?locale=de');
    await page().getByText('Was der Kunde erhält').waitFor();
    await page().getByLabel('Prozentsatz').fill('10');
    await page()
      .getByLabel(/Mindestbestellwert/)
      .check({ force: true });
    await page().getByLabel('Mindestbetrag').fill('50');
    expect(await page().getByTestId('reward-summary').innerText()).toBe(
      '10 % Rabatt · ab einem Bestellwert von 50,00\u00a0€ · läuft nie ab',
    );
    await browser.shot('reward-editor-de');
    await page().getByLabel('Shop-Guthaben').check({ force: true });
    await page().getByLabel('Läuft an einem Datum ab').check({ force: true });
    await page().getByLabel('Letzter Tag').fill('2027-03-05');
    await page().getByText('Endet am Ende des 5. März 2027.').waitFor();
    await browser.shot('reward-editor-store-credit-de');
  });
});

describe('the core’s refusals, on their fields in the merchant’s words', () => {
  const cases = {
    en: {
      path: '/app/rewards/new',
      name: 'Name',
      title: 'Title customers see',
      percentage: 'Percentage',
      amount: 'Amount',
      fixed: 'Fixed amount off',
      generate: 'Codes we generate',
      prefix: 'Code starts with',
      length: 'Random characters after it',
      days: 'Days',
      byDays: 'Expires a number of days after it is earned',
      byDate: 'Expires on a date',
      date: 'Last day',
      banner: 'The reward could not be saved. Check the fields marked below.',
      checksFailed: 'Some fields need attention.',
      words: {
        required: 'Fill this in.',
        percentage: 'A percentage is at most 100.',
        tooLong48: 'Use at most 48 characters.',
        tooLong256: 'Use at most 256 characters.',
        tooLong16: 'Use at most 16 characters.',
        prefix: 'Use letters, digits, _ and - only.',
        atMost32: 'Enter at most 32.',
        atLeast6: 'Enter at least 6.',
        positive: 'Enter an amount above 0.',
        past: 'This day has passed: pick today or a later one.',
        moreThan0: 'Enter more than 0.',
        atMost36500: 'Enter at most 36,500.',
      },
    },
    de: {
      path: '/app/rewards/new?locale=de',
      name: 'Name',
      title: 'Titel für Kunden',
      percentage: 'Prozentsatz',
      amount: 'Betrag',
      fixed: 'Fester Betrag',
      generate: 'Codes, die wir erzeugen',
      prefix: 'Code beginnt mit',
      length: 'Zufällige Zeichen danach',
      days: 'Tage',
      byDays: 'Läuft einige Tage nach dem Verdienen ab',
      byDate: 'Läuft an einem Datum ab',
      date: 'Letzter Tag',
      banner: 'Die Prämie konnte nicht gespeichert werden. Prüfe die markierten Felder.',
      checksFailed: 'Einige Felder brauchen deine Aufmerksamkeit.',
      words: {
        required: 'Fülle dieses Feld aus.',
        percentage: 'Ein Prozentsatz ist höchstens 100.',
        tooLong48: 'Verwende höchstens 48 Zeichen.',
        tooLong256: 'Verwende höchstens 256 Zeichen.',
        tooLong16: 'Verwende höchstens 16 Zeichen.',
        prefix: 'Verwende nur Buchstaben, Ziffern, _ und -.',
        atMost32: 'Gib höchstens 32 ein.',
        atLeast6: 'Gib mindestens 6 ein.',
        positive: 'Gib einen Betrag über 0 ein.',
        past: 'Dieser Tag ist vorbei: Wähle heute oder einen späteren Tag.',
        moreThan0: 'Gib mehr als 0 ein.',
        atMost36500: 'Gib höchstens 36.500 ein.',
      },
    },
  } as const;

  for (const [language, t] of Object.entries(cases))
    it(`every refusal the form can meet, in ${language === 'en' ? 'English' : 'German'}`, async () => {
      const trySave = async () => {
        await saveBar()
          .getByRole('button', { name: /Save|Speichern/ })
          .click();
        await page().getByText(t.banner).waitFor();
      };
      // Field checks: lengths, a percentage over 100, a value below 0 days.
      await browser.open(t.path);
      await page().getByLabel(t.name, { exact: true }).fill('x'.repeat(257));
      await page().getByLabel(t.title, { exact: true }).fill('y'.repeat(49));
      await page().getByLabel(t.percentage, { exact: true }).fill('150');
      await page().getByLabel(t.byDays).check({ force: true });
      await page().getByLabel(t.days, { exact: true }).fill('0');
      await trySave();
      expect(await fieldError(t.name)).toBe(t.words.tooLong256);
      expect(await fieldError(t.title)).toBe(t.words.tooLong48);
      expect(await fieldError(t.days)).toBe(t.words.moreThan0);
      // The rule over the record, in the same answer: a percentage is at most 100.
      expect(await fieldError(t.percentage)).toBe(t.words.percentage);
      await browser.shot(`reward-editor-refused-${language}`);
      await page().getByLabel(t.name, { exact: true }).fill('');
      await page().getByLabel(t.title, { exact: true }).fill('');
      await page().getByLabel(t.days, { exact: true }).fill('40000');
      await trySave();
      expect(await fieldError(t.name)).toBe(t.words.required);
      expect(await fieldError(t.days)).toBe(t.words.atMost36500);
      await page().getByLabel(t.name, { exact: true }).fill('Refused');
      await page().getByLabel(t.days, { exact: true }).fill('');
      await trySave();
      expect(await fieldError(t.percentage)).toBe(t.words.percentage);
      expect(await fieldError(t.days)).toBe(t.words.required);
      // An amount off of nothing, a last day that has passed and a blank name: the page's own checks, before the core is asked.
      await page().getByLabel(t.fixed).check({ force: true });
      await page().getByLabel(t.amount, { exact: true }).fill('-1');
      await page().getByLabel(t.byDate).check({ force: true });
      await page().getByLabel(t.date, { exact: true }).fill('2020-01-01');
      // A name of spaces too, which the core would take and no list could show.
      await page().getByLabel(t.name, { exact: true }).fill('   ');
      await saveBar()
        .getByRole('button', { name: /Save|Speichern/ })
        .click();
      await page().getByText(t.checksFailed).waitFor();
      expect(await fieldError(t.amount)).toBe(t.words.positive);
      expect(await fieldError(t.date)).toBe(t.words.past);
      expect(await fieldError(t.name)).toBe(t.words.required);
      await page().getByLabel(t.name, { exact: true }).fill('Refused');
      // A date missing; generated codes' prefix and length.
      await page().getByLabel(t.amount, { exact: true }).fill('5');
      await page().getByLabel(t.date, { exact: true }).fill('');
      await page().getByLabel(t.generate).check({ force: true });
      await page().getByLabel(t.prefix).fill('NO SPACES');
      await page().getByLabel(t.length).fill('40');
      await trySave();
      expect(await fieldError(t.prefix)).toBe(t.words.prefix);
      expect(await fieldError(t.length)).toBe(t.words.atMost32);
      // With them, the rule a missing date breaks: "on a date" requires one.
      expect(await fieldError(t.date)).toBe(t.words.required);
      await page().getByLabel(t.prefix).fill('A'.repeat(17));
      await page().getByLabel(t.length).fill('3');
      await trySave();
      expect(await fieldError(t.prefix)).toBe(t.words.tooLong16);
      expect(await fieldError(t.length)).toBe(t.words.atLeast6);
      // The fields mended, the date is still required.
      await page().getByLabel(t.prefix).fill('OK-');
      await page().getByLabel(t.length).fill('8');
      await trySave();
      expect(await fieldError(t.date)).toBe(t.words.required);
      // Nothing was created by the refused saves.
      expect(page().url()).toContain('/app/rewards/new');
    });
});

describe('the rewards list', () => {
  it('says what each reward gives and what redeeming it costs, in the admin’s language and the shop’s currency', async () => {
    const reward = async (name: string, fields: Record<string, unknown>) => {
      const res = await api.post('/schema/reward/record', { name, description: 'd', rewardExpiryType: 'no_expiry', ...fields });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    await reward('Listed percent', { discountType: 'percentage', discountValue: 15, pointsCost: 1500 });
    await reward('Listed amount', { discountType: 'fixed_amount', discountValue: 7.5 });
    await reward('Listed points', { rewardKind: 'points', pointsValue: 250 });
    const row = async (name: string) =>
      (await page().locator('tr', { hasText: name }).first().innerText()).split('\t').map((cell) => cell.trim());
    await browser.open('/app/r/reward');
    await page().locator('tr', { hasText: 'Listed points' }).first().waitFor();
    const money = new Intl.NumberFormat('en', { style: 'currency', currency: prod.admin.currencyCode }).format(7.5);
    expect((await row('Listed percent')).slice(0, 3)).toEqual(['Listed percent', '15% off', '1,500 points']);
    expect((await row('Listed amount')).slice(0, 3)).toEqual(['Listed amount', `${money} off`, 'Only earned']);
    expect((await row('Listed points')).slice(0, 3)).toEqual(['Listed points', '+250 points', 'Only earned']);
    await browser.open('/app/r/reward?locale=de');
    await page().locator('tr', { hasText: 'Listed percent' }).first().waitFor();
    expect((await row('Listed percent')).slice(0, 3)).toEqual(['Listed percent', '15 % Rabatt', '1.500 Punkte']);
  });
});

describe('failed issues and delete', () => {
  it('a reward that could not be issued is listed by customer name with its reason; Retry issues it', async () => {
    const customer = 'gid://shopify/Customer/4010';
    prod.admin.customers.set(customer, { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com' });
    await newReward('Retried');
    await page().getByLabel('Percentage', { exact: true }).fill('20');
    const id = await save();
    prod.admin.scripted.set('LoyaltyDiscountCreate', [
      { userErrors: [{ field: ['basicCodeDiscount', 'customerGets'], code: 'INVALID', message: 'Value is invalid' }] },
    ]);
    const log = await earn(id, customer);
    await until(
      'the failure',
      async () =>
        (await prod.appPool.query(`select 1 from reward_discounts where reward_log_id = $1 and status = 'failed'`, [log])).rowCount,
    );
    await browser.open(`/app/rewards/${id}`);
    const failures = page().getByRole('region', { name: 'Rewards that could not be issued' });
    await failures.getByRole('link', { name: 'Grace Hopper' }).waitFor();
    expect(await failures.getByRole('link', { name: 'Grace Hopper' }).getAttribute('href')).toBe('shopify:admin/customers/4010');
    await failures.getByText('Value is invalid', { exact: true }).waitFor();
    expect(await failures.innerText()).not.toContain('basicCodeDiscount');
    await browser.shot('reward-editor-failed');
    await failures.getByRole('button', { name: 'Retry' }).click();
    await until('the notice', async () =>
      (await page().evaluate(() => (window as unknown as { __toasts: string[] }).__toasts)).includes('Trying again.'),
    );
    expect(await until('the stamp', async () => (await rewardLog(log)).couponCode)).toMatch(/^LOYALTY-/);
  });

  it('delete asks first, then removes the reward and what the app kept for it', async () => {
    await newReward('Short-lived');
    await page().getByLabel('Store credit').check({ force: true });
    await page().getByLabel('Amount', { exact: true }).fill('3');
    const id = await save();
    const deleteAction = page().getByRole('button', { name: 'Delete' }).first();
    await deleteAction.click();
    const dialog = page().getByRole('dialog');
    await dialog.getByText('Delete Short-lived?').waitFor();
    await browser.shot('reward-editor-delete');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await api.get(`/schema/reward/record/${id}`)).status).toBe(200);
    await deleteAction.click();
    await page().getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page().waitForURL(/\/app\/r\/reward/);
    expect((await api.get(`/schema/reward/record/${id}`)).status).toBe(404);
    const { rowCount } = await prod.appPool.query('select 1 from reward_issuing where reward_id = $1', [id]);
    expect(rowCount).toBe(0);
  });

  it('the reward list’s names open the editor', async () => {
    await browser.open('/app/r/reward');
    await page().getByRole('link', { name: 'Ten percent on hats' }).click();
    await page().waitForURL(/\/app\/rewards\/[0-9a-f-]{36}/);
    await page().getByText('What the customer gets').waitFor();
  });
});
