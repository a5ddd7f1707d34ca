import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import type { Client } from '../../core/test/support/harness';
import { type AdminApp, startAdminApp } from './support/admin';
import { ARTIFACTS } from './support/browser';
import { orderPayload } from './support/orders';
import { STUB_SHOP } from './support/admin-stub';
import { until } from './support/until';
import { SHOPIFY, TEST_SHOP, webhookRequest } from './support/stack';

/**
 * The dashboard's first-run checklist in Chromium, from a fresh install (no program, no widget
 * records), served from the production build against the real core; the Admin API stub plays the
 * shop's main theme. Screenshots land in test-artifacts/shopify/ (the README shows three of them).
 */
let admin: AdminApp;
let api: Client;

beforeAll(async () => {
  admin = await startAdminApp(async (installed) => {
    const account = (await installed.app.shops.find(TEST_SHOP))!;
    api = installed.core.anon.with({ 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret });
  });
}, 120_000);

afterAll(() => admin?.close());

/** The checklist card alone (the README shows these). */
const card = (name: string) =>
  admin.browser.page.getByRole('region', { name: 'Launch your loyalty program' }).screenshot({ path: `${ARTIFACTS}${name}.png` });

const live = (slug: string) =>
  api.get(`/schema/${slug}/record`, {
    filters: { operator: 'and', conditions: [{ fieldSlug: 'status', operator: 'equals', fieldValue: 'live' }] },
  });

