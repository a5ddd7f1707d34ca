import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Demo, dialog, tabNames, launcher, screenshot, startDemo, tabPanel, widgetFocus } from './support/browser.js';

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
    await expect.poll(() => tabNames(page)).toEqual(['Séries', 'Défis', 'Missions', 'Classement', 'Étoiles', 'Récompenses']);
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
    await expect.poll(() => tabNames(page)).toEqual(['Serien', 'Challenges', 'Missionen', 'Bestenliste', 'Sterne', 'Prämien']);
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
    await expect.poll(() => tabNames(page)).toEqual(['Streaks', 'Challenges', 'Missions', 'Leaderboard', 'Stars', 'Rewards']);
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
    expect((await rows.allTextContents()).slice(0, 4)).toEqual([
      '1Marie D.12 in a row',
      '2Lucas M.9 in a row',
      '2Emma S.9 in a row',
      '4Noah R.8 in a row',
    ]);
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

  it("keeps six tabs inside the panel when the merchant's titles are long, also one long word", async () => {
    const [template] = (await demo.api.get('/schema/template/record', { limit: 1 })).body.data as Record<string, unknown>[];
    const long = {
      streaksTabTitle: 'Wöchentliche Herausforderungen und Serien',
      challengesTabTitle: 'Missionen und Aufgaben für treue Kunden',
      rewardsTabTitle: 'Meine Gutscheine und Prämien im Überblick',
      missionsTabTitle: 'Kundentreueprogrammaufgabenübersichtsseite',
    };
    expect((await demo.api.patch(`/schema/template/record/${template!.id}`, long)).status).toBe(200);
    try {
      for (const viewport of [
        { width: 1280, height: 900 },
        { width: 375, height: 667 },
      ]) {
        const { page, errors } = await demo.newPage();
        await page.setViewportSize(viewport);
        await page.goto(`${demo.app.url}/demo`);
        await launcher(page).click();
        await expect.poll(() => dialog(page).getByRole('tab').count()).toBe(6);
        const panel = (await dialog(page).boundingBox())!;
        const outside = await dialog(page)
          .getByRole('tab')
          .evaluateAll(
            (tabs, edge) => tabs.filter((t) => t.getBoundingClientRect().right > edge + 0.5).map((t) => t.textContent),
            panel.x + panel.width,
          );
        expect(outside).toEqual([]);
        expect(
          await dialog(page)
            .getByRole('tablist')
            .evaluate((row) => row.scrollWidth - row.clientWidth),
        ).toBe(0);
        expect(errors).toEqual([]);
      }
    } finally {
      await demo.api.patch(`/schema/template/record/${template!.id}`, Object.fromEntries(Object.keys(long).map((k) => [k, template![k]])));
    }
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
    // The dialog holds focus while it reads which tabs it has, then gives it to the first.
    await expect.poll(async () => (await widgetFocus(page))?.text).toBe('Streaks');

    // Arrow keys move between tabs.
    await page.keyboard.press('ArrowRight');
    // Focus follows the selected tab once it is drawn selected.
    await expect.poll(async () => (await widgetFocus(page))?.text).toBe('Challenges');
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

  it('is modal to the pointer too: a press outside closes it, focus back on the launcher unless the press gave it to the page', async () => {
    const { page, errors } = await demo.newPage();
    await page.goto(`${demo.app.url}/demo`);
    const open = async () => {
      await launcher(page).click();
      await expect.poll(async () => (await widgetFocus(page))?.inPanel).toBe(true);
    };
    await open();
    // A press inside the panel leaves it open.
    await dialog(page).locator('h2').click();
    expect(await dialog(page).count()).toBe(1);

    // On nothing that takes focus: the panel closes, and focus, which would drop to the page's body, is the launcher's.
    await page.locator('.hero h1').click();
    await expect.poll(() => dialog(page).count()).toBe(0);
    expect(await launcher(page).getAttribute('aria-expanded')).toBe('false');
    await expect.poll(async () => (await widgetFocus(page))?.launcher).toBe(true);

    // On a control of the page: the panel closes, and the control keeps the focus the press gave it.
    await open();
    await page.getByRole('button', { name: 'Add to cart' }).first().click();
    await expect.poll(() => dialog(page).count()).toBe(0);
    // After the widget's own look at where the press left focus.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve)));
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Add to cart');
    expect(errors).toEqual([]);
  });

  it('shows the close button’s focus ring against the header: not in the header’s own colour', async () => {
    const { page, errors } = await demo.newPage();
    await page.goto(`${demo.app.url}/demo?mode=member`);
    await expect.poll(() => launcher(page).count()).toBe(1);
    await launcher(page).focus();
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await widgetFocus(page))?.text).toBe('Streaks');
    // Back from the first tab to the close button, by keyboard: its ring shows (:focus-visible).
    await page.keyboard.press('Shift+Tab');
    const close = dialog(page).getByRole('button', { name: 'Close' });
    expect(await close.evaluate((el) => el.matches(':focus-visible'))).toBe(true);
    const { ring, style, width, header } = await close.evaluate((el) => {
      const css = getComputedStyle(el);
      return {
        ring: css.outlineColor,
        style: css.outlineStyle,
        width: parseFloat(css.outlineWidth),
        header: getComputedStyle(el.closest('.lw-head')!).backgroundColor,
      };
    });
    expect(header).toBe('rgb(91, 33, 182)');
    expect(style).not.toBe('none');
    expect(width).toBeGreaterThanOrEqual(2);
    // WCAG's 3:1 for a focus indicator against what is around it.
    expect(contrast(ring, header)).toBeGreaterThanOrEqual(3);
    // A 44 px target, as phones want, within the header: the title keeps its place beside it.
    const target = (await close.boundingBox())!;
    expect([target.width, target.height]).toEqual([44, 44]);
    const [title, head] = await Promise.all([dialog(page).locator('h2').boundingBox(), dialog(page).locator('.lw-head').boundingBox()]);
    expect(target.y).toBeGreaterThanOrEqual(head!.y);
    expect(target.x + target.width).toBeLessThanOrEqual(head!.x + head!.width);
    expect(title!.x + title!.width).toBeLessThanOrEqual(target.x);
    await screenshot(page, 'close-focus-ring');
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

/** WCAG's contrast ratio of two computed `rgb()` / `rgba()` colours. */
function contrast(a: string, b: string): number {
  const luminance = (css: string) => {
    const [r, g, bl] = css
      .match(/[\d.]+/g)!
      .slice(0, 3)
      .map((v) => {
        const c = Number(v) / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe('the panel’s layout', () => {
  /** The tab panel's box, the tab bar's and the panel's, once the tab has loaded. */
  const boxes = (page: Page) =>
    dialog(page).evaluate((panel) => {
      const box = (el: Element | null) => {
        const r = el!.getBoundingClientRect();
        return { top: Math.round(r.top), bottom: Math.round(r.bottom), height: Math.round(r.height) };
      };
      return {
        panel: box(panel),
        tabs: box(panel.querySelector('[role="tablist"]')),
        content: box(panel.querySelector('[role="tabpanel"]')),
      };
    });
  const loaded = (page: Page) => expect.poll(() => tabPanel(page).getByText('Loading…').count()).toBe(0);

  it('leaves the content room on a phone held sideways: the panel takes the height, its header compact', async () => {
    const { page, errors } = await demo.newPage({ viewport: { width: 667, height: 375 } });
    await page.goto(`${demo.app.url}/demo?lang=de`);
    await launcher(page).click();
    await expect.poll(() => tabPanel(page).textContent()).toContain('Täglicher Besuch');
    const { panel, tabs, content } = await boxes(page);
    // Inside the screen, and most of it: the sign-up and log-in buttons and the tabs leave the content at least 150px.
    expect(panel.top).toBeGreaterThanOrEqual(0);
    expect(panel.bottom).toBeLessThanOrEqual(375);
    expect(panel.height).toBeGreaterThanOrEqual(375 - 32);
    expect(content.top).toBeGreaterThanOrEqual(tabs.bottom);
    expect(content.height).toBeGreaterThanOrEqual(150);
    expect(await dialog(page).getByRole('link', { name: 'Konto erstellen' }).isVisible()).toBe(true);
    await screenshot(page, 'landscape-de-guest');
    expect(errors).toEqual([]);
  });

  it('keeps the tab bar in place when switching tabs: one panel height, the content scrolling inside it', async () => {
    for (const viewport of [
      { width: 1200, height: 800 },
      { width: 375, height: 667 },
    ]) {
      const { page, errors } = await demo.newPage({ viewport });
      await page.goto(`${demo.app.url}/demo`);
      await launcher(page).click();
      const seen: Awaited<ReturnType<typeof boxes>>[] = [];
      for (const name of ['Streaks', 'Challenges', 'Missions', 'Leaderboard', 'Stars', 'Rewards', 'Streaks']) {
        await dialog(page).getByRole('tab', { name }).click();
        await loaded(page);
        seen.push(await boxes(page));
      }
      // The Rewards tab of a guest is one line, the leaderboard ten rows: the tabs stay where they are all the same.
      expect(new Set(seen.map((b) => b.tabs.top)).size, `${viewport.width}px`).toBe(1);
      expect(new Set(seen.map((b) => b.panel.height)).size, `${viewport.width}px`).toBe(1);
      expect(seen[0]!.panel.bottom).toBeLessThanOrEqual(viewport.height);
      expect(seen[0]!.panel.top).toBeGreaterThanOrEqual(0);
      expect(errors).toEqual([]);
    }
  });

  it('writes the demo page in English, the widget in the language picked, and asks for no icon', async () => {
    const { page, errors } = await demo.newPage();
    const failed: string[] = [];
    page.on('response', (res) => res.status() >= 400 && failed.push(`${res.status()} ${res.url()}`));
    page.on('console', (msg) => msg.type() === 'error' && failed.push(msg.text()));
    await page.goto(`${demo.app.url}/demo?lang=de`);
    await launcher(page).click();
    await expect.poll(() => tabPanel(page).textContent()).toContain('Täglicher Besuch');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    expect(await page.locator('loyalty-widget .lw-root').getAttribute('lang')).toBe('de');
    expect(await dialog(page).evaluate((el) => el.closest('[lang]')?.getAttribute('lang'))).toBe('de');
    // Each language in the picker is named in itself.
    expect(await page.locator('select[name="lang"] option[value="fr"]').getAttribute('lang')).toBe('fr');
    // An icon that needs no request: no /favicon.ico answered 404.
    expect(await page.locator('link[rel="icon"]').getAttribute('href')).toMatch(/^data:/);
    expect(failed).toEqual([]);
    expect(errors).toEqual([]);
  });
});
