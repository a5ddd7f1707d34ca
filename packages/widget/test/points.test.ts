import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Demo, dialog, launcher, screenshot, startDemo, tabPanel, violations, widgetFocus } from './support/browser.js';

// The points tab (CONTRACT §19) on /demo, with the points, tiers and rewards the demo seeds.
let demo: Demo;
let shopper: string;
let settingId: string;

async function create(slug: string, body: Record<string, unknown>): Promise<string> {
  const res = await demo.api.post(`/schema/${slug}/record`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.id as string;
}
const entry = (points: number, reason: string) => create('point_entry', { ownedById: shopper, points, reason });
const balance = async () => (await demo.api.get(`/schema/account_user/record/${shopper}`)).body.data.pointsBalance as number;

beforeAll(async () => {
  // The demo seeds points as a shop runs them: Stars (2 a unit spent, 10 an order, 100 on sign-up, 50 for the newsletter, 200 on a birthday,
  // 500 for referring a friend, whose first order gets 250),
  // Silver, Gold and Platinum tiers, €5 off for 300 Stars, €10 off for 800, 20% off for 2,000 (no
  // title: the widget says what it gives), and the shopper's 380 Stars for signing up and two orders.
  demo = await startDemo();
  const [setting] = (await demo.api.get('/schema/points_setting/record')).body.data as { id: string }[];
  settingId = setting!.id;
  // A streak milestone that gives points is a way to earn them.
  const streak = (await demo.api.get('/schema/streak/record')).body.data[0] as { id: string };
  const bonus = await create('reward', {
    name: 'Streak stars',
    description: 'd',
    rewardKind: 'points',
    pointsValue: 50,
    rewardExpiryType: 'no_expiry',
  });
  await create('milestone', {
    linkedSchemaSlug: 'streak',
    linkedSchemaRecordId: streak.id,
    name: 'Five days',
    description: 'd',
    milestoneTargetValue: 5,
    status: 'live',
    rewardId: bonus,
    eudTitle: 'Five days in a row',
  });
  // A fixed amount says how much in the shop's currency, which the page names, rather than the milestone's reward title.
  const fiver = await create('reward', {
    name: 'Fiver',
    description: 'd',
    discountType: 'fixed_amount',
    discountValue: 5,
    rewardExpiryType: 'no_expiry',
  });
  await create('milestone', {
    linkedSchemaSlug: 'streak',
    linkedSchemaRecordId: streak.id,
    name: 'Ten days',
    description: 'd',
    milestoneTargetValue: 10,
    status: 'live',
    rewardId: fiver,
    eudTitle: 'Ten days in a row',
    eudMilestoneRewardTitle: 'A treat',
  });
  shopper = await demo.shopper();
  expect(await balance()).toBe(380);
  // Into Gold (500), 800 short of Platinum (2,000); earned in Silver, so not multiplied.
  await entry(820, 'earned');
});
afterAll(async () => {
  await demo?.close();
});

async function openPoints(page: Page, query: string, tab: string): Promise<void> {
  await page.goto(`${demo.app.url}/demo${query}`);
  await launcher(page).click();
  await dialog(page).getByRole('tab', { name: tab }).click();
  await tabPanel(page).locator('[data-earn]').waitFor();
}
/** The history's rows as the member reads them: date, what, points. */
const historyRows = (page: Page) =>
  tabPanel(page)
    .locator('[data-history] li')
    .evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent).join(' | ')));
const texts = (page: Page, selector: string) => tabPanel(page).locator(selector).allTextContents();
// Each test loads the panel twice and runs axe on it; under CI's load that took 20 s of the default 30.
const SLOW = { timeout: 60_000 };