describe('first-run checklist in Chromium', () => {
  it('from the dashboard of a fresh install to a live program in at most five clicks', async () => {
    const { browser } = admin;
    const page = browser.page;
    let clicks = 0;
    const click = async (target: Locator) => {
      clicks++;
      await target.click();
    };
    expect((await live('streak')).body.data).toEqual([]);

    await browser.open('/app');
    await page.getByRole('heading', { name: 'Launch your loyalty program' }).waitFor();
    expect(await page.getByText('0 of 4 steps done').count()).toBe(1);
    // With no program yet, the health section's own way to make one opens the program editor, not the raw record form.
    const create = page.getByRole('link', { name: 'Create a streak' });
    await create.waitFor();
    expect(new URL((await create.getAttribute('href'))!, page.url()).pathname).toBe('/app/programs/streak/new');
    await browser.shot('onboarding-checklist');

    await click(page.getByRole('button', { name: 'Choose: Daily visit streak' }));
    await card('onboarding-card-choose');
    await click(page.getByRole('button', { name: 'Create program' }));
    await page.getByText('Created “Daily visit streak” (Live).').waitFor();
    await page.getByText('1 of 4 steps done').waitFor();

    expect(clicks).toBeLessThanOrEqual(5);
    // The core has it, live, with its two milestones.
    const streaks = (await live('streak')).body.data;
    expect(streaks.map((s: { name: string }) => s.name)).toEqual(['Daily visit streak']);
    expect(streaks[0].milestones.map((m: { milestoneTargetValue: number }) => m.milestoneTargetValue)).toEqual([3, 7]);
    await browser.shot('onboarding-program-live');
    console.log(`[onboarding] clicks from the first screen to a live program: ${clicks}`);
  });

  it('a template as a draft fed by orders, then set live from the checklist; the Automate step says orders already count', async () => {
    const { browser } = admin;
    const page = browser.page;
    await browser.open('/app');
    // One step at a time: the program step is done, so the next one is open; the merchant opens it again.
    expect(await page.getByRole('button', { name: 'Choose: Monthly spend challenge' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Show step: 1. Choose a program' }).click();
    // The cards name the templates' amounts in the shop's currency, as the records will.
    expect(await page.getByRole('region', { name: 'Monthly spend challenge' }).innerText()).toContain(
      'A reward at €100 (€5 off) and at €200 (€15 off), held 14 days for returns',
    );
    expect(await page.getByRole('region', { name: 'Points and tiers' }).innerText()).toContain('Rewards to redeem: €5 off for 500 points');
    await page.getByRole('button', { name: 'Choose: Monthly spend challenge' }).click();
    await page.getByText('As a draft: nothing changes on the store until you set it live').click();
    await page.getByText('Issue rewards as Shopify discounts').click();
    expect(await page.getByLabel('Issue rewards as Shopify discounts').isChecked()).toBe(false);
    await page.getByRole('button', { name: 'Create program' }).click();
    await page.getByText('Created “Monthly spend challenge” (Draft).').waitFor();
    const [challenge] = (await api.get('/schema/challenge/record')).body.data;
    expect(challenge).toMatchObject({ status: 'draft', aggregationMethod: 'sum', completionTargetValue: 200 });
    expect(await admin.stack.app.earningRules.rule(TEST_SHOP, challenge.id)).toMatchObject({ source: 'orders' });
    await page.getByRole('button', { name: 'Show step: 3. Automate it' }).click();
    await page
      .getByRole('region', { name: '3. Automate it' })
      .getByText('Paid orders, refunds, cancellations, sign-ups and visits already count')
      .waitFor();
    // Flow's actions take a program by name, so the recipe names the mission, never its id.
    const recipe = page.getByRole('region', { name: '3. Automate it' });
    expect(await recipe.innerText()).toContain('Mission: your mission’s name (create the welcome mission first).');

    await page.getByRole('button', { name: 'Show step: 1. Choose a program' }).click();
    await page.getByRole('button', { name: 'Set live' }).click();
    await page.getByText('“Monthly spend challenge” is live.').waitFor();
    expect((await api.get(`/schema/challenge/record/${challenge.id}`)).body.data.status).toBe('live');
    // Its leaderboard, a draft with it, goes live with it.
    const boards = await api.get('/schema/leaderboard/record', {
      filters: { operator: 'and', conditions: [{ fieldSlug: 'linkedSchemaRecordId', operator: 'equals', fieldValue: challenge.id }] },
    });
    expect(boards.body.data.map((b: { status: string }) => b.status)).toEqual(['live']);

    const mission = (
      await api.post('/schema/mission/record', {
        name: 'Review quest',
        status: 'draft',
        aggregationPeriod: 'weekly',
        tasks: [{ name: 'Review', activityId: 'first_review', aggregationMethod: 'count', targetValue: 1 }],
      })
    ).body.data;
    await browser.open('/app');
    await page.getByRole('button', { name: 'Show step: 3. Automate it' }).click();
    await recipe.getByText('Mission: Review quest. Activity ID: first_review.', { exact: false }).waitFor();
    expect(await recipe.innerText()).not.toContain(mission.id);
    expect((await api.delete(`/schema/mission/record/${mission.id}`)).status).toBe(204);
  });

  it('the first paid order then counts by itself, with no Flow step, and shows on the member page', async () => {
    const { browser, stack } = admin;
    const page = browser.page;
    // Shopify's orders/paid, signed as Shopify signs it: two lines worth 120 of products.
    const order = orderPayload(5001, {
      customer: { id: 9901, first_name: 'Ines', last_name: 'Shopper', email: 'ines@example.com' },
      lines: [
        { product: 1, quantity: 2, price: '50.00' },
        { product: 2, quantity: 1, price: '20.00' },
      ],
    });
    const request = await webhookRequest('orders/paid', order);
    const res = await fetch(`${admin.server.url}/webhooks/orders/paid`, {
      method: 'POST',
      headers: request.headers,
      body: await request.text(),
    });
    expect(res.status).toBe(200);
    for (let end = Date.now() + 20_000; ;) {
      const { rowCount } = await stack.app.pool.query(`select 1 from shopify_webhooks where subject = 'order:5001' and status = 'done'`);
      if (rowCount) break;
      if (Date.now() > end) throw new Error('the order was not worked off');
      await new Promise((r) => setTimeout(r, 100));
    }
    await browser.open('/app/members?q=ines');
    await page.getByRole('link', { name: 'Ines Shopper' }).click();
    const first = page.getByRole('region', { name: 'Orders and what they earned' }).getByRole('region', { name: '#5001' });
    await first.waitFor();
    const text = (await first.innerText()).replace(/\s+/g, ' ');
    expect(text).toMatch(/#5001 · .* · \$120\.00 (Success )?Earned/);
    expect(text).toContain('Monthly spend challenge (Challenge): +$120.00');
    // The milestone at 100 was reached; its reward waits out the return window.
    expect(text).toMatch(/Held until [A-Z][a-z]{2} \d{1,2}, \d{4}/);
    await browser.shot('onboarding-first-order');
  });

  it('from install to a visible widget by one switch: no id typed or shown, the step ticks itself when the merchant comes back', async () => {
    const { browser, stack } = admin;
    const page = browser.page;
    const link = `https://${TEST_SHOP}/admin/themes/current/editor?context=apps&activateAppId=${SHOPIFY.apiKey}/loyalty-widget`;
    // The theme editor, in the tab the button opens.
    await page
      .context()
      .route(`https://${TEST_SHOP}/admin/**`, (route) =>
        route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Theme editor</title><button>Save</button>' }),
      );
    // The app wrote the ids of the records the first program brought into the metafields the embed reads.
    const ids = await Promise.all(
      ['template', 'theme', 'floating_widget'].map(async (slug) => (await live(slug)).body.data[0].id as string),
    );
    expect(
      ['template_id', 'theme_id', 'floating_widget_id'].map((key) => stack.admin.metafields.get(`${STUB_SHOP.id}|$app:loyalty|${key}`)),
    ).toEqual(ids);

    await browser.open('/app');
    const step = page.getByRole('region', { name: '2. Show it on your store' });
    await step.getByText('The widget is not on in your live theme yet.').waitFor();
    await step.getByText('Then select Save in the theme editor.').waitFor();
    expect(await step.getByRole('textbox').count()).toBe(0);
    const visible = await page.locator('body').innerText();
    for (const id of ids) expect(visible).not.toContain(id);
    await card('onboarding-card-embed-todo');

    const turnOn = step.getByRole('link', { name: 'Turn on the widget in the theme editor' });
    expect(await turnOn.getAttribute('href')).toBe(link);
    expect(await turnOn.getAttribute('target')).toBe('_blank');
    const [editor] = await Promise.all([page.context().waitForEvent('page'), turnOn.click()]);
    await editor.waitForLoadState();
    expect(editor.url()).toBe(link);
    // The admin's tab stayed where it was.
    expect(new URL(page.url()).pathname).toBe('/app');

    // The merchant saves in the theme editor: the live theme now has the embed on, with no settings.
    stack.admin.mainTheme = {
      name: 'Dawn',
      settingsData: `/* auto-generated */\n${JSON.stringify({
        current: { blocks: { '1234567890': { type: 'shopify://apps/loyalty/blocks/loyalty-widget/abc', disabled: false, settings: {} } } },
      })}`,
    };
    const checks = stack.admin.requests.filter((r) => r.operation === 'LoyaltyMainTheme').length;
    await editor.close();
    // The merchant's tab regains focus. Headless Chromium keeps every tab visible and focused, so the
    // page is told as a browser tells it on a return: visibilitychange, then focus.
    await page.evaluate(() => {
      document.dispatchEvent(new Event('visibilitychange'));
      window.dispatchEvent(new Event('focus'));
    });
    await step.getByText('The widget is on in your live theme “Dawn”.').waitFor();
    await page.getByText('2 of 4 steps done').waitFor();
    expect(await step.getByText('Done', { exact: true }).count()).toBe(1);
    expect(stack.admin.requests.filter((r) => r.operation === 'LoyaltyMainTheme').length).toBe(checks + 1);
    // Done, the step folds to its outcome and the next one opens.
    await page.getByRole('region', { name: '3. Automate it' }).getByRole('button', { name: 'Mark as done' }).waitFor();
    expect(await step.getByRole('link', { name: 'Turn on the widget in the theme editor' }).count()).toBe(0);
    await browser.shot('onboarding-embed-on');
    await card('onboarding-card-embed');
  });

  it('see it as a shopper: the widget as a guest and as a member; marking the last steps folds the checklist', async () => {
    const { browser, stack } = admin;
    const page = browser.page;
    await browser.open('/app');
    const loaderServed = (await fetch(`${stack.core.url}/widget/loader.js`)).ok;
    const mounted = (testId: string) =>
      page.waitForFunction(
        (id) => {
          const doc = (document.querySelector(`[data-testid="${id}"]`) as HTMLIFrameElement | null)?.contentDocument;
          return !!doc && [...doc.body.children].some((el) => el.shadowRoot);
        },
        testId,
        { timeout: 15_000 },
      );
    /** Opens the widget in a preview frame as a shopper would: the panel lists the live programs. */
    const opened = async (testId: string) => {
      if (!loaderServed) return;
      await mounted(testId);
      const frame = page.frameLocator(`[data-testid="${testId}"]`);
      await page.locator(`[data-testid="${testId}"]`).scrollIntoViewIfNeeded();
      await frame.getByRole('button', { name: 'Rewards' }).click({ force: true });
      await frame.getByText('Daily visit streak').first().waitFor({ timeout: 15_000 });
    };
    await page.getByRole('button', { name: 'Show step: 4. See it as a shopper' }).click();
    await page.getByRole('button', { name: 'Preview as guest' }).click();
    await page.locator('[data-testid="onboarding-preview-guest"]').waitFor();
    await opened('onboarding-preview-guest');
    await page.getByRole('button', { name: 'Preview as member' }).click();
    await page.getByText('The member preview signs in a preview member (“loyalty-admin-preview”)').waitFor();
    const member = page.locator('[data-testid="onboarding-preview-member"]');
    await member.waitFor();
    expect(await member.getAttribute('srcdoc')).toMatch(/"accessToken":"[^"]+"/);
    await opened('onboarding-preview-member');
    await browser.shot('onboarding-preview-member');
    await card('onboarding-card-preview');

    const automate = page.getByRole('region', { name: '3. Automate it' });
    await page.getByRole('button', { name: 'Show step: 3. Automate it' }).click();
    await automate.getByRole('button', { name: 'Mark as done' }).click();
    await page.getByText('3 of 4 steps done').waitFor();
    // Ticked, the step folds and the last one opens.
    await automate.getByText('Done', { exact: true }).waitFor();
    // The last step done folds the checklist at once, and the next visit finds it folded; it can be reopened.
    await page.getByRole('region', { name: '4. See it as a shopper' }).getByRole('button', { name: 'Mark as done' }).click();
    await page.getByText('Setup checklist: 4 of 4 steps done.').waitFor();
    await browser.open('/app');
    await page.getByText('Setup checklist: 4 of 4 steps done.').waitFor();
    expect(await page.getByRole('heading', { name: 'Launch your loyalty program' }).count()).toBe(0);
    await browser.shot('onboarding-folded');
    await page.getByRole('button', { name: 'Show setup checklist' }).click();
    await page.getByRole('heading', { name: 'Launch your loyalty program' }).waitFor();
    await page.getByRole('button', { name: 'Hide checklist' }).click();
    await page.getByText('Setup checklist: 4 of 4 steps done.').waitFor();
  });

  it('in German when the merchant’s admin is German', async () => {
    const { browser } = admin;
    await browser.open('/app?locale=de');
    await browser.page.getByRole('button', { name: 'Einrichtungs-Checkliste anzeigen' }).click();
    await browser.page.getByRole('heading', { name: 'Starte dein Treueprogramm' }).waitFor();
    await browser.page.getByText('Das Widget ist in deinem Live-Theme „Dawn“ eingeschaltet.').waitFor();
    // With every step done, the first is the open one. German puts the euro sign after the amount, behind a no-break space.
    const card = await browser.page.getByRole('region', { name: 'Monatliche Einkaufs-Challenge' }).innerText();
    expect(card.replace(/\u00a0/g, ' ')).toContain('Eine Prämie bei 100 € (5 € Rabatt) und bei 200 € (15 € Rabatt)');
    await browser.shot('onboarding-de');
  });

  it('Points and tiers from the checklist in two clicks; the shopper’s next paid order earns its points', async () => {
    const { browser } = admin;
    const page = browser.page;
    await browser.open('/app');
    const show = page.getByRole('button', { name: 'Show setup checklist' });
    if (await show.count()) await show.click();
    // Done before (the whole file), the first step is folded; alone, it is open.
    const choose = page.getByRole('button', { name: 'Choose: Points and tiers' });
    if (!(await choose.count())) await page.getByRole('button', { name: 'Show step: 1. Choose a program' }).click();
    await choose.click();
    await page.getByRole('button', { name: 'Create program' }).click();
    await page.getByText(/^Created “.+” \(Live\)\.$/).waitFor();
    const [setting] = (await api.get('/schema/points_setting/record')).body.data;
    expect(setting).toMatchObject({
      status: 'live',
      pointsPerCurrencyUnit: 1,
      pointsOnSignUp: 100,
      pointsOnBirthday: 100,
      pointsOnReferral: 500,
      pointsOnReferredOrder: 250,
    });
    const tiers = (await api.get('/schema/tier/record')).body.data as { pointsThreshold: number; earnMultiplier: number }[];
    expect(tiers.map((t) => [t.pointsThreshold, t.earnMultiplier]).sort((a, b) => a[0]! - b[0]!)).toEqual([
      [500, 1.2],
      [1500, 1.5],
    ]);
    await browser.shot('onboarding-points-tiers');

    // The merchant's goal: Ines pays her next order (80 of products) and holds 80 points.
    const order = orderPayload(5002, {
      customer: { id: 9901, first_name: 'Ines', last_name: 'Shopper', email: 'ines@example.com' },
      lines: [{ product: 1, quantity: 2, price: '40.00' }],
    });
    const request = await webhookRequest('orders/paid', order);
    const res = await fetch(`${admin.server.url}/webhooks/orders/paid`, {
      method: 'POST',
      headers: request.headers,
      body: await request.text(),
    });
    expect(res.status).toBe(200);
    const ines = {
      operator: 'and',
      conditions: [{ fieldSlug: 'externalId', operator: 'equals', fieldValue: 'gid://shopify/Customer/9901' }],
    };
    await until(
      'the order’s points',
      async () => (await api.get('/schema/account_user/record', { filters: ines })).body.data[0]?.pointsBalance === 80,
    );
    await browser.open('/app/members?q=ines');
    await page.getByRole('link', { name: 'Ines Shopper' }).click();
    await page.getByText('Balance: 80', { exact: true }).waitFor();
    // The order says what it earned in points too (a points-only program counts nothing else).
    const card = page.getByRole('region', { name: 'Orders and what they earned' }).getByRole('region', { name: '#5002' });
    expect((await card.innerText()).replace(/\s+/g, ' ')).toContain('Points: +80');
    await browser.shot('onboarding-points-order');
  });
});
