import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Demo, dialog, launcher, screenshot, startDemo, violations, widgetFocus } from './support/browser.js';

// The reminder beside the launcher, on /demo: the demo runs Stars with 100 on sign-up, €5 off for
// 300 Stars, €10 off for 800, and its shopper holds 380.
let demo: Demo;
beforeAll(async () => {
  demo = await startDemo();
});
afterAll(async () => {
  await demo?.close();
});

const nudge = (page: Page) => page.locator('loyalty-widget .lw-nudge');
/** The reminder comes five seconds after the page is idle. */
const DUE = { timeout: 15_000 };

/** Counts the page's reads of the points setting, which only the reminder (or an open panel) makes. */
function settingReads(page: Page): () => number {
  let reads = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.endsWith('/schema/points_setting/record')) reads++;
  });
  return () => reads;
}

/** Waits until the page has imported the widget's app, which it does once the page is idle, and past when a reminder would have come. */
async function pastDue(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => performance.getEntriesByType('resource').some((e) => /\/widget\/app-[\w-]+\.js$/.test(e.name))))
    .toBe(true);
  await page.waitForTimeout(6_000);
}

// Each test waits out the reminder's five seconds, some twice: more than the suite's 30 s under CI's load.
describe('the reminder beside the launcher', { timeout: 90_000 }, () => {
  it('tells a guest what an account earns, once a session; pressed, it opens the panel on the points', async () => {
    const { page, errors } = await demo.newPage();
    const reads = settingReads(page);
    await page.goto(`${demo.app.url}/demo`);
    await expect.poll(() => nudge(page).count(), DUE).toBe(1);
    expect(await nudge(page).getAttribute('role')).toBe('status');
    const text = nudge(page).getByRole('button', { name: 'Create an account and get 100 Stars.' });
    expect(await text.count()).toBe(1);
    // Above the launcher, in its corner.
    const [bubble, button] = [await nudge(page).boundingBox(), await launcher(page).boundingBox()];
    expect(bubble!.y + bubble!.height).toBeLessThan(button!.y);
    expect(Math.round(bubble!.x + bubble!.width)).toBe(Math.round(button!.x + button!.width));
    expect(await violations(page)).toEqual([]);
    await screenshot(page, 'nudge-guest');
    // A guest's reminder reads the setting alone.
    expect(reads()).toBe(1);

    await text.click();
    await expect.poll(() => dialog(page).getByRole('tab', { selected: true }).textContent()).toBe('Stars');
    await expect.poll(async () => (await widgetFocus(page))?.text).toBe('Stars');
    expect(await nudge(page).count()).toBe(0);

    // The session's next page reads nothing for it and shows none.
    await page.reload();
    const before = reads();
    await pastDue(page);
    expect(await nudge(page).count()).toBe(0);
    expect(reads()).toBe(before);
    expect(errors).toEqual([]);
  });

  it('tells a member the best reward their balance covers; its × takes it away and leaves focus on the launcher, on a phone too', async () => {
    const { page, errors } = await demo.newPage({ viewport: { width: 320, height: 640 } });
    await page.goto(`${demo.app.url}/demo?mode=member`);
    await expect.poll(() => nudge(page).count(), DUE).toBe(1);
    expect(await nudge(page).textContent()).toBe('You have 380 Stars: enough for €5 off.×');
    const bubble = (await nudge(page).boundingBox())!;
    expect(bubble.x).toBeGreaterThanOrEqual(0);
    expect(bubble.x + bubble.width).toBeLessThanOrEqual(320);
    expect(await violations(page)).toEqual([]);
    await screenshot(page, 'nudge-member-phone');
    // Its × as wide as the panel's and as high as the reminder's row.
    const close = nudge(page).getByRole('button', { name: 'Close' });
    const target = (await close.boundingBox())!;
    expect(target.width).toBe(44);
    expect(target.height).toBeGreaterThanOrEqual(36);
    await close.click();
    expect(await nudge(page).count()).toBe(0);
    expect((await widgetFocus(page))?.launcher).toBe(true);
    expect(errors).toEqual([]);
  });

  it('tells a member whose balance covers no reward the nearest one and what it still takes', async () => {
    const ownedById = await demo.shopper();
    const adjust = async (points: number) =>
      expect((await demo.api.post('/schema/point_entry/record', { ownedById, points, reason: 'adjusted' })).status).toBe(200);
    await adjust(-300);
    try {
      const { page, errors } = await demo.newPage();
      await page.goto(`${demo.app.url}/demo?mode=member`);
      await expect.poll(() => nudge(page).count(), DUE).toBe(1);
      expect(await nudge(page).getByRole('button').first().textContent()).toBe('€5 off: 220 Stars to go');
      expect(await violations(page)).toEqual([]);
      await screenshot(page, 'nudge-member-to-go');
      expect(errors).toEqual([]);
    } finally {
      await adjust(300);
    }
  });

  it('speaks the page’s language, and goes when the launcher is pressed', async () => {
    const { page, errors } = await demo.newPage();
    await page.goto(`${demo.app.url}/demo?mode=member&lang=de`);
    await expect.poll(() => nudge(page).count(), DUE).toBe(1);
    expect(await nudge(page).getByRole('button').first().textContent()).toMatch(/^Du hast 380 Sterne: genug für 5\s€ Rabatt\.$/);
    await launcher(page).click();
    await expect.poll(() => dialog(page).count()).toBe(1);
    expect(await nudge(page).count()).toBe(0);
    // Opened by the launcher, the panel opens where it always does.
    expect(await dialog(page).getByRole('tab', { selected: true }).textContent()).not.toBe('Stars');
    expect(errors).toEqual([]);
  });

  it('waits for a page whose launcher was not pressed and that has no loyalty page, and the session keeps it for one', async () => {
    const { page, errors } = await demo.newPage();
    await page.goto(`${demo.app.url}/demo`);
    await launcher(page).click();
    await dialog(page).getByRole('button', { name: 'Close' }).click();
    await pastDue(page);
    expect(await nudge(page).count()).toBe(0);
    await page.goto(`${demo.app.url}/demo?page=rewards`);
    await page.locator('loyalty-page').waitFor();
    await pastDue(page);
    expect(await nudge(page).count()).toBe(0);
    expect(await page.evaluate(() => sessionStorage.getItem('loyalty-nudged'))).toBeNull();
    // The session's next page with neither gives it.
    await page.goto(`${demo.app.url}/demo`);
    await expect.poll(() => nudge(page).count(), DUE).toBe(1);
    expect(errors).toEqual([]);
  });

  it('is never shown, nor read for, on a page that passes nudges: false', async () => {
    const { page, errors } = await demo.newPage();
    const reads = settingReads(page);
    const url = `${demo.app.url}/merchant-page`;
    const init = { ...demo.ids, baseUrl: demo.app.url, nudges: false };
    await page.route(url, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><html lang="en"><title>A shop</title><h1>A shop</h1>
<script>window.LoyaltyWidget=window.LoyaltyWidget||{q:[],init:function(){this.q.push(arguments)}};</script>
<script src="${demo.app.url}/widget/loader.js" async></script>
<script>LoyaltyWidget.init(${JSON.stringify(init)});</script>`,
      }),
    );
    await page.goto(url);
    await launcher(page).waitFor();
    await pastDue(page);
    expect(await nudge(page).count()).toBe(0);
    expect(reads()).toBe(0);
    expect(errors).toEqual([]);
  });
});
