import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Demo, launcher, screenshot, startDemo, violations } from './support/browser.js';

/**
 * The theme's loyalty page block on /demo?page=rewards: a `<loyalty-page>` element that the loader
 * fills with the panel, laid out in the page, for a guest and for a member, beside the floating
 * launcher, against the real core.
 */
let demo: Demo;

beforeAll(async () => {
  demo = await startDemo();
});
afterAll(async () => {
  await demo?.close();
});

const region = (page: Page) => page.locator('loyalty-page [role="region"]');
const body = (page: Page) => page.locator('loyalty-page [role="tabpanel"]');
const SLOW = { timeout: 60_000 };

describe('a loyalty page', SLOW, () => {
  it('shows a guest the program in the page: its tabs, the ways to earn, what rewards cost; no dialog, no focus taken', async () => {
    const { page, errors } = await demo.newPage();
    await page.goto(`${demo.app.url}/demo?page=rewards`);
    await region(page).getByRole('tab', { name: 'Stars' }).waitFor();
    expect(await region(page).getByRole('heading', { level: 2 }).textContent()).toBeTruthy();
    // The leaderboard's tab comes with its own read, which may answer after the points' (as in the floating panel).
    await expect
      .poll(() => region(page).getByRole('tab').allTextContents())
      .toEqual(['Streaks', 'Challenges', 'Missions', 'Leaderboard', 'Stars', 'Rewards']);
    // Shown as the page loads, it takes no focus from the page, has no close button and is no dialog.
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
    expect(await region(page).getByRole('button', { name: 'Close' }).count()).toBe(0);
    expect(await page.locator('loyalty-page [role="dialog"]').count()).toBe(0);
    // In the page's flow, inside its main column, rather than over it.
    const box = await page.locator('loyalty-page').boundingBox();
    const main = await page.locator('main').boundingBox();
    expect(box!.y).toBeGreaterThanOrEqual(main!.y);
    expect(box!.height).toBeGreaterThan(200);
    expect(await region(page).evaluate((el) => getComputedStyle(el).position)).toBe('static');

    // With points live, the page opens on them: how to earn and what rewards cost lead a loyalty page.
    await body(page).locator('[data-earn]').waitFor();
    expect(await region(page).getByRole('tab', { name: 'Stars' }).getAttribute('aria-selected')).toBe('true');
    expect(await body(page).locator('[data-earn] li').first().textContent()).toBe('For every €1 spent+2 Stars');
    expect(await body(page).locator('[data-redeem] > li').allTextContents()).toEqual([
      '€5 off300 Stars',
      '€10 off800 Stars',
      '20% off2,000 Stars',
    ]);
    expect(await body(page).textContent()).toContain('Sign in to redeem.');
    expect(await violations(page, 'loyalty-page')).toEqual([]);
    await screenshot(page, 'loyalty-page-guest');

    // A tab the shopper picks stays picked.
    await region(page).getByRole('tab', { name: 'Streaks' }).click();
    await body(page).locator('[data-earn]').waitFor({ state: 'detached' });
    expect(await region(page).getByRole('tab', { name: 'Streaks' }).getAttribute('aria-selected')).toBe('true');
    // The floating launcher is there as on every page, with a panel of its own, which opens on its first tab as ever.
    await launcher(page).click();
    await page.locator('loyalty-widget [role="dialog"]').waitFor();
    expect(await page.locator('loyalty-widget').getByRole('tab', { name: 'Streaks' }).getAttribute('aria-selected')).toBe('true');
    expect(errors).toEqual([]);
  });

  it('shows a member their balance with Redeem buttons, in German', async () => {
    const { page, errors } = await demo.newPage();
    await page.goto(`${demo.app.url}/demo?page=rewards&mode=member&lang=de`);
    await body(page).locator('[data-balance]').waitFor();
    expect(await region(page).getByRole('tab', { name: 'Sterne' }).getAttribute('aria-selected')).toBe('true');
    expect(await body(page).locator('[data-balance]').textContent()).toMatch(/Sterne/);
    expect(await body(page).getByRole('button', { name: 'Einlösen' }).count()).toBeGreaterThan(0);
    expect(await violations(page, 'loyalty-page')).toEqual([]);
    await screenshot(page, 'loyalty-page-member-de');
    expect(errors).toEqual([]);
  });
});
