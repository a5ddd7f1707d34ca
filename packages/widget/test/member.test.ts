import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoAccount } from '../../../apps/core/src/demo/index.js';
import { type Demo, dialog, launcher, screenshot, startDemo, tabPanel, violations } from './support/browser.js';

let demo: Demo;

const DAY_MS = 86_400_000;
/** What a Shopify theme sets on every storefront page: here a shop's French pages, under /fr/. */
const shopifyTheme = () => {
  (window as { Shopify?: unknown }).Shopify = { shop: 'demo.myshopify.com', routes: { root: '/fr/' } };
};
const whereEquals = (fieldSlug: string, fieldValue: string, operator = 'equals') => ({
  operator: 'and',
  conditions: [{ fieldSlug, operator, fieldValue }],
});
beforeAll(async () => {
  demo = await startDemo();
});
afterAll(async () => {
  await demo?.close();
});

describe('the widget for a signed-in shopper on /demo?mode=member', () => {
  it("shows the member's streak, challenge, mission and milestones, read with the member's token", async () => {
    const { page, errors } = await demo.newPage();
    const tokens = new Set<string | undefined>();
    const displayTokens = new Set<string | undefined>();
    page.on('request', (req) => {
      if (!req.url().includes('/api/v1.0/')) return;
      // The display records are read as a guest: they read the same, and an expired token must not take the launcher down.
      const display = /\/schema\/(floating_widget|theme|template)\/record\//.test(req.url());
      (display ? displayTokens : tokens).add(req.headers()['x-enduser-access-token']);
    });
    await page.goto(`${demo.app.url}/demo?mode=member`);
    await launcher(page).click();
    await expect.poll(() => dialog(page).getByRole('heading', { level: 2 }).textContent()).toBe('Your Demo Shop rewards');
    expect(await dialog(page).getByRole('link', { name: 'Create account' }).count()).toBe(0);

    // Four visits in a row, the day before yesterday covered by a freeze, today's visit done; the
    // 3-day milestone reached, 7 days next.
    await expect.poll(() => tabPanel(page).locator('.lw-big').textContent()).toBe('4 in a row');
    expect(await tabPanel(page).locator('[data-freezes]').textContent()).toBe('Freezes: 1');
    const day = (ago: number) => new Date(Date.now() - ago * DAY_MS).toISOString().slice(0, 10);
    const strip = await tabPanel(page)
      .locator('[data-strip] li')
      .evaluateAll((slots) => slots.map((li) => [li.getAttribute('data-key'), li.className, li.querySelector('.lw-sr')?.textContent]));
    expect(strip).toEqual([
      [day(4), 'lw-done', 'Completed'],
      [day(3), 'lw-done', 'Completed'],
      [day(2), 'lw-frozen', 'Frozen'],
      [day(1), 'lw-done', 'Completed'],
      [day(0), 'lw-done', 'Completed'],
      [day(-1), 'lw-next', 'Next'],
    ]);
    const today = tabPanel(page).getByRole('progressbar', { name: 'Today' });
    expect(await today.getAttribute('aria-valuenow')).toBe('1');
    expect(await today.getAttribute('aria-valuemax')).toBe('1');
    const streakMilestones = tabPanel(page).locator('[data-milestones] li');
    expect(await streakMilestones.allTextContents()).toEqual(['3Three days in a row10% offReached', '7A full week15% offNext']);
    await screenshot(page, 'member-streaks');

    await dialog(page).getByRole('tab', { name: 'Challenges' }).click();
    await expect.poll(() => tabPanel(page).getByRole('progressbar', { name: 'This week' }).getAttribute('aria-valuenow')).toBe('130');
    expect(await tabPanel(page).getByRole('progressbar').getAttribute('aria-valuemax')).toBe('200');
    expect(await tabPanel(page).locator('[data-milestones] li').allTextContents()).toEqual([
      '100€100 spent€5 offReached',
      '200€200 spentNext',
    ]);
    await screenshot(page, 'member-challenges');

    await dialog(page).getByRole('tab', { name: 'Missions' }).click();
    await expect.poll(() => tabPanel(page).textContent()).toContain('2 of 3 tasks done');
    expect(await tabPanel(page).locator('[data-tasks] li').allTextContents()).toEqual([
      '1/1Create an account✓',
      '1/1Write a product review✓',
      '0/1Refer a friend',
    ]);
    expect(await tabPanel(page).locator('[data-milestones] li').allTextContents()).toEqual(['2Two tasks doneReached']);
    await screenshot(page, 'member-missions');

    expect([...tokens].every((t) => typeof t === 'string' && t.split('.').length === 3)).toBe(true);
    expect([...displayTokens]).toEqual([undefined]);
    expect(errors).toEqual([]);
  });

  it('renews a token that expired while the page was open, once, and reads the member with the fresh one', async () => {
    // The merchant's backend signs the token (CONTRACT §5); this one expired two minutes ago, past the core's minute of skew.
    const now = Math.floor(Date.now() / 1000);
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const unsigned = `${part({ alg: 'HS256', typ: 'JWT', kid: demo.creds.apiKey })}.${part({
      sub: demo.ids.accountId,
      userData: { externalId: 'demo-shopper' },
      iat: now - 600,
      exp: now - 120,
    })}`;
    const expired = `${unsigned}.${createHmac('sha256', demo.creds.apiSecret).update(unsigned).digest('base64url')}`;
    const { page, errors } = await demo.newPage();
    let renewals = 0;
    await page.exposeFunction('freshToken', async () => {
      renewals += 1;
      return (await demo.api.post('/enduser/token', { externalId: 'demo-shopper' })).body.data.accessToken as string;
    });
    const url = `${demo.app.url}/merchant-page`;
    const init = { ...demo.ids, baseUrl: demo.app.url, accessToken: expired };
    await page.route(url, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><html><body><h1>A shop</h1>
<script>window.LoyaltyWidget=window.LoyaltyWidget||{q:[],init:function(){this.q.push(arguments)}};</script>
<script src="${demo.app.url}/widget/loader.js" async></script>
<script>LoyaltyWidget.init(Object.assign(${JSON.stringify(init)}, { renewToken: function () { return window.freshToken(); } }));</script></body></html>`,
      }),
    );
    await page.goto(url);
    await launcher(page).click();
    await expect.poll(() => dialog(page).getByRole('heading', { level: 2 }).textContent()).toBe('Your Demo Shop rewards');
    await expect.poll(() => tabPanel(page).locator('.lw-big').textContent()).toMatch(/in a row/);
    await dialog(page).getByRole('tab', { name: 'Rewards' }).click();
    await expect.poll(() => tabPanel(page).locator('code').count()).toBeGreaterThan(0);
    // The panel's first reads were refused together: one renewal served them all.
    expect(renewals).toBe(1);
    expect(errors).toEqual([]);
  });

  it('lists reward logs with their codes and expiry, and copies a code with the template\'s "copied" message', async () => {
    const { context, page, errors } = await demo.newPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: demo.app.url });
    // The shopper's own: the other members on the leaderboard have earned rewards of their own.
    const shopper = await demo.shopper();
    const logs = (await demo.api.get('/schema/reward_log/record', { filters: whereEquals('ownedById', shopper) })).body.data as {
      couponCode: string;
      eudRewardTitle: string;
      eudRedeemInstructionMessage: string;
    }[];
    expect(logs.map((l) => l.couponCode).sort()).toEqual([expect.stringMatching(/^SHOP5-/), expect.stringMatching(/^STREAK10-/)]);

    await page.goto(`${demo.app.url}/demo?mode=member`);
    await launcher(page).click();
    await dialog(page).getByRole('tab', { name: 'Rewards' }).click();
    const cards = tabPanel(page).locator('.lw-card');
    await expect.poll(() => cards.count()).toBe(2);
    const text = await tabPanel(page).textContent();
    for (const log of logs) {
      expect(text).toContain(log.couponCode);
      expect(text).toContain(log.eudRewardTitle);
      // The expiry, rendered by the core into the instruction ("… valid till <long date>.").
      expect(log.eudRedeemInstructionMessage).toMatch(/valid till \w+ \d+, \d{4}/);
      expect(text).toContain(log.eudRedeemInstructionMessage);
    }

    const first = cards.first();
    const code = await first.locator('code').textContent();
    await first.getByRole('button', { name: 'Copy code' }).click();
    await expect.poll(() => first.locator('[data-copy]').textContent()).toBe('Copied!');
    expect(await first.getByRole('status').textContent()).toBe('Copied!');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
    // No Shopify storefront, no cart to apply a code to.
    expect(await tabPanel(page).locator('[data-apply]').count()).toBe(0);
    await screenshot(page, 'member-rewards-copied');
    expect(errors).toEqual([]);
  });

  it("on a Shopify storefront, applies a code to the cart with Shopify's own link, then shows the cart in the shopper's language", async () => {
    const { context, page, errors } = await demo.newPage();
    await context.addInitScript(shopifyTheme);
    const applied: string[] = [];
    await page.route(`${demo.app.url}/discount/**`, (route) => {
      applied.push(route.request().url());
      return route.fulfill({ contentType: 'text/html', body: '<!doctype html><html lang="fr"><title>Panier</title></html>' });
    });
    await page.goto(`${demo.app.url}/demo?mode=member&lang=fr`);
    await launcher(page).click();
    await dialog(page).getByRole('tab').last().click();
    const cards = tabPanel(page).locator('.lw-card');
    await expect.poll(() => cards.count()).toBe(2);
    const codes = await cards.locator('code').allTextContents();
    const links = tabPanel(page).getByRole('link', { name: 'Appliquer à mon panier' });
    expect(await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual(
      codes.map((code) => `/discount/${encodeURIComponent(code)}?redirect=%2Ffr%2Fcart`),
    );
    expect(await violations(page)).toEqual([]);
    await screenshot(page, 'member-rewards-apply-fr');
    await links.first().click();
    await page.waitForURL(/\/discount\//);
    expect(applied).toEqual([`${demo.app.url}/discount/${encodeURIComponent(codes[0]!)}?redirect=%2Ffr%2Fcart`]);
    expect(errors).toEqual([]);
  });

  it('keeps a code and its copy button inside the panel on a phone, in the languages with the longest button', async () => {
    for (const [lang, width] of [
      ['de', 320],
      ['fr', 320],
      ['pt', 320],
      ['es', 320],
      ['en', 320],
      ['de', 375],
    ] as const) {
      const { context, page, errors } = await demo.newPage({ viewport: { width, height: 640 } });
      // On a Shopify storefront, where each code has its Apply button too.
      await context.addInitScript(shopifyTheme);
      await page.goto(`${demo.app.url}/demo?mode=member&lang=${lang}`);
      await launcher(page).click();
      await dialog(page).getByRole('tab').last().click();
      await expect.poll(() => tabPanel(page).locator('[data-copy]').count()).toBe(2);
      const fit = await dialog(page).evaluate((panel) => {
        const body = panel.querySelector('[role="tabpanel"]')!;
        const edge = panel.getBoundingClientRect();
        return {
          // The body scrolls up and down, never sideways.
          sideways: body.scrollWidth - body.clientWidth,
          outside: [...panel.querySelectorAll('[data-copy], [data-apply], .lw-code code')]
            .map((el) => el.getBoundingClientRect())
            .filter((r) => r.left < edge.left || r.right > edge.right - 16).length,
        };
      });
      expect(fit, `${lang} ${width}px`).toEqual({ sideways: 0, outside: 0 });
      if (lang === 'de') await screenshot(page, `member-rewards-de-${width}`);
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });

  it('splits no word across lines on a phone, on any tab, in the languages with the longest words', async () => {
    for (const [lang, width] of [
      ['es', 360],
      ['pt', 360],
      ['fr', 360],
      ['de', 360],
      ['es', 320],
    ] as const) {
      const { page, errors } = await demo.newPage({ viewport: { width, height: 740 } });
      await page.goto(`${demo.app.url}/demo?mode=member&lang=${lang}`);
      await launcher(page).click();
      await expect.poll(() => dialog(page).getByRole('tab').count()).toBe(6);
      const split: string[] = [];
      for (let i = 0; i < 6; i++) {
        await dialog(page).getByRole('tab').nth(i).click();
        await expect.poll(() => tabPanel(page).textContent()).toMatch(/\S/);
        // A word whose letters sit on more than one line; a hyphen is a place to break, not a split.
        const words = await dialog(page).evaluate((panel) => {
          const found: string[] = [];
          const walker = document.createTreeWalker(panel, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (const m of (node.textContent ?? '').matchAll(/[^\s-]+/g)) {
              const range = document.createRange();
              range.setStart(node, m.index);
              range.setEnd(node, m.index + m[0].length);
              const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
              if (tops.size > 1) found.push(m[0]);
            }
          }
          return found;
        });
        split.push(...words);
      }
      expect(split, `${lang} ${width}px`).toEqual([]);
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });

  it('shows the rewards in French with languageCode=fr', async () => {
    const { page, errors } = await demo.newPage();
    await page.goto(`${demo.app.url}/demo?mode=member&lang=fr`);
    await launcher(page).click();
    await expect.poll(() => tabPanel(page).locator('.lw-big').textContent()).toBe("4 d'affilée");
    expect(await tabPanel(page).locator('[data-freezes]').textContent()).toBe('Jokers : 1');
    expect(await tabPanel(page).locator('[data-strip] .lw-frozen .lw-sr').textContent()).toBe('Joker utilisé');
    await screenshot(page, 'member-streaks-fr');
    await dialog(page).getByRole('tab', { name: 'Récompenses' }).click();
    await expect.poll(() => tabPanel(page).textContent()).toContain('10 % sur votre prochaine commande');
    // The instruction in French; its date is the member's language's, as CONTRACT §6 renders {{rewardValidTill}}.
    expect(await tabPanel(page).textContent()).toContain("Utilisez le code promo lors du paiement, valable jusqu'au ");
    expect(await tabPanel(page).getByRole('button', { name: 'Copier le code' }).count()).toBe(2);
    await screenshot(page, 'member-rewards-fr');
    expect(errors).toEqual([]);
  });

  it("shows the member's own rank on the leaderboard, and below the top entries when outside them", async () => {
    const { page, errors } = await demo.newPage();
    await page.goto(`${demo.app.url}/demo?mode=member`);
    await launcher(page).click();
    await dialog(page).getByRole('tab', { name: 'Leaderboard' }).click();
    const me = tabPanel(page).locator('[data-standings] [aria-current]');
    // Tied at 4 with Chloé L., the shopper got there first.
    await expect.poll(() => me.textContent()).toBe('7Alex M.You4 in a row');
    expect(await tabPanel(page).locator('[data-standings] li').count()).toBe(10);
    await screenshot(page, 'member-leaderboard');

    const board = (await demo.api.get('/schema/leaderboard/record')).body.data[0] as { id: string };
    expect((await demo.api.patch(`/schema/leaderboard/record/${board.id}`, { size: 5 })).status).toBe(200);
    try {
      await page.goto(`${demo.app.url}/demo?mode=member&lang=fr`);
      await launcher(page).click();
      await dialog(page).getByRole('tab', { name: 'Classement' }).click();
      const rows = tabPanel(page).locator('[data-standings] li');
      await expect.poll(() => rows.count()).toBe(7);
      expect((await rows.allTextContents()).slice(4)).toEqual(["5Léa M.6 d'affilée", '⋯', "7Vous4 d'affilée"]);
      expect(await me.textContent()).toBe("7Vous4 d'affilée");
      await screenshot(page, 'member-leaderboard-fr');
    } finally {
      await demo.api.patch(`/schema/leaderboard/record/${board.id}`, { size: 10 });
    }
    expect(errors).toEqual([]);
  });

  it('shows names shoppers typed as the board cleans them: no e-mail, markup, bidi override or long name', async () => {
    const board = (await demo.api.get('/schema/leaderboard/record')).body.data[0] as { id: string };
    const standing = (await demo.api.get(`/schema/leaderboard/record/${board.id}/standings`)).body.data;
    const others = (standing.entries as { ownedById: string; isCaller: boolean }[]).filter((e) => !e.isCaller).slice(0, 4);
    const originals = await Promise.all(
      others.map(async (e) => (await demo.api.get(`/schema/account_user/record/${e.ownedById}`)).body.data as Record<string, string>),
    );
    const typed = [
      { firstName: 'chloe.l@example.com', lastName: 'Lopez' },
      { firstName: '<img src=x onerror=alert(1)>', lastName: 'Lopez' },
      { firstName: 'Ma\u202erie\u200f', lastName: '\u202eLopez' },
      { firstName: 'W'.repeat(256), lastName: 'Lopez' },
    ];
    try {
      for (const [i, e] of others.entries())
        expect((await demo.api.patch(`/schema/account_user/record/${e.ownedById}`, typed[i])).status).toBe(200);
      const { page, errors } = await demo.newPage();
      await page.goto(`${demo.app.url}/demo?mode=member`);
      await launcher(page).click();
      await dialog(page).getByRole('tab', { name: 'Leaderboard' }).click();
      const names = tabPanel(page).locator('[data-standings] li:not([aria-current]):not(.lw-gap) > span:nth-child(2)');
      await expect.poll(() => names.count()).toBeGreaterThan(4);
      const shown = (await names.allTextContents()).slice(0, 4);
      expect(shown.slice(0, 2)).toEqual([expect.stringMatching(/^Member \d{4}$/), expect.stringMatching(/^Member \d{4}$/)]);
      expect(shown.slice(2)).toEqual(['Marie L.', `${'W'.repeat(19)}… L.`]);
      expect(await tabPanel(page).textContent()).not.toMatch(/@|<img|\u202e/);
      expect(await page.locator('img[src=x]').count()).toBe(0);
      // Every value on one line inside the card, beside the longest name too.
      const card = await tabPanel(page).locator('[data-standings]').boundingBox();
      for (const value of await tabPanel(page).locator('[data-standings] .lw-value').all()) {
        const box = (await value.boundingBox())!;
        expect(box.height).toBeLessThan(24);
        expect(box.x + box.width).toBeLessThanOrEqual(card!.x + card!.width);
      }
      await screenshot(page, 'member-leaderboard-typed-names');
      expect(errors).toEqual([]);
    } finally {
      for (const [i, e] of others.entries()) {
        const { firstName, lastName } = originals[i]!;
        await demo.api.patch(`/schema/account_user/record/${e.ownedById}`, { firstName, lastName });
      }
    }
  });

  it('seeds the demo idempotently: a second run the same day adds no records, logs, rewards or points', async () => {
    const count = async (slug: string) =>
      (await demo.api.get(`/schema/${slug}/record`, { fetchTotalCount: true, limit: 1 })).body.paging.total as number;
    const slugs = [
      'streak',
      'challenge',
      'mission',
      'milestone',
      'reward',
      'coupon',
      'floating_widget',
      'theme',
      'template',
      'leaderboard',
      'streak_log',
      'challenge_log',
      'mission_log',
      'reward_log',
      'tier',
      'point_entry',
    ];
    const shopper = await demo.shopper();
    const run = async () =>
      (
        await demo.api.get('/schema/streak_progress/record', {
          filters: whereEquals('ownedById', shopper),
          fields: ['currentProgressValue', 'freezesAvailable', 'freezesUsed', 'frozenPeriodKeys'],
        })
      ).body.data;
    const before = await Promise.all(slugs.map(count));
    const runBefore = await run();
    await ensureDemoAccount(demo.app.running.services, demo.app.url);
    expect(await Promise.all(slugs.map(count))).toEqual(before);
    // The run's freezes are earned once: seeding again earns none and spends none.
    expect(await run()).toEqual(runBefore);
    expect(runBefore).toMatchObject([
      {
        currentProgressValue: 4,
        freezesAvailable: 1,
        freezesUsed: 1,
        frozenPeriodKeys: [new Date(Date.now() - 2 * DAY_MS).toISOString().slice(0, 10)],
      },
    ]);
    expect(Object.fromEntries(slugs.map((s, i) => [s, before[i]]))).toMatchObject({
      streak: 1,
      challenge: 1,
      mission: 1,
      milestone: 5,
      // Four for milestones and the mission, three to redeem for Stars.
      reward: 7,
      coupon: 100,
      leaderboard: 1,
      // The shopper's 4 visits and the 82 of the 29 other members; their runs earned 8 + 4 streak rewards.
      streak_log: 86,
      reward_log: 14,
      tier: 3,
      // The shopper's Stars for signing up and for each of today's two orders.
      point_entry: 3,
    });
  });

  it('shows a held reward with the day its code comes and a revoked one as taken back (CONTRACT §17)', async () => {
    const shopper = await demo.shopper();
    const reward = (await demo.api.get('/schema/reward/record', { limit: 1 })).body.data[0].id as string;
    const challenge = (
      await demo.api.post('/schema/challenge/record', {
        name: 'Held orders',
        aggregationPeriod: 'monthly',
        completionTargetValue: 2,
        rewardHoldDays: 14,
        eudTitle: 'Two orders',
      })
    ).body.data.id as string;
    for (const target of [1, 2])
      await demo.api.post('/schema/milestone/record', {
        linkedSchemaSlug: 'challenge',
        linkedSchemaRecordId: challenge,
        name: `Order ${target}`,
        description: 'd',
        status: 'live',
        milestoneTargetValue: target,
        rewardId: reward,
      });
    const order = async (n: number) =>
      (
        await demo.api.post('/schema/challenge_log/record', {
          challengeId: challenge,
          ownedById: shopper,
          activityId: 'order',
          activityAt: new Date().toISOString(),
          uniqueIdentifier: `order:${n}`,
        })
      ).body.data;
    const first = await order(1);
    const confirmAt = first.achievedMilestoneRewardLog.confirmAt as string;
    const second = await order(2);
    expect((await demo.api.post(`/schema/challenge_log/record/${second.id}/action/reverse`, { reason: 'refund' })).status).toBe(200);

    const { page, errors } = await demo.newPage();
    await page.goto(`${demo.app.url}/demo?mode=member`);
    await launcher(page).click();
    await dialog(page).getByRole('tab', { name: 'Rewards' }).click();
    const date = new Intl.DateTimeFormat('en', { dateStyle: 'long' }).format(new Date(confirmAt));
    await expect.poll(() => tabPanel(page).textContent()).toContain(`Yours on ${date}, once the return window has passed.`);
    const revoked = tabPanel(page).locator('.lw-revoked');
    expect(await revoked.count()).toBe(1);
    expect(await revoked.textContent()).toContain('Taken back: the purchase that earned it was returned or cancelled.');
    expect(await revoked.locator('code').count()).toBe(0);
    await screenshot(page, 'member-rewards-held');

    // The held reward's day in the panel's language.
    await page.goto(`${demo.app.url}/demo?mode=member&lang=fr`);
    await launcher(page).click();
    await dialog(page).getByRole('tab', { name: 'Récompenses' }).click();
    const frDate = new Intl.DateTimeFormat('fr', { dateStyle: 'long' }).format(new Date(confirmAt));
    expect(frDate).toMatch(/^\d{1,2} [a-zéû]+ \d{4}$/);
    await expect.poll(() => tabPanel(page).textContent()).toContain(`À vous le ${frDate}, une fois le délai de retour écoulé.`);
    expect(errors).toEqual([]);
  });
});
