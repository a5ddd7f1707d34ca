import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Demo, dialog, launcher, screenshot, startDemo, tabPanel, violations, widgetFocus } from './support/browser.js';

// A referred friend's gift (a one-time code for their first order) on /demo, the page given a
// `referralUrl` as the theme embed gives it; the test answers that endpoint as the Shopify app's
// app proxy would, on the page's own origin.
let demo: Demo;
let shopper: string;

const REFERRAL_URL = '/apps/loyalty/referral';
const CODE = 'K7M3QX9P';
const TITLE = '10% off your first order';
const OFFER = { offer: { title: TITLE } };
const CLAIMED = { code: 'FRIEND-7KQ2M9XP', title: TITLE, applyUrl: '/discount/FRIEND-7KQ2M9XP?redirect=%2Fcart' };
const refusal = (code: string) => ({ error: { code, message: `Refused: ${code}` } });

type Answer = { status: number; body: unknown; headers?: Record<string, string> } | 'abort';
interface Call {
  method: string;
  code: string | null;
  accept: string | undefined;
  contentType: string | undefined;
  body: unknown;
}

/**
 * /demo with `referralUrl` in its init, and the endpoint answering `answers` (changed as a test
 * goes; a list is answered in turn, its last one from then on), every call recorded with its time.
 */
async function shop(page: Page) {
  const calls: Call[] = [];
  const times: number[] = [];
  const answers: { get: Answer | Answer[]; post: Answer } = { get: { status: 200, body: OFFER }, post: { status: 200, body: CLAIMED } };
  await page.route(
    (url) => url.pathname === '/demo',
    async (route) => {
      const res = await route.fetch();
      const html = await res.text();
      const given = html.replace('LoyaltyWidget.init({', `LoyaltyWidget.init({"referralUrl":${JSON.stringify(REFERRAL_URL)},`);
      expect(given).not.toBe(html);
      await route.fulfill({ response: res, body: given });
    },
  );
  await page.route(
    (url) => url.pathname === REFERRAL_URL,
    async (route) => {
      const request = route.request();
      const headers = request.headers();
      calls.push({
        method: request.method(),
        code: new URL(request.url()).searchParams.get('code'),
        accept: headers.accept,
        contentType: headers['content-type'],
        body: request.postDataJSON(),
      });
      times.push(Date.now());
      const get = answers.get;
      const answer = request.method() === 'POST' ? answers.post : Array.isArray(get) ? (get.length > 1 ? get.shift()! : get[0]!) : get;
      if (answer === 'abort') return route.abort();
      return route.fulfill({
        status: answer.status,
        headers: answer.headers,
        contentType: 'application/json',
        body: JSON.stringify(answer.body),
      });
    },
  );
  return { calls, times, answers };
}

const card = (page: Page) => dialog(page).locator('[data-gift]');
/** The page loaded, and whatever the widget asks on its own asked: the panel open now is open by itself. */
const settled = (page: Page) => page.waitForLoadState('networkidle');
const SLOW = { timeout: 60_000 };

beforeAll(async () => {
  demo = await startDemo();
  shopper = await demo.shopper();
});
afterAll(async () => {
  await demo?.close();
});