describe('the points tab for a guest', SLOW, () => {
  it('shows the ways to earn and what rewards cost, without Redeem buttons, in English and French', async () => {
    const { page, errors } = await demo.newPage();
    await openPoints(page, '', 'Stars');
    // The leaderboard's tab comes with its own read, which may answer after the points'.
    await expect
      .poll(() => dialog(page).getByRole('tab').allTextContents())
      .toEqual(['Streaks', 'Challenges', 'Missions', 'Leaderboard', 'Stars', 'Rewards']);
    expect(await texts(page, '[data-earn] li')).toEqual([
      // The demo page passes the shop's currency, as the theme embed does.
      'For every €1 spent+2 Stars',
      'Every order+10 Stars',
      'Creating an account+100 Stars',
      'Subscribing to our newsletter+50 Stars',
      'Your birthday+200 Stars',
      'Refer a friend+500 Stars',
      'Following us on Instagram+25 Stars',
      'Following us on TikTok+25 Stars',
      'Daily visit · Five days in a row+50 Stars',
    ]);
    // A guest cannot earn for a follow: no button to press.
    expect(await tabPanel(page).locator('[data-earn] button').count()).toBe(0);
    // A guest has no link to share: referring is only among the ways to earn.
    expect(await tabPanel(page).locator('[data-referral]').count()).toBe(0);
    // Cheapest first; a reward without a title says what it gives.
    expect(await texts(page, '[data-redeem] > li')).toEqual(['€5 off300 Stars', '€10 off800 Stars', '20% off2,000 Stars']);
    expect(await tabPanel(page).getByRole('button', { name: 'Redeem' }).count()).toBe(0);
    expect(await tabPanel(page).locator('[data-balance]').count()).toBe(0);
    expect(await tabPanel(page).textContent()).toContain('Sign in to redeem.');
    expect(await violations(page)).toEqual([]);
    await screenshot(page, 'points-guest');

    // The milestone's points show on the streak's own tab too, in the merchant's name for them.
    await dialog(page).getByRole('tab', { name: 'Streaks' }).click();
    await expect.poll(() => texts(page, '[data-milestones] li')).toContain('5Five days in a row+50 Stars');
    expect(await texts(page, '[data-milestones] li')).toContain('10Ten days in a row€5 off');

    await openPoints(page, '?lang=fr', 'Étoiles');
    expect(await tabPanel(page).getByRole('heading', { level: 3 }).allTextContents()).toEqual(['Récompenses à échanger', 'Comment gagner']);
    expect(await texts(page, '[data-earn] li')).toContain(
      `Pour chaque ${new Intl.NumberFormat('fr', { style: 'currency', currency: 'EUR', maximumFractionDigits: 0 }).format(1)} dépensé+2 Étoiles`,
    );
    expect(await texts(page, '[data-redeem] > li')).toEqual([
      '5 € de réduction300 Étoiles',
      '10 € de réduction800 Étoiles',
      // Spaced as Intl spaces French numbers.
      `${new Intl.NumberFormat('fr', { style: 'percent' }).format(0.2)} de réduction${new Intl.NumberFormat('fr').format(2000)} Étoiles`,
    ]);
    expect(await tabPanel(page).textContent()).toContain('Connectez-vous pour échanger.');
    expect(await violations(page)).toEqual([]);
    await screenshot(page, 'points-guest-fr');
    await dialog(page).getByRole('tab', { name: 'Séries' }).click();
    await expect.poll(() => texts(page, '[data-milestones] li')).toContain('10Ten days in a row5\u00a0€ de réduction');
    expect(errors).toEqual([]);
  });
});

describe('a bonus points event', SLOW, () => {
  it('is said above the ways to earn while it runs, with orders’ rates multiplied, in English and German', async () => {
    const now = Date.now();
    const event = {
      bonusMultiplier: 2,
      bonusStartsAt: new Date(now - 3_600_000).toISOString(),
      bonusEndsAt: new Date(now + 86_400_000).toISOString(),
    };
    expect((await demo.api.patch(`/schema/points_setting/record/${settingId}`, event)).status).toBe(200);
    try {
      const { page, errors } = await demo.newPage();
      await openPoints(page, '', 'Stars');
      const ends = (lang: string) =>
        new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'long', hour: 'numeric', minute: '2-digit' }).format(
          new Date(event.bonusEndsAt),
        );
      expect(await tabPanel(page).locator('[data-bonus]').textContent()).toBe(`2× points on orders until ${ends('en')}`);
      // The demo's 2 a unit spent and 10 an order, doubled; the rest as ever.
      expect((await texts(page, '[data-earn] li')).slice(0, 3)).toEqual([
        'For every €1 spent+4 Stars',
        'Every order+20 Stars',
        'Creating an account+100 Stars',
      ]);
      expect(await violations(page)).toEqual([]);
      await screenshot(page, 'points-bonus');
      await openPoints(page, '?lang=de', 'Sterne');
      expect(await tabPanel(page).locator('[data-bonus]').textContent()).toBe(`2-fache Punkte auf Bestellungen bis ${ends('de')}`);
      expect(errors).toEqual([]);
    } finally {
      await demo.api.patch(`/schema/points_setting/record/${settingId}`, { bonusMultiplier: 1, bonusStartsAt: null, bonusEndsAt: null });
    }
    // Over, it is said nowhere.
    const { page } = await demo.newPage();
    await openPoints(page, '', 'Stars');
    expect(await tabPanel(page).locator('[data-bonus]').count()).toBe(0);
  });
});

