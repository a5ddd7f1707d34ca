import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../core/test/support/harness';
import { type AdminApp, startAdminApp } from './support/admin';
import { APP_BRIDGE_UI, editorUi } from './support/app-bridge-ui';
import { TEST_SHOP } from './support/stack';

/**
 * The program editor in Chromium (production build, real core): a streak made on one page with two
 * milestones and a reward created inline, edited, a value only the core can refuse shown on its
 * field in the core's words with nothing entered lost, a mission's tasks, what earns a challenge's
 * progress and its hold, and the German texts.
 */
let admin: AdminApp;
let api: Client;
let welcome: { id: string };

async function created(path: string, body: Record<string, unknown>) {
  const res = await api.post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { id: string } & Record<string, any>;
}

const milestonesOf = async (id: string) =>
  (
    await api.get('/schema/milestone/record', {
      filters: { operator: 'and', conditions: [{ fieldSlug: 'linkedSchemaRecordId', operator: 'equals', fieldValue: id }] },
      sortBy: [{ fieldSlug: 'milestoneTargetValue', order: 'ASC' }],
    })
  ).body.data as Record<string, any>[];

const rewardsNamed = async (name: string) =>
  (
    await api.get('/schema/reward/record', {
      filters: { operator: 'and', conditions: [{ fieldSlug: 'name', operator: 'equals', fieldValue: name }] },
    })
  ).body.data as Record<string, any>[];

beforeAll(async () => {
  admin = await startAdminApp(async (installed) => {
    installed.admin.collections = [
      { id: 'gid://shopify/Collection/78', title: 'Hats' },
      { id: 'gid://shopify/Collection/77', title: 'Shoes' },
    ];
    const account = (await installed.app.shops.find(TEST_SHOP))!;
    api = installed.core.anon.with({ 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret });
    welcome = await created('/schema/reward/record', {
      name: 'Welcome gift',
      description: 'd',
      discountType: 'fixed_amount',
      discountValue: 5,
      rewardExpiryType: 'no_expiry',
      handleCoupon: true,
      handleCouponAutoGeneration: true,
    });
  });
  await admin.browser.page.addInitScript(APP_BRIDGE_UI);
}, 120_000);

afterAll(() => admin?.close());

const { toasts, saveBar, saveBarHidden } = editorUi(() => admin.browser.page);
let streakId: string;