describe('a referred friend’s gift for a guest', SLOW, () => {
  it('asks nothing while the browser keeps no referral code', async () => {
    const { page, errors } = await demo.newPage();
    const { calls } = await shop(page);
    await page.goto(`${demo.app.url}/demo`);
    await settled(page);
    expect(await dialog(page).count()).toBe(0);
    await launcher(page).click();
    await expect.poll(() => tabPanel(page).textContent()).toContain('Daily visit');
    expect(await card(page).count()).toBe(0);
    expect(calls).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('opens the panel by itself on the link’s first visit, gives the code for an e-mail, and shows it again later without asking', async () => {
    const { page, errors } = await demo.newPage();
    const { calls } = await shop(page);
    await page.goto(`${demo.app.url}/demo?loyalty_ref=${CODE}`);
    // No click: the friend sees what they were sent for.
    await expect.poll(() => card(page).count()).toBe(1);
    expect(calls).toEqual([{ method: 'GET', code: CODE, accept: 'application/json', contentType: undefined, body: null }]);
    expect(await card(page).getByRole('heading', { level: 3 }).textContent()).toBe('A gift from a friend');
    expect(await card(page).locator('p').first().textContent()).toBe(TITLE);
    const email = card(page).getByLabel('Enter your e-mail to get your code.');
    expect(await email.getAttribute('type')).toBe('email');
    const claim = card(page).getByRole('button', { name: 'Get my code' });
    // Above the tab's content, which is still there.
    await expect.poll(() => tabPanel(page).textContent()).toContain('Daily visit');
    expect(await violations(page)).toEqual([]);
    await screenshot(page, 'gift-guest');

    // Once: the same link again (a reload) leaves the panel closed.
    await page.keyboard.press('Escape');
    await page.reload();
    await settled(page);
    expect(await dialog(page).count()).toBe(0);
    expect(calls).toHaveLength(1);
    await launcher(page).click();
    await expect.poll(() => card(page).count()).toBe(1);
    expect(calls).toHaveLength(2);

    // Not an address: the browser says so, and nothing is sent.
    await email.fill('not an address');
    await claim.click();
    expect(await email.evaluate((el: HTMLInputElement) => el.validity.valid)).toBe(false);
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);

    await email.fill('friend@example.com');
    await claim.click();
    const code = card(page).locator('code');
    await expect.poll(() => code.textContent()).toBe('FRIEND-7KQ2M9XP');
    expect(calls[2]).toEqual({
      method: 'POST',
      code: null,
      accept: 'application/json',
      contentType: 'application/json',
      body: { code: CODE, email: 'friend@example.com' },
    });
    // Focus goes to the code, not lost with the form that went.
    await expect.poll(async () => (await widgetFocus(page))?.text).toBe('FRIEND-7KQ2M9XP');
    expect(await card(page).getByRole('button', { name: 'Copy code' }).count()).toBe(1);
    expect(await card(page).getByRole('link', { name: 'Apply to my cart' }).getAttribute('href')).toBe(CLAIMED.applyUrl);
    expect(await card(page).getByLabel('Enter your e-mail to get your code.').count()).toBe(0);
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('loyalty-ref-claim')))!)).toMatchObject({
      ref: CODE,
      code: CLAIMED.code,
      title: TITLE,
      applyUrl: CLAIMED.applyUrl,
    });
    expect(await violations(page)).toEqual([]);
    await screenshot(page, 'gift-claimed');

    // Closed and opened again, and on a later page: the code, asked of nobody.
    await page.keyboard.press('Escape');
    await launcher(page).click();
    expect(await card(page).locator('code').textContent()).toBe(CLAIMED.code);
    await page.goto(`${demo.app.url}/demo?loyalty_ref=${CODE}`);
    await settled(page);
    expect(await dialog(page).count()).toBe(0);
    await launcher(page).click();
    await expect.poll(() => card(page).locator('code').textContent()).toBe(CLAIMED.code);
    expect(await card(page).locator('p').first().textContent()).toBe(TITLE);
    expect(await card(page).getByRole('link', { name: 'Apply to my cart' }).getAttribute('href')).toBe(CLAIMED.applyUrl);
    expect(calls).toHaveLength(3);
    expect(errors).toEqual([]);
  });

  it('speaks the shopper’s language: French, claimed, on a small phone', async () => {
    const { page, errors } = await demo.newPage({ viewport: { width: 320, height: 568 } });
    await shop(page);
    await page.goto(`${demo.app.url}/demo?lang=fr&loyalty_ref=${CODE}`);
    await expect.poll(() => card(page).count()).toBe(1);
    expect(await card(page).getByRole('heading', { level: 3 }).textContent()).toBe('Un cadeau offert par un ami');
    // The title as the shop wrote it.
    expect(await card(page).locator('p').first().textContent()).toBe(TITLE);
    await card(page).getByLabel('Saisissez votre adresse e-mail pour recevoir votre code.').fill('ami@example.com');
    await screenshot(page, 'gift-guest-fr');
    await card(page).getByRole('button', { name: 'Obtenir mon code' }).click();
    await expect.poll(() => card(page).locator('code').textContent()).toBe(CLAIMED.code);
    expect(await card(page).getByRole('button', { name: 'Copier le code' }).count()).toBe(1);
    expect(await card(page).getByRole('link', { name: 'Appliquer à mon panier' }).count()).toBe(1);
    // The code, its button and the link inside the panel, nothing scrolled sideways.
    const fit = await dialog(page).evaluate((panel) => {
      const body = panel.querySelector('[role="tabpanel"]')!;
      const edge = panel.getBoundingClientRect();
      const outside = [...panel.querySelectorAll('[data-gift] code, [data-gift] button, [data-gift] a')].filter((el) => {
        const box = el.getBoundingClientRect();
        return box.left < edge.left || box.right > edge.right;
      });
      return { sideways: body.scrollWidth - body.clientWidth, outside: outside.length };
    });
    expect(fit).toEqual({ sideways: 0, outside: 0 });
    expect(await violations(page)).toEqual([]);
    await screenshot(page, 'gift-claimed-fr');
    expect(errors).toEqual([]);
  });

  it('says why a claim was refused, and keeps the form for another try', async () => {
    const { page, errors } = await demo.newPage();
    const { calls, answers } = await shop(page);
    await page.goto(`${demo.app.url}/demo?loyalty_ref=${CODE}`);
    await expect.poll(() => card(page).count()).toBe(1);
    await card(page).getByLabel('Enter your e-mail to get your code.').fill('customer@example.com');
    const claim = card(page).getByRole('button', { name: 'Get my code' });
    const said = card(page).getByRole('alert');
    for (const [answer, text] of [
      [{ status: 409, body: refusal('not_new_customer') }, "This gift is for a customer's first order."],
      [{ status: 409, body: refusal('own_referral') }, 'This is your own link.'],
      [{ status: 400, body: refusal('invalid_input') }, "We couldn't get your code. Please try again."],
      [{ status: 429, body: refusal('rate_limited') }, "We couldn't get your code. Please try again."],
      [{ status: 503, body: '<html>Bad gateway</html>' }, "We couldn't get your code. Please try again."],
      ['abort', "We couldn't get your code. Please try again."],
    ] as const) {
      answers.post = answer;
      const sent = calls.length;
      await claim.click();
      // Sent, the refusal before it gone: what shows is this answer's.
      await expect.poll(() => calls.length).toBe(sent + 1);
      await expect.poll(() => said.textContent(), { message: JSON.stringify(answer) }).toBe(text);
    }
    expect(await card(page).getByLabel('Enter your e-mail to get your code.').inputValue()).toBe('customer@example.com');
    expect(await card(page).locator('code').count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem('loyalty-ref-claim'))).toBeNull();
    answers.post = { status: 409, body: refusal('not_new_customer') };
    await claim.click();
    await expect.poll(() => said.textContent()).toBe("This gift is for a customer's first order.");
    expect(await violations(page)).toEqual([]);
    await screenshot(page, 'gift-refused');
    expect(errors).toEqual([]);
  });

  it('shows no card and opens nothing where the shop has no gift for the code (404), and asks no more that session', async () => {
    const { page, errors } = await demo.newPage();
    const { calls, answers } = await shop(page);
    answers.get = { status: 404, body: refusal('not_found') };
    await page.goto(`${demo.app.url}/demo?loyalty_ref=${CODE}`);
    await expect.poll(() => calls.length).toBe(1);
    await settled(page);
    expect(await dialog(page).count()).toBe(0);
    await launcher(page).click();
    await expect.poll(() => tabPanel(page).textContent()).toContain('Daily visit');
    expect(await card(page).count()).toBe(0);
    // The next page of the visit: the code is still kept, and not asked about again.
    await page.goto(`${demo.app.url}/demo`);
    await launcher(page).click();
    await expect.poll(() => tabPanel(page).textContent()).toContain('Daily visit');
    expect(calls).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it('waits out the shop’s guests’ limit (429) as its Retry-After says, then shows the gift', async () => {
    const { page, errors } = await demo.newPage();
    const { calls, times, answers } = await shop(page);
    answers.get = [
      { status: 429, body: refusal('rate_limited'), headers: { 'retry-after': '2' } },
      { status: 200, body: OFFER },
    ];
    await page.goto(`${demo.app.url}/demo?loyalty_ref=${CODE}`);
    await expect.poll(() => card(page).count(), { timeout: 10_000 }).toBe(1);
    expect(await card(page).locator('p').first().textContent()).toBe(TITLE);
    expect(calls.map((c) => c.code)).toEqual([CODE, CODE]);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(1_900);
    expect(errors).toEqual([]);
  });

  it('asks again on the next page where no answer said whether there is a gift (503)', async () => {
    const { page, errors } = await demo.newPage();
    const { calls, answers } = await shop(page);
    answers.get = [
      { status: 503, body: refusal('unavailable') },
      { status: 200, body: OFFER },
    ];
    await page.goto(`${demo.app.url}/demo?loyalty_ref=${CODE}`);
    await expect.poll(() => calls.length).toBe(1);
    await settled(page);
    expect(await dialog(page).count()).toBe(0);
    await page.goto(`${demo.app.url}/demo`);
    await launcher(page).click();
    await expect.poll(() => card(page).count()).toBe(1);
    expect(calls).toHaveLength(2);
    expect(errors).toEqual([]);
  });
});