describe('the points tab for a member', SLOW, () => {
  it('shows the balance, the tier and the progress to the next one', async () => {
    const { page, errors } = await demo.newPage();
    await openPoints(page, '?mode=member', 'Stars');
    const card = tabPanel(page).locator('[data-balance]');
    expect(await card.locator('.lw-big').textContent()).toBe('1,200 Stars');
    expect(await card.locator('[data-tier]').textContent()).toBe('Gold');
    expect(await card.textContent()).toContain('1.5× Stars on everything you earn');
    const bar = card.getByRole('progressbar', { name: '800 Stars to Platinum' });
    expect([await bar.getAttribute('aria-valuenow'), await bar.getAttribute('aria-valuemax')]).toEqual(['1200', '2000']);
    // A Gold member earns 1.5× (CONTRACT §19): the ways to earn say what this member gets, rounded down as the core credits it.
    expect(await texts(page, '[data-earn] li')).toEqual([
      'For every €1 spent+3 Stars',
      'Every order+15 Stars',
      'Creating an account+150 Stars',
      'Subscribing to our newsletter+75 Stars',
      'Your birthday+300 Stars',
      'Refer a friend+750 Stars',
      // The demo's profiles, each with its button: 25 × 1.5 rounded down.
      'Following us on Instagram+37 StarsFollow',
      'Following us on TikTok+37 StarsFollow',
      'Daily visit · Five days in a row+75 Stars',
    ]);
    expect(await tabPanel(page).locator('h3', { hasText: 'Ways to earn' }).textContent()).toBe('Ways to earn · Gold ×1.5');
    // Its streak's milestone says the same where the streak is shown.
    await dialog(page).getByRole('tab', { name: 'Streaks' }).click();
    await expect.poll(async () => (await texts(page, '[data-milestones] li')).join('|')).toContain('Five days in a row+75 Stars');
    await dialog(page).getByRole('tab', { name: 'Stars' }).click();
    await tabPanel(page).locator('[data-balance]').waitFor();
    // What the balance does not cover says how much is missing, and cannot be pressed.
    const percent = tabPanel(page).locator('[data-redeem] > li').nth(2);
    expect(await percent.getByRole('button', { name: 'Redeem' }).isDisabled()).toBe(true);
    expect(await percent.textContent()).toContain('800 Stars to go');
    // Where the balance came from, newest first: what each entry came from, never an id or a reason code.
    expect(await historyRows(page)).toEqual([
      expect.stringMatching(/^[A-Z][a-z]{2} \d{1,2}, \d{4} \| Earned \| \+820 Stars$/),
      expect.stringMatching(/ \| Order #1002 \| \+150 Stars$/),
      expect.stringMatching(/ \| Order #1001 \| \+130 Stars$/),
      expect.stringMatching(/ \| Creating an account \| \+100 Stars$/),
    ]);
    // The demo's Stars expire after a year without an entry: the date shows; points that never expire say nothing of it.
    const { lastPointEntryAt } = (await demo.api.get(`/schema/account_user/record/${shopper}`)).body.data as { lastPointEntryAt: string };
    const inAYear = new Date(lastPointEntryAt);
    inAYear.setUTCFullYear(inAYear.getUTCFullYear() + 1);
    const day = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' }).format(inAYear);
    expect(await card.locator('[data-expiry]').textContent()).toBe(
      `Your balance of 1,200 Stars expires on ${day} unless you earn or redeem before then.`,
    );
    expect(await violations(page)).toEqual([]);
    await screenshot(page, 'points-member');
    await demo.api.patch(`/schema/points_setting/record/${settingId}`, { expiryMonthsOfInactivity: 0 });
    try {
      await openPoints(page, '?mode=member', 'Stars');
      expect(await card.locator('[data-expiry]').count()).toBe(0);
    } finally {
      await demo.api.patch(`/schema/points_setting/record/${settingId}`, { expiryMonthsOfInactivity: 12 });
    }
    await tabPanel(page).locator('[data-history]').scrollIntoViewIfNeeded();
    await screenshot(page, 'points-member-history');

    // On a phone, the label of the progress wraps, never its numbers ("1 200 /" above "2 000").
    await page.setViewportSize({ width: 375, height: 667 });
    await openPoints(page, '?mode=member&lang=fr', 'Étoiles');
    expect(await card.locator('.lw-big').textContent()).toBe(`${new Intl.NumberFormat('fr').format(1200)} Étoiles`);
    const pair = card.locator('.lw-row').filter({ hasText: ' / ' }).locator('span').last();
    expect(await pair.textContent()).toBe(`${new Intl.NumberFormat('fr').format(1200)} / ${new Intl.NumberFormat('fr').format(2000)}`);
    const lines = await pair.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    });
    expect(lines).toBe(1);
    expect(await tabPanel(page).locator('h3', { hasText: 'Comment gagner' }).textContent()).toBe('Comment gagner · Gold ×1,5');
    expect(await card.getByRole('progressbar').getAttribute('aria-label')).toBe('Encore 800 Étoiles pour Platinum');
    expect(await tabPanel(page).getByRole('button', { name: 'Échanger' }).count()).toBe(3);
    expect(await tabPanel(page).locator('h3', { hasText: 'Historique' }).count()).toBe(1);
    expect((await historyRows(page))[0]).toMatch(/ \| Gain \| \+820 Étoiles$/);
    expect(await violations(page)).toEqual([]);
    await screenshot(page, 'points-member-fr');
    expect(errors).toEqual([]);
  });

  it('redeems a reward by keyboard on a phone: the code with its copy button in view, the balance lowered, focus on what came of it', async () => {
    const { page, errors } = await demo.newPage();
    await page.setViewportSize({ width: 375, height: 667 });
    await openPoints(page, '?mode=member', 'Stars');
    const five = tabPanel(page).locator('[data-redeem] > li').first();
    // Named "Redeem", described by the reward's title: a screen reader tells one reward's button from another's.
    const button = five.locator('button.lw-redeem');
    expect(await button.textContent()).toBe('Redeem');
    const title = await five.locator('h4').textContent();
    expect(await five.locator(`#${await button.getAttribute('aria-describedby')}`).textContent()).toBe(title);
    await button.focus();
    // The answer held until the second Enter: while it is on its way the button keeps focus, and that Enter redeems nothing more.
    // Counted from the page's own requests: a route's handler has once missed one under CI's load.
    let redemptions = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname.endsWith('/action/redeem')) redemptions++;
    });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/action/redeem*', async (route) => {
      await held;
      await route.continue();
    });
    await page.keyboard.press('Enter');
    await expect.poll(() => button.getAttribute('aria-disabled')).toBe('true');
    // On its way, the button says so.
    expect((await widgetFocus(page))?.text).toBe('Loading…');
    await page.keyboard.press('Enter');
    release();
    await expect.poll(() => five.getByRole('status').first().textContent()).toBe('Redeemed!');
    expect(redemptions).toBe(1);
    // Focus never drops to the page: it moves to the outcome, and Tab goes on to the code's copy button.
    await expect.poll(async () => (await widgetFocus(page))?.text).toBe('Redeemed!');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('LOYALTY-WIDGET');
    // The new code below the outcome is scrolled into the panel's view with it.
    const shown = await tabPanel(page).evaluate((panel) => {
      const copy = panel.querySelector('[data-redeem] [data-copy]')!.getBoundingClientRect();
      const view = panel.getBoundingClientRect();
      return copy.top >= view.top && copy.bottom <= view.bottom;
    });
    expect(shown).toBe(true);
    await page.keyboard.press('Tab');
    expect((await widgetFocus(page))?.text).toBe('Copy code');
    expect(await five.locator('code').textContent()).toMatch(/^STARS5/);
    expect(await five.getByRole('button', { name: 'Copy code' }).count()).toBe(1);
    expect(await tabPanel(page).locator('[data-balance] .lw-big').textContent()).toBe('900 Stars');
    expect(await balance()).toBe(900);
    // Redeeming spends points; it does not lower the tier. The history names what the points bought.
    expect(await tabPanel(page).locator('[data-tier]').textContent()).toBe('Gold');
    await expect.poll(async () => (await historyRows(page))[0]).toMatch(/ \| Redeemed: €5 off \| −300 Stars$/);
    expect(await violations(page)).toEqual([]);
    await screenshot(page, 'points-member-redeemed');

    // A redeemed code (16 characters) and its copy button stay inside the panel on a small phone.
    await page.setViewportSize({ width: 320, height: 568 });
    const fit = await dialog(page).evaluate((panel) => {
      const body = panel.querySelector('[role="tabpanel"]')!;
      const edge = panel.getBoundingClientRect();
      const copy = panel.querySelector('[data-redeem] [data-copy]')!.getBoundingClientRect();
      return { sideways: body.scrollWidth - body.clientWidth, inside: copy.left >= edge.left && copy.right <= edge.right };
    });
    expect(fit).toEqual({ sideways: 0, inside: true });
    await five.locator('[data-copy]').scrollIntoViewIfNeeded();
    await screenshot(page, 'points-member-redeemed-320');

    // A page that allows no copying (no clipboard on plain http, a permission refused): the code is selected for the shopper instead.
    await page.evaluate(() => {
      Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.reject(new Error('denied')) } });
      document.execCommand = () => false;
    });
    await five.locator('[data-copy]').click();
    await expect.poll(() => page.evaluate(() => getSelection()?.toString())).toBe(await five.locator('code').textContent());
    expect(await five.locator('[data-copy]').textContent()).toBe('Copy code');

    // The new reward is among the member's rewards.
    await dialog(page).getByRole('tab', { name: 'Rewards' }).click();
    await expect.poll(() => tabPanel(page).textContent()).toMatch(/STARS5/);
    expect(errors).toEqual([]);
  });

  it('asks for the birthday once, by month and day in the shopper’s language, and then says it', async () => {
    const { page, errors } = await demo.newPage();
    await openPoints(page, '?mode=member', 'Stars');
    const form = tabPanel(page).locator('[data-birthday-form]');
    expect(await form.locator('p').first().textContent()).toBe('Tell us your birthday and get 300 Stars on it.');
    expect(await form.locator('p').nth(1).textContent()).toBe('A birthday less than 30 days away counts from next year.');
    const save = form.getByRole('button', { name: 'Save' });
    expect(await save.isDisabled()).toBe(true);
    await form.getByLabel('Month').selectOption({ label: 'April' });
    // April has 30 days; February 29 (some years have it).
    expect(await form.getByLabel('Day').locator('option').count()).toBe(31);
    await form.getByLabel('Month').selectOption({ label: 'February' });
    expect(await form.getByLabel('Day').locator('option').allTextContents()).toContain('29');
    await form.getByLabel('Day').selectOption('29');
    expect(await violations(page)).toEqual([]);
    await form.scrollIntoViewIfNeeded();
    await screenshot(page, 'points-member-birthday');
    // A save that fails says so and keeps the choice for another try.
    const refuse = (route: Route) =>
      route.request().method() === 'PATCH' ? route.fulfill({ status: 503, contentType: 'application/json', body: '{}' }) : route.continue();
    await page.route('**/account_user/me*', refuse);
    await save.click();
    await expect.poll(() => form.getByRole('alert').textContent()).toBe('Your birthday could not be saved. Please try again.');
    expect(await form.getByLabel('Day').inputValue()).toBe('29');
    await page.unroute('**/account_user/me*', refuse);
    await save.click();
    await expect.poll(() => tabPanel(page).locator('[data-birthday]').textContent()).toBe('Your birthday: February 29');
    expect(await form.count()).toBe(0);
    expect((await demo.api.get(`/schema/account_user/record/${shopper}`)).body.data.birthday).toBe('02-29');
    // Set once: opened again, the tab says it and asks no more; the shop may change it.
    await openPoints(page, '?mode=member', 'Stars');
    expect(await tabPanel(page).locator('[data-birthday-form]').count()).toBe(0);
    expect(await tabPanel(page).locator('[data-birthday]').textContent()).toBe('Your birthday: February 29');
    expect(errors).toEqual([]);
    expect((await demo.api.patch(`/schema/account_user/record/${shopper}`, { birthday: null })).status).toBe(200);
  });

  it('gives the member their referral link to copy, with what it earns both ways, in English and German', async () => {
    const { context, page, errors } = await demo.newPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: demo.app.url });
    const { referralCode } = (await demo.api.get(`/schema/account_user/record/${shopper}`)).body.data as { referralCode: string };
    expect(referralCode).toMatch(/^[2-9A-HJ-NP-Z]{8}$/);
    // The widget runs on the storefront: the link leads to the page's own origin, the demo's here.
    const link = `${demo.app.url}/?loyalty_ref=${referralCode}`;
    await openPoints(page, '?mode=member', 'Stars');
    const card = tabPanel(page).locator('[data-referral]');
    expect(await card.locator('h3').textContent()).toBe('Refer a friend');
    // The member's 500 times Gold's 1.5, as the core credits it; the friend's 250 as set.
    expect(await card.locator('p').textContent()).toBe('Give friends 250 Stars on their first order and get 750 Stars when they place it.');
    const field = card.getByLabel('Your referral link');
    expect(await field.inputValue()).toBe(link);
    expect(await field.getAttribute('readonly')).not.toBeNull();
    const copy = card.getByRole('button', { name: 'Copy link' });
    await copy.click();
    await expect.poll(() => card.locator('[data-copy]').textContent()).toBe('Copied!');
    expect(await card.getByRole('status').textContent()).toBe('Copied!');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    expect(await violations(page)).toEqual([]);
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'points-member-referral');

    // In German, on a small phone: the link scrolls within its field, above its button, inside the panel.
    await page.setViewportSize({ width: 320, height: 568 });
    await openPoints(page, '?mode=member&lang=de', 'Sterne');
    expect(await card.locator('h3').textContent()).toBe('Freunde werben');
    expect(await card.locator('p').textContent()).toBe(
      'Schenke Freunden 250 Sterne auf ihre erste Bestellung und erhalte 750 Sterne, wenn sie bestellen.',
    );
    expect(await card.getByLabel('Dein Empfehlungslink').inputValue()).toBe(link);
    expect(await card.getByRole('button', { name: 'Link kopieren' }).count()).toBe(1);
    const fit = await dialog(page).evaluate((panel) => {
      const body = panel.querySelector('[role="tabpanel"]')!;
      const edge = panel.getBoundingClientRect();
      const copy = panel.querySelector('[data-referral] [data-copy]')!.getBoundingClientRect();
      return { sideways: body.scrollWidth - body.clientWidth, inside: copy.left >= edge.left && copy.right <= edge.right };
    });
    expect(fit).toEqual({ sideways: 0, inside: true });
    expect(await violations(page)).toEqual([]);
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'points-member-referral-de');
    expect(errors).toEqual([]);
  });

  it('says only what is on of a referral, and shows no card while neither earns', async () => {
    const { page, errors } = await demo.newPage();
    const card = tabPanel(page).locator('[data-referral]');
    try {
      await demo.api.patch(`/schema/points_setting/record/${settingId}`, { pointsOnReferral: 0 });
      await openPoints(page, '?mode=member', 'Stars');
      expect(await card.locator('p').textContent()).toBe('Give friends 250 Stars on their first order.');
      expect(await texts(page, '[data-earn] li')).not.toContain('Refer a friend+750 Stars');
      await demo.api.patch(`/schema/points_setting/record/${settingId}`, { pointsOnReferral: 500, pointsOnReferredOrder: 0 });
      await openPoints(page, '?mode=member', 'Stars');
      expect(await card.locator('p').textContent()).toBe('Get 750 Stars when a friend you refer places their first order.');
      await demo.api.patch(`/schema/points_setting/record/${settingId}`, { pointsOnReferral: 0 });
      await openPoints(page, '?mode=member', 'Stars');
      expect(await card.count()).toBe(0);
    } finally {
      await demo.api.patch(`/schema/points_setting/record/${settingId}`, { pointsOnReferral: 500, pointsOnReferredOrder: 250 });
    }
    expect(errors).toEqual([]);
  });

  it('says when the balance no longer covers a reward, and shows the balance as it is now', async () => {
    const { page, errors } = await demo.newPage();
    await openPoints(page, '?mode=member', 'Stars');
    const ten = tabPanel(page).locator('[data-redeem] > li').nth(1);
    const button = ten.locator('button.lw-redeem');
    expect(await button.isDisabled()).toBe(false);
    // Spent elsewhere after the tab was read.
    await entry(-200, 'adjusted');
    await button.click();
    await expect.poll(() => ten.getByRole('alert').textContent()).toBe('Not enough Stars for this reward.');
    await expect.poll(() => tabPanel(page).locator('[data-balance] .lw-big').textContent()).toBe('700 Stars');
    expect(await button.isDisabled()).toBe(true);
    expect(await ten.textContent()).toContain('100 Stars to go');
    expect(await ten.locator('code').count()).toBe(0);
    expect(await balance()).toBe(700);
    expect(await violations(page)).toEqual([]);
    await screenshot(page, 'points-member-insufficient');
    expect(errors).toEqual([]);
  });

  it('tells a member the shop paused (left out by a Shopify customer tag) why, with no Redeem, Follow or referral link to use', async () => {
    const status = async (value: string) =>
      expect((await demo.api.patch(`/schema/account_user/record/${shopper}`, { status: value })).status).toBe(200);
    const { page, errors } = await demo.newPage();
    const said = tabPanel(page).locator('[data-balance] [data-paused]');
    const follows = tabPanel(page)
      .locator('[data-earn]')
      .getByRole('button', { name: /^Follow/ });
    const referral = tabPanel(page).locator('[data-referral]');
    // Live, the member has them all: what pausing takes away.
    await openPoints(page, '?mode=member', 'Stars');
    expect(await said.count()).toBe(0);
    expect(await follows.count()).toBeGreaterThan(0);
    expect(await referral.count()).toBe(1);
    await status('paused');
    try {
      await openPoints(page, '?mode=member', 'Stars');
      expect(await said.textContent()).toBe('Your membership is paused: you can’t earn or redeem for now.');
      // Their Stars still expire, and the date is all they are told: earning or redeeming is not theirs to do.
      expect(await tabPanel(page).locator('[data-balance] [data-expiry]').textContent()).toMatch(
        /^Your balance of [\d,]+ Stars expires on [A-Z][a-z]{2} \d{1,2}, \d{4}\.$/,
      );
      const buttons = tabPanel(page).locator('[data-redeem]').getByRole('button', { name: 'Redeem' });
      expect(await buttons.count()).toBeGreaterThan(0);
      for (const button of await buttons.all()) expect(await button.isDisabled()).toBe(true);
      expect(await follows.count()).toBe(0);
      expect(await referral.count()).toBe(0);
      expect(await violations(page)).toEqual([]);
      await screenshot(page, 'points-member-paused');
      await openPoints(page, '?mode=member&lang=de', 'Sterne');
      expect(await said.textContent()).toBe('Deine Mitgliedschaft ist pausiert: Du kannst vorerst nichts sammeln oder einlösen.');
      await screenshot(page, 'points-member-paused-de');
      expect(errors).toEqual([]);
    } finally {
      await status('live');
    }
  });
});

