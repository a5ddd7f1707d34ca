import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../core/test/support/harness';
import { creatorFor } from './support/programs';
import { type AdminApp, startAdminApp } from './support/admin';
import { TEST_SHOP } from './support/stack';

/**
 * Program health on the dashboard in Chromium (production build, real core): the figures of each live
 * program in the dashboard's range against the seven days before, as the seeded history makes them.
 */
let admin: AdminApp;
let api: Client;
// The shop's zone (the Admin API stub's), which the account and its members live in.
const today = DateTime.now().setZone('Europe/Paris').startOf('day');
const day = (daysAgo: number) => today.minus({ days: daysAgo });

const created = creatorFor(() => api);

beforeAll(async () => {
  admin = await startAdminApp(async (installed) => {
    const account = (await installed.app.shops.find(TEST_SHOP))!;
    api = installed.core.anon.with({ 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret });
    const reward = await created('/schema/reward/record', {
      name: 'Ten off',
      description: 'd',
      discountType: 'percentage',
      discountValue: 10,
      rewardExpiryType: 'no_expiry',
      handleCoupon: true,
      handleCouponAutoGeneration: true,
    });
    const streak = await created('/schema/streak/record', { name: 'Daily visit', status: 'live', completionTargetValue: 2 });
    await created('/schema/milestone/record', {
      name: 'Two days',
      description: 'd',
      linkedSchemaSlug: 'streak',
      linkedSchemaRecordId: streak.id,
      milestoneTargetValue: 2,
      rewardId: reward.id,
      status: 'live',
    });
    const challenge = await created('/schema/challenge/record', {
      name: 'Monthly spend',
      status: 'live',
      aggregationPeriod: 'monthly',
      aggregationMethod: 'sum',
      completionTargetValue: 100,
    });
    await created('/schema/mission/record', {
      name: 'Draft mission',
      status: 'draft',
      tasks: [{ name: 'Order', activityId: 'order', aggregationMethod: 'count', targetValue: 1 }],
    });
    let n = 0;
    const log = (kind: 'streak' | 'challenge', member: string, daysAgo: number, activityValue?: number) =>
      created(`/schema/${kind}_log/record`, {
        [`${kind}Id`]: kind === 'streak' ? streak.id : challenge.id,
        ownedBy: { externalId: member },
        activityId: 'a',
        activityAt: day(daysAgo).set({ hour: 9 }).toUTC().toISO(),
        ...(activityValue ? { activityValue } : {}),
        uniqueIdentifier: `h${++n}`,
      });
    // Previous week (8 to 14 days ago): Ann completes the streak; Dan completes the challenge, Eve takes part.
    await log('streak', 'ann', 10);
    await log('streak', 'ann', 9);
    await log('challenge', 'dan', 8, 150);
    await log('challenge', 'eve', 8, 10);
    // This week (the last 7 days): Bob completes the streak, Cid visits once; Dan spends again.
    await log('streak', 'bob', 2);
    await log('streak', 'bob', 1);
    await log('streak', 'cid', 1);
    await log('challenge', 'dan', 3, 20);
  });
}, 120_000);

afterAll(() => admin?.close());

// A badge also says its tone to screen readers ("Success up 100%"); rows are compared as seen.
const rows = async () =>
  (await admin.browser.page.getByRole('region', { name: 'Program health' }).locator('tbody tr').allInnerTexts()).map((r) =>
    r
      .replace(/\s+/g, ' ')
      .replace(/\b(Success|Critical) /g, '')
      .trim(),
  );

describe('program health on the dashboard', () => {
  it("each live program's members active, completions and rewards this week against the week before", async () => {
    const from = day(6).toISODate()!;
    const to = today.toISODate()!;
    await admin.browser.open(`/app?from=${from}&to=${to}`);
    const region = admin.browser.page.getByRole('region', { name: 'Program health' });
    await region.waitFor();
    // Ranges as English reads them: "Nov 22 – 28, 2026", "Oct 30 – Nov 5, 2026", "Dec 28, 2026 – Jan 3, 2027".
    const range = (from: DateTime, to: DateTime) => {
      const [a, b] = [from.setLocale('en'), to.setLocale('en')];
      return a.year !== b.year
        ? `${a.toFormat('LLL d, yyyy')}\\s–\\s${b.toFormat('LLL d, yyyy')}`
        : a.month !== b.month
          ? `${a.toFormat('LLL d')}\\s–\\s${b.toFormat('LLL d, yyyy')}`
          : `${a.toFormat('LLL d')}\\s–\\s${b.toFormat('d, yyyy')}`;
    };
    expect(await region.innerText()).toMatch(
      new RegExp(`${range(day(6), today)} against ${range(day(13), day(7))} \\(Central European Time\\)`),
    );
    // Rewards count when issued: both two-day rewards were issued while seeding, today.
    expect(await rows()).toEqual([
      'Daily visit Streak · daily 2 up 100% previous period: 1 1 no change previous period: 1 2 new previous period: 0',
      'Monthly spend Challenge · monthly 1 down 50% previous period: 2 0 down 100% previous period: 1 0 no change previous period: 0',
    ]);
    const perDay = await region.locator('svg[aria-label="Daily visit: members active per day"] rect title').allTextContents();
    // Days as English reads them (Intl's medium date: "Nov 23, 2026").
    expect(perDay).toEqual(
      [6, 5, 4, 3, 2, 1, 0].map((ago) => `${day(ago).setLocale('en').toFormat('LLL d, yyyy')}: ${{ 2: 1, 1: 2 }[ago] ?? 0}`),
    );
    await admin.browser.shot('program-health');
    // One program's chart at a time, the busiest first; the merchant picks another.
    expect(await region.locator('svg[role="img"]').count()).toBe(1);
    await region.getByLabel('Members active per day of').selectOption({ label: 'Monthly spend' });
    const spend = await region.locator('svg[aria-label="Monthly spend: members active per day"] rect title').allTextContents();
    expect(spend).toEqual([6, 5, 4, 3, 2, 1, 0].map((ago) => `${day(ago).setLocale('en').toFormat('LLL d, yyyy')}: ${ago === 3 ? 1 : 0}`));
    expect(await region.locator('svg[role="img"]').count()).toBe(1);
  });

  it('the previous period follows the range: one day against the day before', async () => {
    const date = day(1).toISODate()!;
    await admin.browser.open(`/app?from=${date}&to=${date}`);
    await admin.browser.page.getByRole('region', { name: 'Program health' }).waitFor();
    expect((await rows())[0]).toBe(
      'Daily visit Streak · daily 2 up 100% previous period: 1 1 new previous period: 0 0 no change previous period: 0',
    );
  });
});