describe('the referral card of a member whose friends get a gift', SLOW, () => {
  it('says the gift the friend gets and the points the member gets, in English and German, and offers the member no gift of their own', async () => {
    const { referralCode } = (await demo.api.get(`/schema/account_user/record/${shopper}`)).body.data as { referralCode: string };
    // The shop gives friends a gift (any of its rewards; the endpoint answers its title): the widget asks for it only then.
    const setting = (await demo.api.get('/schema/points_setting/record')).body.data[0] as { id: string };
    const giftFor = async (referralRewardId: string | null) =>
      expect((await demo.api.patch(`/schema/points_setting/record/${setting.id}`, { referralRewardId })).status).toBe(200);
    await giftFor(((await demo.api.get('/schema/reward/record', { limit: '1' })).body.data[0] as { id: string }).id);
    const { page, errors } = await demo.newPage();
    const { calls, answers } = await shop(page);
    const referral = tabPanel(page).locator('[data-referral]');
    const sentence = () => referral.locator('p').textContent();
    // A member who once followed a friend's link: the gift is for new customers, and the panel stays closed.
    await page.goto(`${demo.app.url}/demo?mode=member&loyalty_ref=${CODE}`);
    await settled(page);
    expect(await dialog(page).count()).toBe(0);
    await launcher(page).click();
    await dialog(page).getByRole('tab', { name: 'Stars' }).click();
    await expect.poll(sentence).toBe('Friends get “10% off your first order”, and you get 500 Stars when they place their first order.');
    expect(calls).toEqual([{ method: 'GET', code: referralCode, accept: 'application/json', contentType: undefined, body: null }]);
    expect(await card(page).count()).toBe(0);
    expect(await violations(page)).toEqual([]);
    await referral.scrollIntoViewIfNeeded();
    await screenshot(page, 'points-member-referral-gift');

    await page.goto(`${demo.app.url}/demo?mode=member&lang=de`);
    await launcher(page).click();
    await dialog(page).getByRole('tab', { name: 'Sterne' }).click();
    await expect
      .poll(sentence)
      .toBe('Freunde erhalten „10% off your first order“, und du erhältst 500 Sterne, wenn sie zum ersten Mal bestellen.');
    expect(await violations(page)).toEqual([]);
    await referral.scrollIntoViewIfNeeded();
    await screenshot(page, 'points-member-referral-gift-de');

    // No gift: the friend's points, as without the endpoint.
    answers.get = { status: 404, body: refusal('not_found') };
    await page.goto(`${demo.app.url}/demo?mode=member`);
    await launcher(page).click();
    await dialog(page).getByRole('tab', { name: 'Stars' }).click();
    await referral.waitFor();
    await expect.poll(() => calls.length).toBe(3);
    expect(await sentence()).toBe('Give friends 250 Stars on their first order and get 500 Stars when they place it.');

    // A shop that gives no gift is not asked.
    await giftFor(null);
    await page.goto(`${demo.app.url}/demo?mode=member`);
    await launcher(page).click();
    await dialog(page).getByRole('tab', { name: 'Stars' }).click();
    await referral.waitFor();
    expect(await sentence()).toBe('Give friends 250 Stars on their first order and get 500 Stars when they place it.');
    expect(calls).toHaveLength(3);
    expect(errors).toEqual([]);
  });
});