describe('a leaderboard of points earned this month', SLOW, () => {
  it('is a tab beside the program’s boards: what members earned, not what they hold, with the member’s own rank', async () => {
    const board = await create('leaderboard', {
      name: 'Top earners',
      linkedSchemaSlug: 'points_setting',
      linkedSchemaRecordId: settingId,
      eudTitle: 'Top Stars',
    });
    try {
      const { page, errors } = await demo.newPage();
      await page.goto(`${demo.app.url}/demo?mode=member`);
      // Every frame's tabs, the selected one marked: the extra tabs come with the others, not one by one.
      await page.evaluate(() => {
        const drawn: string[] = [];
        (window as unknown as { drawnTabs: string[] }).drawnTabs = drawn;
        const watch = () => {
          const tabs = document.querySelector('loyalty-widget')?.shadowRoot?.querySelectorAll('[role="tab"]') ?? [];
          const seen = [...tabs].map((t) => (t.getAttribute('aria-selected') === 'true' ? `[${t.textContent}]` : t.textContent)).join(' ');
          if (drawn.at(-1) !== seen) drawn.push(seen);
          requestAnimationFrame(watch);
        };
        watch();
      });
      await launcher(page).click();
      await dialog(page).getByRole('tab', { name: 'Leaderboard' }).click();
      expect(await page.evaluate(() => (window as unknown as { drawnTabs: string[] }).drawnTabs)).toEqual([
        '',
        '[Streaks] Challenges Missions Leaderboard Stars Rewards',
        'Streaks Challenges Missions [Leaderboard] Stars Rewards',
      ]);
      await tabPanel(page).getByRole('button', { name: 'Top Stars' }).click();
      const card = tabPanel(page).locator('[data-standings]');
      await expect.poll(() => card.locator('h3').textContent()).toBe('Top Stars');
      expect(await card.locator('p.lw-muted').first().textContent()).toBe('This month');
      // 1,200 earned; the redemption and the adjustment above spent points, they earned none.
      expect(await card.locator('li').allTextContents()).toEqual(['1Alex M.You1,200 Stars']);
      expect(await violations(page)).toEqual([]);
      await screenshot(page, 'points-leaderboard');
      expect(errors).toEqual([]);
    } finally {
      await demo.api.delete(`/schema/leaderboard/record/${board}`);
    }
  });
});