describe('the program editor', () => {
  it('creates a streak with two milestones, one with a reward created inline as a Shopify discount', async () => {
    const { browser } = admin;
    const page = browser.page;
    await browser.open('/app/r/streak');
    await page.getByRole('link', { name: 'New streak' }).first().click();
    await page.waitForURL(/\/app\/programs\/streak\/new/);
    await page.getByText('No milestones yet').waitFor();
    const text = await page.locator('body').innerText();
    for (const words of [
      'Resets every day',
      'Count each activity',
      'Remind shoppers 4 hours before the streak breaks.',
      'No milestones yet',
    ])
      expect(text).toContain(words);
    await saveBarHidden();

    const basics = page.getByRole('region', { name: 'Program' });
    await basics.getByLabel('Name', { exact: true }).fill('Daily visit');
    await basics.getByLabel('Status').selectOption('live');
    const counting = page.getByRole('region', { name: 'How progress counts' });
    await counting.getByLabel('Complete after').fill('7');
    await counting.getByLabel('Reminder').fill('6');
    await page.getByText('Remind shoppers 6 hours before the streak breaks.').waitFor();
    await page.getByLabel('Freezes a shopper can hold').fill('2');
    await saveBar().and(page.locator('[data-showing]')).waitFor({ state: 'attached' });

    await page.getByRole('button', { name: 'Add milestone' }).click();
    let form = page.getByRole('region', { name: 'Milestone: New milestone' });
    await form.getByLabel('Name', { exact: true }).fill('Three days');
    form = page.getByRole('region', { name: 'Milestone: Three days' });
    await form.getByLabel('Reached after').fill('3');
    await form.getByText('Create a new reward').click();
    await form.getByLabel('Reward name').fill('Three-day thanks');
    await form.getByLabel('Value').fill('10');
    expect(await form.getByLabel('Issue as a Shopify discount').isChecked()).toBe(true);
    // Its last day is a day of the shop's (the stub's shop is in Europe/Paris), as in the rewards editor.
    await form.getByLabel('Expires', { exact: true }).selectOption({ label: 'On a date' });
    const lastDay = DateTime.now().setZone('Europe/Paris').plus({ days: 40 }).toISODate()!;
    await form.getByLabel('Last day').fill(lastDay);
    await form.getByText(`Ends at the end of ${DateTime.fromISO(lastDay).setLocale('en').toLocaleString(DateTime.DATE_FULL)}.`).waitFor();

    await page.getByRole('button', { name: 'Add milestone' }).click();
    form = page.getByRole('region', { name: 'Milestone: New milestone' });
    await form.getByLabel('Name', { exact: true }).fill('A full week');
    form = page.getByRole('region', { name: 'Milestone: A full week' });
    await form.getByLabel('Reached after').fill('7');
    await form.getByText('A reward I already have').click();
    await form.getByLabel('Which reward').selectOption({ label: 'Welcome gift · €5.00 off' });
    await browser.shot('program-editor-new-streak');

    await saveBar().getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/app\/programs\/streak\/[0-9a-f-]{36}/);
    streakId = /\/app\/programs\/streak\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    await page.getByRole('cell', { name: 'A full week' }).waitFor();
    expect(await toasts()).toContain('Program created');
    await saveBarHidden();

    const streak = (await api.get(`/schema/streak/record/${streakId}`)).body.data;
    expect(streak).toMatchObject({
      name: 'Daily visit',
      status: 'live',
      aggregationPeriod: 'daily',
      aggregationMethod: 'count',
      completionTargetValue: 7,
      toBeBrokenWarningHours: 6,
      maxFreezes: 2,
      freezeEarnEveryPeriods: null,
    });
    const [thanks] = await rewardsNamed('Three-day thanks');
    expect(thanks).toMatchObject({
      discountType: 'percentage',
      discountValue: 10,
      handleCoupon: false,
      rewardExpiryType: 'absolute',
      rewardExpiryAt: DateTime.fromISO(lastDay, { zone: 'Europe/Paris' }).set({ hour: 23, minute: 59, second: 59 }).toUTC().toISO(),
    });
    expect((await milestonesOf(streakId)).map((m) => [m.name, m.milestoneTargetValue, m.rewardId, m.status])).toEqual([
      ['Three days', 3, thanks!.id, 'live'],
      ['A full week', 7, welcome.id, 'live'],
    ]);
    // "Issue as a Shopify discount" is the app's own setting, as on the reward's page.
    const { rows } = await admin.stack.app.pool.query('select reward_id from shopify_discount_rewards where shop = $1', [TEST_SHOP]);
    expect(rows.map((r) => r.reward_id)).toEqual([thanks!.id]);
    const table = await page.locator('.Polaris-IndexTable table').innerText();
    expect(table).toMatch(/3 days\s+Three days\s+Three-day thanks · 10% off · Shopify discount/);
    await browser.shot('program-editor-streak');
  });

  it("opens the inline reward in the rewards editor with a discount's defaults, which are changed there and kept", async () => {
    const { browser } = admin;
    const page = browser.page;
    const [thanks] = await rewardsNamed('Three-day thanks');
    await browser.open(`/app/programs/streak/${streakId}`);
    await page
      .getByRole('row', { name: /Three days/ })
      .getByRole('button', { name: 'Edit' })
      .click();
    await page.getByRole('region', { name: 'Milestone: Three days' }).getByRole('link', { name: 'Three-day thanks' }).click();
    await page.waitForURL(new RegExp(`/app/rewards/${thanks!.id}`));
    // Shopify's own defaults for a new discount: all products, no minimum, combined with nothing.
    expect(await page.getByLabel('A Shopify discount').isChecked()).toBe(true);
    expect(await page.getByLabel('No minimum').isChecked()).toBe(true);
    expect(await page.getByLabel('All products').isChecked()).toBe(true);
    for (const label of ['Order discounts', 'Product discounts', 'Shipping discounts'])
      expect(await page.getByLabel(label).isChecked(), label).toBe(false);
    expect(await page.getByTestId('reward-summary').innerText()).toMatch(/^10% off · /);
    await page.getByLabel(/Minimum purchase amount/).check({ force: true });
    await page.getByLabel('Minimum amount').fill('30');
    await page.getByLabel('Order discounts').check({ force: true });
    await saveBar().getByRole('button', { name: 'Save' }).click();
    await saveBarHidden();
    const { rows } = await admin.stack.app.pool.query('select spec from reward_issuing where shop = $1 and reward_id = $2', [
      TEST_SHOP,
      thanks!.id,
    ]);
    expect(rows[0]?.spec).toEqual({
      kind: 'percentage',
      minimum: { subtotal: 30 },
      collections: [],
      variant: null,
      combinesWith: { orderDiscounts: true, productDiscounts: false, shippingDiscounts: false },
      currencyCode: 'EUR',
    });
    await browser.open(`/app/programs/streak/${streakId}`);
    expect(await page.locator('.Polaris-IndexTable table').innerText()).toMatch(/Three-day thanks · 10% off · Shopify discount/);
  });

  it('edits it: a setting, a milestone changed and one removed, saved from the page', async () => {
    const { browser } = admin;
    const page = browser.page;
    await browser.open(`/app/r/streak/${streakId}`);
    await page.getByRole('link', { name: 'Edit program' }).click();
    await page.waitForURL(new RegExp(`/app/programs/streak/${streakId}`));
    await page.getByRole('region', { name: 'How progress counts' }).getByLabel('Counting').selectOption('sum');
    await page.getByRole('region', { name: 'How progress counts' }).getByLabel('Goal each day').fill('20');
    await page
      .getByRole('row', { name: /Three days/ })
      .getByRole('button', { name: 'Edit' })
      .click();
    await page.getByRole('region', { name: 'Milestone: Three days' }).getByLabel('Reached after').fill('2');
    await page
      .getByRole('row', { name: /A full week/ })
      .getByRole('button', { name: 'Remove' })
      .click();
    await page.getByRole('button', { name: 'Save', exact: true }).first().click();
    await page.waitForFunction(() => (window as unknown as { __toasts: string[] }).__toasts.includes('Program saved'));
    await saveBarHidden();
    expect((await api.get(`/schema/streak/record/${streakId}`)).body.data).toMatchObject({
      aggregationMethod: 'sum',
      aggregationTargetValue: 20,
      completionTargetValue: 7,
    });
    expect((await milestonesOf(streakId)).map((m) => [m.name, m.milestoneTargetValue])).toEqual([['Three days', 2]]);
    await browser.shot('program-editor-edited');
  });

  it('keeps the period of a streak members are counting in, saying so on the period', async () => {
    const { browser } = admin;
    const page = browser.page;
    await api.post('/schema/streak_log/record', {
      streakId,
      ownedBy: { externalId: 'gid://shopify/Customer/7001' },
      activityId: 'visit',
      activityAt: new Date().toISOString(),
      activityValue: 25,
      uniqueIdentifier: 'period-in-use',
    });
    await browser.open(`/app/programs/streak/${streakId}`);
    const counting = page.getByRole('region', { name: 'How progress counts' });
    await counting.getByLabel('Period').selectOption('weekly');
    await page.getByRole('button', { name: 'Save', exact: true }).first().click();
    await counting
      .getByText('Members are already counting in these periods, so the period stays: make a new program for another one.')
      .waitFor();
    expect((await api.get(`/schema/streak/record/${streakId}`)).body.data.aggregationPeriod).toBe('daily');
  });

  it("shows the core's refusal on the milestone's field in its words, keeps what was entered, and creates its reward once", async () => {
    const { browser } = admin;
    const page = browser.page;
    await browser.open(`/app/programs/streak/${streakId}`);
    await page.getByRole('region', { name: 'Program' }).getByLabel('Name', { exact: true }).fill('Daily visit (autumn)');
    await page.getByRole('button', { name: 'Add milestone' }).click();
    await page.getByRole('region', { name: 'Milestone: New milestone' }).getByLabel('Name', { exact: true }).fill('Nine days');
    const form = page.getByRole('region', { name: 'Milestone: Nine days' });
    // Above the streak's seven days: only the core knows the saved completion target here.
    await form.getByLabel('Reached after').fill('9');
    await form.getByText('Create a new reward').click();
    await form.getByLabel('Reward name').fill('Nine-day thanks');
    await form.getByLabel('Value').fill('15');
    await form.getByText('Generate codes').click();
    await saveBar().getByRole('button', { name: 'Save' }).click();

    // The core's refusal in the merchant's words, never its own English naming its field.
    const coreWords = 'Enter at most 7.';
    const target = form.getByLabel('Reached after');
    await form.getByText(coreWords).waitFor();
    expect(await target.getAttribute('aria-invalid')).toBe('true');
    expect(await target.inputValue()).toBe('9');
    expect(await page.getByRole('row', { name: /Nine days/ }).innerText()).toContain('Needs attention');
    expect(await page.locator('.Polaris-Banner').first().innerText()).toContain('Some changes were not saved.');
    // The rest of the save went through; the unsaved milestone keeps the save bar up.
    expect((await api.get(`/schema/streak/record/${streakId}`)).body.data.name).toBe('Daily visit (autumn)');
    expect(await saveBar().getAttribute('data-showing')).toBe('');
    // The reward was created before its milestone was refused: now picked, not made again.
    const [nine] = await rewardsNamed('Nine-day thanks');
    expect(nine).toMatchObject({ discountValue: 15, handleCoupon: true, handleCouponAutoGeneration: true });
    expect(await form.getByLabel('A reward I already have').isChecked()).toBe(true);
    await browser.shot('program-editor-core-error');

    await target.fill('5');
    expect(await form.getByText(coreWords).count()).toBe(0);
    await saveBar().getByRole('button', { name: 'Save' }).click();
    await page.waitForFunction(() => (window as unknown as { __toasts: string[] }).__toasts.includes('Program saved'));
    expect((await milestonesOf(streakId)).map((m) => [m.name, m.milestoneTargetValue, m.rewardId])).toEqual([
      ['Three days', 2, expect.any(String)],
      ['Nine days', 5, nine!.id],
    ]);
    expect(await rewardsNamed('Nine-day thanks')).toHaveLength(1);
  });

  it("a mission's tasks: the core's refusal of a repeated activity shown on that task", async () => {
    const { browser } = admin;
    const page = browser.page;
    await browser.open('/app/programs/mission/new');
    await page.getByText('A mission needs at least one task').waitFor();
    await page.getByRole('region', { name: 'Program' }).getByLabel('Name', { exact: true }).fill('Welcome mission');
    const tasks = page.getByRole('region', { name: 'Tasks' });
    await tasks.getByRole('button', { name: 'Add task' }).click();
    await tasks.getByRole('button', { name: 'Add task' }).click();
    await tasks.getByLabel('Task').nth(0).fill('First order');
    await tasks.getByLabel('Activity', { exact: true }).nth(0).selectOption('Pays their first order');
    await tasks.getByText('Counts by itself from your store.').waitFor();
    await tasks.getByLabel('Task').nth(1).fill('Second order');
    await tasks.getByLabel('Activity', { exact: true }).nth(1).selectOption('Pays their first order');
    await page.getByRole('button', { name: 'Save', exact: true }).first().click();
    await tasks.getByText('Another task counts this activity already: give each task one of its own.').waitFor();
    expect(await tasks.getByLabel('Activity', { exact: true }).nth(1).getAttribute('aria-invalid')).toBe('true');
    expect(page.url()).toContain('/app/programs/mission/new');
    await browser.shot('program-editor-mission-refused');

    // Something only Flow sends: its own activity id.
    await tasks.getByLabel('Activity', { exact: true }).nth(1).selectOption('Something else (sent by Flow or the API)');
    await tasks.getByLabel('Activity id').fill('first_review');
    await page.getByRole('button', { name: 'Save', exact: true }).first().click();
    await page.waitForURL(/\/app\/programs\/mission\/[0-9a-f-]{36}/);
    const id = /\/app\/programs\/mission\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    const mission = (await api.get(`/schema/mission/record/${id}`)).body.data;
    expect(mission.tasks.map((t: { activityId: string }) => t.activityId)).toEqual(['first_order', 'first_review']);
    expect(mission.status).toBe('draft');
  });

  it("a challenge's campaign dates: the core's refusal of an end before the start shown on the end date", async () => {
    const { browser } = admin;
    const page = browser.page;
    await browser.open('/app/programs/challenge/new');
    await page.getByRole('region', { name: 'Program' }).getByLabel('Name', { exact: true }).fill('Winter spend');
    const counting = page.getByRole('region', { name: 'How progress counts' });
    await counting.getByLabel('Window', { exact: true }).selectOption('monthly');
    await counting.getByLabel('Counting').selectOption('Add up amounts');
    await counting.getByLabel('Goal in each window').fill('200');
    await counting.getByLabel('Campaign starts').fill('2026-12-20T00:00');
    await counting.getByLabel('Campaign ends').fill('2026-12-01T00:00');
    await page.getByRole('button', { name: 'Save', exact: true }).first().click();
    const end = counting.getByLabel('Campaign ends');
    await counting.getByText('End after the start.').waitFor();
    expect(await end.getAttribute('aria-invalid')).toBe('true');
    expect(await end.inputValue()).toBe('2026-12-01T00:00');
    await browser.shot('program-editor-challenge-dates');
    // The campaign's dates are read in the merchant's browser's time zone, which the help names in words.
    const abroad = await browser.tab({ timezoneId: 'America/New_York' });
    try {
      await abroad.open('/app/programs/challenge/new');
      const help = await abroad.page.getByRole('region', { name: 'How progress counts' }).innerText();
      expect(help).toContain('Your time zone: Eastern Time.');
    } finally {
      await abroad.close();
    }

    // Live with a campaign that has ended: it could count nothing, so the end is refused.
    const status = page.getByRole('region', { name: 'Program' }).getByLabel('Status');
    await status.selectOption('live');
    await counting.getByLabel('Campaign starts').fill('2020-01-02T10:00');
    await end.fill('2020-03-01T10:00');
    await page.getByRole('button', { name: 'Save', exact: true }).first().click();
    await counting.getByText('This end has passed, so a live challenge could count nothing').waitFor();
    expect(await end.getAttribute('aria-invalid')).toBe('true');
    expect(page.url()).toContain('/app/programs/challenge/new');
    await status.selectOption('draft');
    await counting.getByLabel('Campaign starts').fill('2026-12-20T00:00');

    await end.fill('2027-01-31T23:59');
    await page.getByRole('button', { name: 'Save', exact: true }).first().click();
    await page.waitForURL(/\/app\/programs\/challenge\/[0-9a-f-]{36}/);
    const id = /\/app\/programs\/challenge\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    const challenge = (await api.get(`/schema/challenge/record/${id}`)).body.data;
    const local = (iso: string) => new Date(iso).getTime();
    expect(challenge).toMatchObject({ aggregationPeriod: 'monthly', aggregationMethod: 'sum', completionTargetValue: 200 });
    // The browser's local times, as the core stores them.
    const zone = await page.evaluate(() => [new Date('2026-12-20T00:00').toISOString(), new Date('2027-01-31T23:59').toISOString()]);
    expect([local(challenge.startAt), local(challenge.endAt)]).toEqual(zone.map(local));
    // Its "All fields" page shows the same instants in the zone of the browser reading them, and names it.
    const reader = await browser.tab({ timezoneId: 'America/New_York' });
    try {
      await reader.open(`/app/r/challenge/${id}`);
      const inNewYork = (iso: string) => DateTime.fromISO(iso, { zone: 'America/New_York' }).toFormat("yyyy-MM-dd'T'HH:mm");
      await expect.poll(() => reader.page.getByLabel('Starts', { exact: true }).inputValue()).toBe(inNewYork(challenge.startAt));
      expect(await reader.page.getByLabel('Ends', { exact: true }).inputValue()).toBe(inNewYork(challenge.endAt));
      expect(await reader.page.locator('body').innerText()).toContain('When the program starts counting.\nYour time zone: Eastern Time.');
    } finally {
      await reader.close();
    }
  });

  it('what earns progress: a challenge adding what paid orders spent on one collection’s products, its rewards held 14 days', async () => {
    const { browser } = admin;
    const page = browser.page;
    await browser.open('/app/programs/challenge/new');
    await page.getByRole('region', { name: 'Program' }).getByLabel('Name', { exact: true }).fill('Shoe spend');
    await page.getByRole('region', { name: 'How progress counts' }).getByLabel('Goal in each window').fill('300');
    const earning = page.getByRole('region', { name: 'What earns progress' });
    await earning.getByLabel('Counts by itself').selectOption('Add what the order paid for its products');
    await earning.getByText('Product prices after discounts, in your store’s currency, without shipping, taxes and tips.').waitFor();
    // The choice sets how the challenge counts.
    expect(await page.getByRole('region', { name: 'How progress counts' }).getByLabel('Counting').inputValue()).toBe('sum');
    await earning.getByLabel('Shoes').check();
    await earning.getByLabel('Hold rewards').selectOption('Hold for 14 days');
    await browser.shot('program-editor-earning');
    await page.getByRole('button', { name: 'Save', exact: true }).first().click();
    await page.waitForURL(/\/app\/programs\/challenge\/[0-9a-f-]{36}/);
    const id = /\/app\/programs\/challenge\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    expect((await api.get(`/schema/challenge/record/${id}`)).body.data).toMatchObject({ aggregationMethod: 'sum', rewardHoldDays: 14 });
    expect(await admin.stack.app.earningRules.rule(TEST_SHOP, id)).toMatchObject({
      kind: 'challenge',
      source: 'orders',
      collectionIds: ['gid://shopify/Collection/77'],
    });
    // Read back as saved.
    await browser.open(`/app/programs/challenge/${id}`);
    const again = page.getByRole('region', { name: 'What earns progress' });
    expect(await again.getByLabel('Shoes').isChecked()).toBe(true);
    expect(await again.getByLabel('Hats').isChecked()).toBe(false);
    expect(await again.getByLabel('Hold rewards').inputValue()).toBe('14');
  });

  it('speaks German when Shopify says locale=de', async () => {
    const { browser } = admin;
    await browser.open('/app/programs/streak/new?locale=de');
    const page = browser.page;
    await page.getByText('Noch keine Meilensteine').waitFor();
    const text = await page.locator('body').innerText();
    for (const words of [
      'Neue Serie',
      'Beginnt jeden Tag neu',
      'Jede Aktivität zählen',
      'Kunden werden 4 Stunden, bevor die Serie reißt, erinnert.',
      'Meilenstein hinzufügen',
    ])
      expect(text).toContain(words);
    await page.getByRole('button', { name: 'Meilenstein hinzufügen' }).first().click();
    await page.getByText('Neue Prämie erstellen').waitFor();
    await browser.shot('program-editor-de');
  });
});