describe('on a phone', () => {
  /** What is laid out narrower than `min` px on the open page: cards and form fields, by their text. */
  const squeezed = (min: { card: number; field: number }) =>
    admin.browser.page.evaluate((min) => {
      const narrow = (selector: string, least: number) =>
        [...document.querySelectorAll<HTMLElement>(selector)]
          .filter((e) => e.offsetParent !== null && e.getBoundingClientRect().width < least)
          .map((e) => `${selector} ${Math.round(e.getBoundingClientRect().width)} px: ${e.innerText.slice(0, 40).replace(/\s+/g, ' ')}`);
      // A date beside a date (the dashboard's range) is as wide as a date needs.
      return [
        ...narrow('.Polaris-ShadowBevel', min.card),
        ...narrow('.Polaris-TextField:not(:has(input[type=date])), .Polaris-Select', min.field),
      ];
    }, min);

  it('(375 px, as in the Shopify mobile app) cards and fields stack rather than share the width in columns, tables are stacked items, and no page scrolls sideways', async () => {
    const page = admin.browser.page;
    await page.setViewportSize({ width: 375, height: 800 });
    try {
      for (const path of [
        '/app',
        '/app/notifications',
        '/app/widget',
        '/app/points',
        '/app/programs/streak/new',
        '/app/rewards/new',
        '/app/r/streak',
      ]) {
        await admin.browser.open(path);
        expect(await squeezed({ card: 300, field: 250 }), path).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(375);
        // Tables are condensed to stacked items, not scrolled sideways inside their cards.
        const overflowing = await page.evaluate(
          () => [...document.querySelectorAll<HTMLElement>('.Polaris-IndexTable')].filter((t) => t.scrollWidth > t.clientWidth).length,
        );
        expect(overflowing, path).toBe(0);
      }
      // A list of records: each one a stacked item named by its link.
      await admin.browser.open('/app/r/streak');
      expect((await page.locator('.Polaris-IndexTable ul li', { hasText: 'Daily visit' }).innerText()).replace(/\s+/g, ' ')).toMatch(
        /^Daily visit Status (Success )?Live Updated /,
      );
      // A milestone added in the program editor: its row is a stacked item too, its buttons in reach.
      await admin.browser.open('/app/programs/streak/new');
      await page.getByRole('button', { name: 'Add milestone' }).first().click();
      const milestone = page.getByRole('region', { name: 'Milestones' }).locator('ul li').first();
      expect((await milestone.innerText()).replace(/\s+/g, ' ')).toMatch(
        /^New milestone Reached at .* Reward .* Status .*Not saved yet Done Remove$/,
      );
      expect(
        await page.evaluate(
          () => [...document.querySelectorAll<HTMLElement>('.Polaris-IndexTable')].filter((t) => t.scrollWidth > t.clientWidth).length,
        ),
      ).toBe(0);
      const health = page.getByRole('region', { name: 'Program health' });
      await admin.browser.open('/app');
      expect((await health.locator('ul li').first().innerText()).replace(/\s+/g, ' ')).toMatch(
        /^Daily visit Streak · daily Members active .*Completions .*Rewards issued /,
      );
      // The dashboard's members beside other customers: a stacked item per group, each figure named.
      const groups = page.locator('.Polaris-IndexTable', { hasText: 'Other customers' }).locator('ul li');
      expect((await groups.allInnerTexts()).map((g) => g.replace(/\s+/g, ' ').trim())).toEqual([
        expect.stringMatching(/^Members Ordering customers \d+ \(\d+\) Repeat-purchase rate .+ Revenue per customer .+$/),
        expect.stringMatching(/^Other customers Ordering customers \d+ \(\d+\) Repeat-purchase rate .+ Revenue per customer .+$/),
      ]);
      await admin.browser.shot('dashboard-phone');
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });
});