describe('rewards that are no code in the member’s rewards', SLOW, () => {
  it('say points went to the balance, and show store credit as its amount, instead of promising or offering a code', async () => {
    const challenge = (await demo.api.get('/schema/challenge/record')).body.data[0] as { id: string };
    const milestoneFor = (rewardId: string, target: number, eudTitle: string) =>
      create('milestone', {
        linkedSchemaSlug: 'challenge',
        linkedSchemaRecordId: challenge.id,
        name: eudTitle,
        description: 'd',
        milestoneTargetValue: target,
        status: 'live',
        rewardId,
        eudTitle,
        eudMilestoneRewardTitle: eudTitle,
      });
    const stars = await create('reward', {
      name: 'Challenge stars',
      description: 'd',
      rewardKind: 'points',
      pointsValue: 40,
      rewardExpiryType: 'no_expiry',
    });
    await milestoneFor(stars, 150, 'Bonus Stars');
    // Store credit as the Shopify app issues it: a reward without a code of the core's, whose log the app stamps.
    const credit = await create('reward', {
      name: 'Store credit',
      description: 'd',
      discountType: 'fixed_amount',
      discountValue: 7.5,
      rewardExpiryType: 'no_expiry',
      eudRedeemInstructionMessage: 'Credited to your account: use it at checkout.',
    });
    await milestoneFor(credit, 155, 'Store credit');
    // The demo shopper has spent 130 this week: 30 more reach both milestones.
    const { externalId } = (await demo.api.get(`/schema/account_user/record/${shopper}`)).body.data as { externalId: string };
    await create('challenge_log', {
      challengeId: challenge.id,
      ownedBy: { externalId },
      activityId: 'order',
      activityAt: new Date().toISOString(),
      activityValue: 30,
      uniqueIdentifier: 'widget-test-rewards-without-codes',
    });
    const creditLog = (
      await demo.api.get('/schema/reward_log/record', {
        filters: { operator: 'and', conditions: [{ fieldSlug: 'rewardId', operator: 'equals', fieldValue: credit }] },
      })
    ).body.data[0] as { id: string };
    const stamped = await demo.api.patch(`/schema/reward_log/record/${creditLog.id}`, { couponCode: '7.50 EUR' });
    expect(stamped.status, JSON.stringify(stamped.body)).toBe(200);

    const { page, errors } = await demo.newPage();
    await page.goto(`${demo.app.url}/demo?mode=member`);
    await launcher(page).click();
    await dialog(page).getByRole('tab', { name: 'Rewards' }).click();
    const points = tabPanel(page).locator('li.lw-card', { hasText: 'Bonus Stars' });
    await expect.poll(() => points.locator('p.lw-muted').textContent()).toBe('Added to your balance.');
    const stored = tabPanel(page).locator('li.lw-card', { hasText: 'Store credit' });
    expect(await stored.locator('.lw-big').textContent()).toBe('€7.50');
    expect(await stored.locator('p.lw-muted').textContent()).toBe('Credited to your account: use it at checkout.');
    for (const card of [points, stored]) expect(await card.getByRole('button', { name: 'Copy code' }).count()).toBe(0);
    expect(await violations(page)).toEqual([]);
    await screenshot(page, 'rewards-without-codes');
    expect(errors).toEqual([]);
  });
});

