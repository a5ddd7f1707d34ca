import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Demo, dialog, launcher, screenshot, startDemo, tabPanel, widgetFocus } from './support/browser.js';

let demo: Demo;
beforeAll(async () => {
  demo = await startDemo();
});
afterAll(async () => {
  await demo?.close();
});

describe('the widget for a guest on /demo', () => {
  it('shows the live definitions with their texts and the logged-out template, and sends x-account-id with its reads', async () => {
    const { page, errors } = await demo.newPage();
    const reads: { url: string; accountId: string | undefined; token: string | undefined }[] = [];
    page.on('request', (req) => {
      if (req.url().includes('/api/v1.0/'))
        reads.push({ url: req.url(), accountId: req.headers()['x-account-id'], token: req.headers()['x-enduser-access-token'] });
    });
    await page.goto(`${demo.app.url}/demo`);
    await expect.poll(() => launcher(page).textContent()).toContain('Rewards');
    await launcher(page).click();

    await expect.poll(() => dialog(page).getByRole('heading', { level: 2 }).textContent()).toBe('Join Demo Shop Rewards');
    await expect.poll(() => dialog(page).textContent()).toContain('Earn coupons for visiting, shopping and writing reviews.');
    expect(await dialog(page).getByRole('link', { name: 'Create account' }).getAttribute('href')).toBe('/demo?mode=member');
    expect(await dialog(page).getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/demo?mode=member');

    await expect.poll(() => tabPanel(page).textContent()).toContain('Daily visit');
    const streaks = await tabPanel(page).textContent();
    expect(streaks).toContain('Visit every day: 3 days in a row unlock 10% off');
    // Each milestone says what it earns: a percentage reward formatted, a fixed amount by the reward's name.
    expect(await tabPanel(page).locator('[data-milestones] li').allTextContents()).toEqual([
      '3Three days in a row10% off',
      '7A full week15% off',
    ]);
    // A guest has no progress: no run length, no progress bars.
    expect(await tabPanel(page).locator('.lw-big').count()).toBe(0);
    expect(await tabPanel(page).getByRole('progressbar').count()).toBe(0);
    await screenshot(page, 'guest-streaks');

    await dialog(page).getByRole('tab', { name: 'Challenges' }).click();
    await expect.poll(() => tabPanel(page).textContent()).toContain('Weekly shopper');
    // The reward's fixed amount in the currency the page names, as a percentage is shown, rather than the milestone's reward title.
    expect(await tabPanel(page).locator('[data-milestones] li').allTextContents()).toEqual(['100€100 spent€5 off', '200€200 spent']);
    await dialog(page).getByRole('tab', { name: 'Missions' }).click();
    await expect.poll(() => tabPanel(page).textContent()).toContain('Getting started');
    expect(await tabPanel(page).textContent()).toContain('Write a product review');
    await screenshot(page, 'guest-missions');
    // The Rewards tab does not repeat the header's sign-in buttons.
    await dialog(page).getByRole('tab', { name: 'Rewards' }).click();
    await expect.poll(() => tabPanel(page).textContent()).toBe('Sign in to see the rewards you have earned.');
    expect(await dialog(page).getByRole('link', { name: 'Create account' }).count()).toBe(1);
    expect(await dialog(page).getByRole('link', { name: 'Log in' }).count()).toBe(1);
    await screenshot(page, 'guest-rewards');

    const lists = reads.filter((r) => /\/record(\?|$)/.test(r.url));
    expect(lists.map((r) => new URL(r.url).pathname)).toEqual(
      expect.arrayContaining(['/api/v1.0/schema/streak/record', '/api/v1.0/schema/challenge/record', '/api/v1.0/schema/mission/record']),
    );
    for (const read of reads) {
      expect(read.accountId).toBe(demo.ids.accountId);
      expect(read.token).toBeUndefined();
      expect(new URL(read.url).searchParams.get('languageCode')).toBe('en');
    }
    expect(errors).toEqual([]);
  });

  it('switches language: the template, the launcher, the definitions and the interface words follow languageCode', async () => {
    const { page, errors } = await demo.newPage();
    await page.goto(`${demo.app.url}/demo`);
    await page.getByLabel('Language').selectOption('fr');
    await page.waitForURL(/lang=fr/);
    await expect.poll(() => launcher(page).textContent()).toContain('Récompenses');
    await launcher(page).click();
    await expect.poll(() => dialog(page).getByRole('heading', { level: 2 }).textContent()).toBe('Rejoignez Demo Shop Rewards');
    await expect.poll(() => dialog(page).getByRole('tab').count()).toBe(6);
    expect(
      await dialog(page)
        .getByRole('tab')
        .evaluateAll((tabs) => tabs.map((t) => t.textContent)),
    ).toEqual(['Séries', 'Défis', 'Missions', 'Classement', 'Étoiles', 'Récompenses']);
    // French percentages: a (narrow) no-break space before the sign.
    await expect.poll(() => tabPanel(page).textContent()).toMatch(/Trois jours de suite10\s% de réduction/);
    expect(await dialog(page).getByRole('link', { name: 'Créer un compte' }).getAttribute('href')).toBe('/demo?mode=member&lang=fr');
    await expect.poll(() => tabPanel(page).textContent()).toContain('Visite quotidienne');
    expect(await dialog(page).getByRole('button', { name: 'Fermer' }).count()).toBe(1);
    await screenshot(page, 'guest-fr');

    // The demo shop writes its texts in every language the widget speaks: German reads German throughout.
    await page.goto(`${demo.app.url}/demo?lang=de`);
    await launcher(page).click();
    await expect.poll(() => tabPanel(page).textContent()).toContain('Täglicher Besuch');
    expect(
      await dialog(page)
        .getByRole('tab')
        .evaluateAll((tabs) => tabs.map((t) => t.textContent)),
    ).toEqual(['Serien', 'Challenges', 'Missionen', 'Bestenliste', 'Sterne', 'Prämien']);
    expect(await dialog(page).getByRole('button', { name: 'Schließen' }).count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it('shows the live leaderboard as a tab: the top entries, read only when the tab is opened, in English and French', async () => {
    const { page, errors } = await demo.newPage();
    const reads: string[] = [];
    page.on('request', (req) => {
      if (req.url().includes('/api/v1.0/')) reads.push(new URL(req.url()).pathname);
    });
    await page.goto(`${demo.app.url}/demo`);
    await launcher(page).click();
    const tab = dialog(page).getByRole('tab', { name: 'Leaderboard' });
    await expect.poll(() => tab.count()).toBe(1);
    expect(
      await dialog(page)
        .getByRole('tab')
        .evaluateAll((tabs) => tabs.map((t) => t.textContent)),
    ).toEqual(['Streaks', 'Challenges', 'Missions', 'Leaderboard', 'Stars', 'Rewards']);
    // A text label, not an icon, named by its text; the six labels sit in two rows of three, none scrolled out of view.
    expect(await tab.getAttribute('aria-label')).toBeNull();
    const overflow = () =>
      dialog(page)
        .getByRole('tablist')
        .evaluate((row) => row.scrollWidth - row.clientWidth);
    expect(await overflow()).toBe(0);
    const rowsOfTabs = await dialog(page)
      .getByRole('tab')
      .evaluateAll((tabs) => tabs.map((t) => Math.round(t.getBoundingClientRect().top)));
    expect(new Set(rowsOfTabs.slice(0, 3)).size + new Set(rowsOfTabs.slice(3)).size).toBe(2);
    expect(rowsOfTabs[3]).toBeGreaterThan(rowsOfTabs[0]!);
    // One list of leaderboards, one read of the definitions they rank; no standings before the tab opens.
    expect(reads.filter((r) => r.includes('leaderboard'))).toEqual(['/api/v1.0/schema/leaderboard/record']);

    await tab.click();
    const rows = tabPanel(page).locator('[data-standings] li');
    await expect.poll(() => rows.count()).toBe(10);
    expect(await tabPanel(page).getByRole('heading', { level: 3 }).textContent()).toBe('Top visitors');
    expect((await rows.allTextContents()).slice(0, 4)).toEqual(['1Marie D.12', '2Lucas M.9', '2Emma S.9', '4Noah R.8']);
    // A guest is nobody on the board.
    expect(await tabPanel(page).locator('[aria-current]').count()).toBe(0);
    expect(await tabPanel(page).textContent()).toContain('30 ranked');
    expect(reads.filter((r) => r.endsWith('/standings'))).toHaveLength(1);
    await screenshot(page, 'guest-leaderboard');

    await page.goto(`${demo.app.url}/demo?lang=fr`);
    await launcher(page).click();
    await dialog(page).getByRole('tab', { name: 'Classement' }).click();
    await expect.poll(() => tabPanel(page).getByRole('heading', { level: 3 }).textContent()).toBe('Meilleurs visiteurs');
    expect(await overflow()).toBe(0);
    expect(await tabPanel(page).textContent()).toContain('30 classés');
    await screenshot(page, 'guest-leaderboard-fr');
    expect(errors).toEqual([]);
  });

  it('works by keyboard: Tab reaches the launcher, Enter opens, focus stays in the panel, Escape closes and returns focus', async () => {
    const { page, errors } = await demo.newPage();
    await page.goto(`${demo.app.url}/demo`);
    await expect.poll(() => launcher(page).count()).toBe(1);
    const button = launcher(page);
    expect(await button.getAttribute('aria-haspopup')).toBe('dialog');
    expect(await button.getAttribute('aria-expanded')).toBe('false');

    let presses = 0;
    while (!(await widgetFocus(page))?.launcher) {
      await page.keyboard.press('Tab');
      if (++presses > 40) throw new Error('Tab never reached the launcher');
    }
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog(page).count()).toBe(1);
    expect(await dialog(page).getAttribute('aria-modal')).toBe('true');
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(async () => (await widgetFocus(page))?.inPanel).toBe(true);
    expect((await widgetFocus(page))?.text).toBe('Streaks');

    // Arrow keys move between tabs.
    await page.keyboard.press('ArrowRight');
    expect((await widgetFocus(page))?.text).toBe('Challenges');
    expect(await dialog(page).getByRole('tab', { name: 'Challenges' }).getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => tabPanel(page).textContent()).toContain('Weekly shopper');

    // Focus is trapped: a full cycle forwards and backwards never leaves the panel.
    for (const key of [
      'Tab',
      'Tab',
      'Tab',
      'Tab',
      'Tab',
      'Tab',
      'Shift+Tab',
      'Shift+Tab',
      'Shift+Tab',
      'Shift+Tab',
      'Shift+Tab',
      'Shift+Tab',
      'Shift+Tab',
    ]) {
      await page.keyboard.press(key);
      expect((await widgetFocus(page))?.inPanel).toBe(true);
    }

    await page.keyboard.press('Escape');
    await expect.poll(() => dialog(page).count()).toBe(0);
    expect((await widgetFocus(page))?.launcher).toBe(true);
    expect(await button.getAttribute('aria-expanded')).toBe('false');

    // The close button does the same.
    await page.keyboard.press('Enter');
    await dialog(page).getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => dialog(page).count()).toBe(0);
    expect((await widgetFocus(page))?.launcher).toBe(true);
    expect(errors).toEqual([]);
  });

  it('respects prefers-reduced-motion', async () => {
    const { page } = await demo.newPage({ reducedMotion: 'reduce' });
    await page.goto(`${demo.app.url}/demo`);
    await launcher(page).click();
    expect(await dialog(page).evaluate((el) => getComputedStyle(el).animationName)).toBe('none');

    const { page: moving } = await demo.newPage({ reducedMotion: 'no-preference' });
    await moving.goto(`${demo.app.url}/demo`);
    await launcher(moving).click();
    expect(await dialog(moving).evaluate((el) => getComputedStyle(el).animationName)).toBe('lw-in');
  });
});