describe('a tier without a title', SLOW, () => {
  it('is "the next tier" and "Your tier" where its name would be (its name is not public), in English and German', async () => {
    const { pointsEarnedInTierWindow: earned } = (await demo.api.get(`/schema/account_user/record/${shopper}`)).body.data as {
      pointsEarnedInTierWindow: number;
    };
    const untitled = await create('tier', { name: 'Probe', status: 'live', pointsThreshold: earned + 70, earnMultiplier: 1.8 });
    try {
      const { page, errors } = await demo.newPage();
      const card = tabPanel(page).locator('[data-balance]');
      const progress = () => card.getByRole('progressbar').getAttribute('aria-label');
      const waysToEarn = (heading: string) => tabPanel(page).locator('h3', { hasText: heading }).textContent();
      await openPoints(page, '?mode=member', 'Stars');
      expect(await progress()).toBe('70 Stars to the next tier');
      await openPoints(page, '?mode=member&lang=de', 'Sterne');
      expect(await progress()).toBe('Noch 70 Sterne bis zur nächsten Stufe');

      // In it, its multiplier the member's.
      await entry(100, 'earned');
      await openPoints(page, '?mode=member&lang=de', 'Sterne');
      expect(await card.locator('[data-tier]').textContent()).toBe('Deine Stufe');
      expect(await waysToEarn('So sammelst du')).toBe('So sammelst du · Deine Stufe ×1,8');
      expect(await progress()).toMatch(/^Noch [\d.]+ Sterne bis Platinum$/);
      await openPoints(page, '?mode=member', 'Stars');
      expect(await card.locator('[data-tier]').textContent()).toBe('Your tier');
      expect(await waysToEarn('Ways to earn')).toBe('Ways to earn · Your tier ×1.8');
      expect(await violations(page)).toEqual([]);
      await screenshot(page, 'points-untitled-tier');
      expect(errors).toEqual([]);
    } finally {
      await demo.api.delete(`/schema/tier/record/${untitled}`);
    }
  });
});

// Last: the follow adds to the member's balance and history, which the tests above count.
describe('points for following the shop’s social profiles', SLOW, () => {
  it('opens the profile in a new tab and credits its first follow once: the balance rises, the row says Followed, in English and German', async () => {
    const { context, page, errors } = await demo.newPage();
    // The networks are not reached from here: the profile's tab gets a stand-in.
    await context.route(/^https:\/\/www\.(instagram|tiktok)\.com\//, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<title>Profile</title>' }),
    );
    const follows: unknown[] = [];
    page.on('request', (req) => {
      if (req.method() === 'POST' && req.url().includes('/action/follow')) follows.push(req.postDataJSON());
    });
    await openPoints(page, '?mode=member', 'Stars');
    const before = await balance();
    const row = tabPanel(page).locator('[data-earn] li', { hasText: 'Instagram' });
    expect(await row.textContent()).toBe('Following us on Instagram+37 StarsFollow');
    const button = row.getByRole('button', { name: 'Follow (Instagram)', exact: true });
    expect(await tabPanel(page).getByRole('button', { name: 'Follow (TikTok)', exact: true }).count()).toBe(1);
    expect(await violations(page)).toEqual([]);
    // The button is at least 24 × 24 px (WCAG 2.5.8).
    const box = (await button.boundingBox())!;
    expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(24);

    // Held until the second press: while the credit is on its way the button does nothing, so that press opens no second tab.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/action/follow*', async (route) => {
      await held;
      await route.continue();
    });
    const [profile] = await Promise.all([context.waitForEvent('page'), button.click()]);
    await profile.waitForURL('https://www.instagram.com/instagram');
    // Opened without a way back to the shop's page.
    expect(await profile.evaluate(() => window.opener)).toBeNull();
    expect(await button.getAttribute('aria-disabled')).toBe('true');
    // Forced: Playwright waits for an aria-disabled button to be enabled.
    await button.click({ force: true });
    release();
    await expect.poll(() => row.textContent()).toBe('Following us on Instagram+37 Stars✓ Followed');
    expect(context.pages()).toHaveLength(2);
    expect(follows).toEqual([{ network: 'instagram' }]);
    expect(await balance()).toBe(before + 37);
    expect(await tabPanel(page).locator('[data-balance] .lw-big').textContent()).toBe(`${(before + 37).toLocaleString('en')} Stars`);
    // The history is read again, as after a redemption: the follow is its newest entry.
    await expect.poll(async () => (await historyRows(page))[0]).toMatch(/ \| Following us on Instagram \| \+37 Stars$/);
    // The pressed button gone, focus stays in the panel, on its row.
    expect((await widgetFocus(page))?.text).toBe('Following us on Instagram+37 Stars✓ Followed');
    await profile.close();
    expect(await violations(page)).toEqual([]);
    await row.scrollIntoViewIfNeeded();
    await screenshot(page, 'points-member-follow');

    // Opened again, in German: followed stays followed, and the history says what the Stars came from.
    await openPoints(page, '?mode=member&lang=de', 'Sterne');
    expect(await texts(page, '[data-earn] li')).toEqual(
      expect.arrayContaining(['Uns auf Instagram folgen+37 Sterne✓ Gefolgt', 'Uns auf TikTok folgen+37 SterneFolgen']),
    );
    expect((await historyRows(page))[0]).toMatch(/ \| Uns auf Instagram folgen \| \+37 Sterne$/);
    // A credit that fails says so beside the list, and the button stays for another try.
    const refuse = (route: Route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{}' });
    await page.unroute('**/action/follow*');
    await page.route('**/action/follow*', refuse);
    const tiktok = tabPanel(page).getByRole('button', { name: 'Folgen (TikTok)', exact: true });
    await Promise.all([context.waitForEvent('page'), tiktok.click()]);
    const alert = tabPanel(page).getByRole('alert');
    await expect.poll(() => alert.textContent()).toBe('Das hat nicht geklappt. Bitte versuche es erneut.');
    // The member is read again after the refusal before the buttons come back.
    await expect.poll(() => tiktok.getAttribute('aria-disabled')).toBe('false');
    expect(await violations(page)).toEqual([]);
    await alert.scrollIntoViewIfNeeded();
    await screenshot(page, 'points-member-follow-de');
    // On a small phone the rows with their buttons stay inside the panel.
    await page.setViewportSize({ width: 320, height: 568 });
    expect(await tabPanel(page).evaluate((body) => body.scrollWidth - body.clientWidth)).toBe(0);
    await page.unroute('**/action/follow*', refuse);
    await Promise.all([context.waitForEvent('page'), tiktok.click()]);
    await expect.poll(() => texts(page, '[data-earn] li')).toContain('Uns auf TikTok folgen+37 Sterne✓ Gefolgt');
    expect(await alert.count()).toBe(0);
    expect(follows).toEqual([{ network: 'instagram' }, { network: 'tiktok' }, { network: 'tiktok' }]);
    expect(await balance()).toBe(before + 74);
    expect(errors).toEqual([]);
  });
});
