import { randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
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

const VIEWPORT = { width: 1200, height: 800 };

/**
 * A merchant's page embedding the widget with the given settings. It is answered by the browser
 * at the core's own origin, so the widget's API calls go to the real core as from /demo.
 */
async function merchantPage(page: Page, init: Record<string, unknown>, html = ''): Promise<void> {
  const url = `${demo.app.url}/merchant-page`;
  await page.route(url, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html${html}><body><h1>Another shop</h1>
<script>window.LoyaltyWidget=window.LoyaltyWidget||{q:[],init:function(){this.q.push(arguments)}};</script>
<script src="${demo.app.url}/widget/loader.js" async></script>
<script>LoyaltyWidget.init(${JSON.stringify(init)});</script></body></html>`,
    }),
  );
  await page.goto(url);
}

describe('display configuration', () => {
  it.each([
    ['bottom_right', (b: Box) => [VIEWPORT.width - (b.x + b.width), VIEWPORT.height - (b.y + b.height)]],
    ['bottom_left', (b: Box) => [b.x, VIEWPORT.height - (b.y + b.height)]],
    ['top_right', (b: Box) => [VIEWPORT.width - (b.x + b.width), b.y]],
    ['top_left', (b: Box) => [b.x, b.y]],
  ] as const)('places the launcher %s at its offsets, and a PATCH shows on the next page load', async (alignment, offsets) => {
    const patched = await demo.api.patch(`/schema/floating_widget/record/${demo.ids.floatingWidgetId}`, {
      alignment,
      alignmentPositionX: 30,
      alignmentPositionY: 44,
    });
    expect(patched.status).toBe(200);
    const { page, errors } = await demo.newPage();
    await page.goto(`${demo.app.url}/demo`);
    const box = (await launcher(page).boundingBox())!;
    const [x, y] = offsets(box);
    expect(x).toBeCloseTo(30, 0);
    expect(y).toBeCloseTo(44, 0);
    // The panel opens on the launcher's side of the screen, inside the viewport.
    await launcher(page).click();
    const panel = (await dialog(page).boundingBox())!;
    expect(panel.x >= 0 && panel.y >= 0 && panel.x + panel.width <= VIEWPORT.width && panel.y + panel.height <= VIEWPORT.height).toBe(true);
    expect(panel.x + panel.width / 2 < VIEWPORT.width / 2).toBe(alignment.endsWith('left'));
    await screenshot(page, `alignment-${alignment}`);
    expect(errors).toEqual([]);
  });

  it.each(['top_left', 'top_right'] as const)(
    "keeps a %s launcher and its panel clear of the shop's header with a vertical offset",
    async (alignment) => {
      const { page, errors } = await demo.newPage();
      await page.goto(`${demo.app.url}/demo`);
      const header = (await page.locator('body > header').boundingBox())!;
      const offset = Math.ceil(header.y + header.height) + 12;
      const patched = await demo.api.patch(`/schema/floating_widget/record/${demo.ids.floatingWidgetId}`, {
        alignment,
        alignmentPositionX: 24,
        alignmentPositionY: offset,
      });
      expect(patched.status).toBe(200);
      await page.reload();
      const box = (await launcher(page).boundingBox())!;
      expect(box.y).toBeCloseTo(offset, 0);
      await launcher(page).click();
      const panel = (await dialog(page).boundingBox())!;
      expect(panel.y).toBeGreaterThan(box.y + box.height);
      await screenshot(page, `below-header-${alignment}`);
      expect(errors).toEqual([]);
    },
  );

  it('names the tabs in the shopper’s language when the template has no titles in any language', async () => {
    const made = await demo.api.post('/schema/template/record', {
      name: 'Template without tab titles',
      streaksTabTitle: null,
      challengesTabTitle: null,
      missionsTabTitle: null,
      rewardsTabTitle: null,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const { page, errors } = await demo.newPage();
    await merchantPage(page, { ...demo.ids, templateId: made.body.data.id, baseUrl: demo.app.url, languageCode: 'it' });
    await launcher(page).click();
    await expect.poll(() => dialog(page).getByRole('tab').count()).toBe(6);
    await expect.poll(() => tabNames(page)).toEqual(['Serie', 'Sfide', 'Missioni', 'Classifica', 'Stelle', 'Premi']);
    expect(errors).toEqual([]);
  });

  it('styles the launcher from the floating widget: colours, border, radius, shadow, font size, title and icon', async () => {
    const star = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5" fill="gold"/></svg>';
    const look = {
      alignment: 'bottom_right',
      eudTitle: 'Perks',
      backgroundColor: 'rgba(10, 20, 30, 1)',
      textColor: 'rgba(250, 240, 230, 1)',
      borderColor: 'rgba(200, 0, 0, 1)',
      borderWidth: 3,
      borderRadius: 6,
      boxShadow: '0 2px 4px rgba(0, 0, 0, 0.5)',
      fontSize: 21,
    };
    expect((await demo.api.patch(`/schema/floating_widget/record/${demo.ids.floatingWidgetId}`, look)).status).toBe(200);
    const { page } = await demo.newPage();
    await page.goto(`${demo.app.url}/demo`);
    await expect.poll(() => launcher(page).textContent()).toBe('Perks');
    const style = await launcher(page).evaluate((el) => {
      const s = getComputedStyle(el);
      return {
        bg: s.backgroundColor,
        color: s.color,
        border: `${s.borderTopWidth} ${s.borderTopStyle} ${s.borderTopColor}`,
        radius: s.borderTopLeftRadius,
        shadow: s.boxShadow,
        size: s.fontSize,
      };
    });
    expect(style).toEqual({
      bg: 'rgb(10, 20, 30)',
      color: 'rgb(250, 240, 230)',
      border: '3px solid rgb(200, 0, 0)',
      radius: '6px',
      shadow: 'rgba(0, 0, 0, 0.5) 0px 2px 4px 0px',
      size: '21px',
    });

    // The icon comes from eudIcon: an upload's URL in practice, or any https URL (here a CDN the browser answers for).
    const withIcon = await demo.api.patch(`/schema/floating_widget/record/${demo.ids.floatingWidgetId}`, {
      eudIcon: 'https://cdn.example.com/star.svg',
    });
    expect(withIcon.status).toBe(200);
    await page.route('https://cdn.example.com/star.svg', (route) => route.fulfill({ contentType: 'image/svg+xml', body: star }));
    await page.reload();
    await expect
      .poll(() =>
        launcher(page)
          .locator('img')
          .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
      )
      .toBe(true);
    expect(await launcher(page).locator('img').getAttribute('src')).toBe('https://cdn.example.com/star.svg');
    await screenshot(page, 'launcher-styled');
    expect((await demo.api.patch(`/schema/floating_widget/record/${demo.ids.floatingWidgetId}`, { eudIcon: null })).status).toBe(200);
  });

  it("applies the theme's colours, font and radius as CSS custom properties", async () => {
    const theme = {
      primaryColor: 'rgba(5, 150, 105, 1)',
      primaryContrastTextColor: 'rgba(255, 255, 255, 1)',
      secondaryColor: 'rgba(236, 253, 245, 1)',
      primaryTextColor: 'rgba(6, 78, 59, 1)',
      secondaryTextColor: 'rgba(71, 85, 105, 1)',
      backgroundColor: 'rgba(250, 250, 249, 1)',
      fontFamily: 'Georgia, serif',
      borderRadius: 4,
    };
    expect((await demo.api.patch(`/schema/theme/record/${demo.ids.themeId}`, theme)).status).toBe(200);
    const { page } = await demo.newPage();
    await page.goto(`${demo.app.url}/demo`);
    await launcher(page).click();
    const read = await dialog(page).evaluate((panel) => {
      const root = panel.closest('.lw-root')!;
      const s = getComputedStyle(root);
      const vars = Object.fromEntries(
        ['primary', 'on-primary', 'secondary', 'text', 'muted', 'bg', 'font', 'radius'].map((n) => [
          n,
          s.getPropertyValue(`--lw-${n}`).trim(),
        ]),
      );
      const head = getComputedStyle(panel.querySelector('.lw-head')!);
      return {
        vars,
        headBackground: head.backgroundColor,
        panelRadius: getComputedStyle(panel).borderTopLeftRadius,
        font: getComputedStyle(panel).fontFamily,
      };
    });
    expect(read.vars).toEqual({
      primary: theme.primaryColor,
      'on-primary': theme.primaryContrastTextColor,
      secondary: theme.secondaryColor,
      text: theme.primaryTextColor,
      muted: theme.secondaryTextColor,
      bg: theme.backgroundColor,
      font: theme.fontFamily,
      radius: '4px',
    });
    expect(read).toMatchObject({ headBackground: 'rgb(5, 150, 105)', panelRadius: '4px', font: 'Georgia, serif' });
    await screenshot(page, 'theme-applied');
  });

  it('keeps the store and the widget apart: store CSS does not reach inside the shadow root', async () => {
    const { page } = await demo.newPage();
    await page.goto(`${demo.app.url}/demo`);
    await page.addStyleTag({
      content: 'button, h2, div { font-family: "Comic Sans MS" !important; color: red !important; display: block !important }',
    });
    await launcher(page).click();
    expect(
      await dialog(page)
        .locator('h2')
        .evaluate((el) => getComputedStyle(el).color),
    ).not.toBe('rgb(255, 0, 0)');
    // The widget's rules are the shadow root's own (constructed stylesheets), none in the page's DOM:
    // the demo's style and the one added here are all there is.
    expect(await page.evaluate(() => document.querySelector('loyalty-widget')?.shadowRoot?.adoptedStyleSheets.length)).toBe(2);
    expect(await page.evaluate(() => document.querySelectorAll('style').length)).toBe(2);
  });

  it('keeps out store rules that select its host element itself (`*`, `body *`), whose inherited values would flow inside', async () => {
    const { page } = await demo.newPage();
    await page.goto(`${demo.app.url}/demo?mode=member`);
    await page.addStyleTag({
      content:
        '* { letter-spacing: .3em; text-transform: uppercase; font-style: italic } body * { white-space: nowrap; text-align: center }',
    });
    await launcher(page).click();
    const look = await dialog(page)
      .locator('h2')
      .evaluate((el) => {
        const s = getComputedStyle(el);
        return [s.letterSpacing, s.textTransform, s.fontStyle, s.whiteSpace, s.textAlign];
      });
    expect(look).toEqual(['normal', 'none', 'normal', 'normal', 'start']);
  });

  it('keeps its looks on a store page whose Content-Security-Policy allows no inline styles', async () => {
    const { page } = await demo.newPage();
    await page.route(`${demo.app.url}/demo*`, async (route) => {
      const res = await route.fetch();
      const csp = "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self'; img-src 'self' data:; connect-src 'self'";
      await route.fulfill({ response: res, headers: { ...res.headers(), 'content-security-policy': csp } });
    });
    await page.goto(`${demo.app.url}/demo?mode=member`);
    expect(await launcher(page).evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
    await launcher(page).click();
    expect(await page.locator('loyalty-widget .lw-panel').evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
    await dialog(page).locator('h2').waitFor();
  });
});

type Box = { x: number; y: number; width: number; height: number };

/** Whether each text in `parts` is drawn left of the next inside `el`: the order a left-to-right reader reads them in. */
const readsLeftToRight = (el: Element, parts: string[]) => {
  const left = (part: string) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent!.indexOf(part);
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + part.length);
      return range.getBoundingClientRect().left;
    }
    throw new Error(`"${part}" is not in "${el.textContent}"`);
  };
  const xs = parts.map(left);
  return xs.every((x, i) => i === 0 || xs[i - 1]! < x);
};

describe('on a right-to-left page', () => {
  it('lays its panel out left to right, as all its languages are written: "380 Sterne", "380 / 500"', async () => {
    const { page, errors } = await demo.newPage();
    await page.route(`${demo.app.url}/demo*`, async (route) => {
      const res = await route.fetch();
      const body = (await res.text()).replace('<html lang="en">', '<html lang="he" dir="rtl">');
      await route.fulfill({ response: res, body });
    });
    await page.goto(`${demo.app.url}/demo?mode=member&lang=de`);
    expect(await page.evaluate(() => getComputedStyle(document.body).direction)).toBe('rtl');
    await launcher(page).click();
    await dialog(page).getByRole('tab', { name: 'Sterne' }).click();
    const card = page.locator('loyalty-widget [data-balance]');
    await card.waitFor();
    expect(await card.locator('.lw-big').textContent()).toBe('380 Sterne');
    expect(await card.locator('.lw-big').evaluate(readsLeftToRight, ['380', 'Sterne'])).toBe(true);
    expect(await card.locator('.lw-pair').evaluate(readsLeftToRight, ['380', '/', '500'])).toBe(true);
    expect(await dialog(page).evaluate((el) => getComputedStyle(el).direction)).toBe('ltr');
    expect(await page.locator('loyalty-widget .lw-root').getAttribute('dir')).toBe('ltr');
    await screenshot(page, 'rtl-page-de');
    expect(errors).toEqual([]);
  });

  it('marks its panel with the language it shows: English for a language it does not have, not the page’s', async () => {
    const { page, errors } = await demo.newPage();
    const warnings: string[] = [];
    page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
    await merchantPage(page, { ...demo.ids, baseUrl: demo.app.url, languageCode: 'ar' }, ' lang="he" dir="rtl"');
    await launcher(page).click();
    await expect.poll(() => tabNames(page)).toContain('Streaks');
    expect(warnings.some((w) => w.includes('"ar"'))).toBe(true);
    expect(await dialog(page).evaluate((el) => el.closest('[lang]')?.getAttribute('lang'))).toBe('en');
    expect(await launcher(page).evaluate((el) => [el.closest('[dir]')?.getAttribute('dir'), getComputedStyle(el).direction])).toEqual([
      'ltr',
      'ltr',
    ]);
    expect(errors).toEqual([]);
  });
});

describe('failures stay inside the widget', () => {
  it('comes back whole after a moment without the network: every tab, focus kept in the panel, Escape still closing it', async () => {
    const { page, errors } = await demo.newPage();
    await page.goto(`${demo.app.url}/demo?mode=member`);
    await launcher(page).waitFor();
    // The network drops once the launcher is drawn: the panel's reads all fail.
    const drop = (route: import('playwright-core').Route) => route.abort('internetdisconnected');
    await page.route('**/api/v1.0/**', drop);
    await launcher(page).click();
    const retry = dialog(page).getByRole('button', { name: 'Try again' });
    await retry.waitFor();
    expect(await dialog(page).getByRole('tab').count()).toBe(4);
    await page.unroute('**/api/v1.0/**', drop);
    await retry.focus();
    await page.keyboard.press('Enter');
    // The extra tabs are read again on their own: the points tab and the leaderboard come back.
    await expect
      .poll(() => dialog(page).getByRole('tab').allTextContents(), { timeout: 8_000 })
      .toEqual(['Streaks', 'Challenges', 'Missions', 'Leaderboard', 'Stars', 'Rewards']);
    expect((await widgetFocus(page))?.inPanel).toBe(true);
    await page.keyboard.press('Escape');
    await dialog(page).waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });

  it('brings the extra tabs back after an outage of minutes, for as long as the panel stays open', async () => {
    const { page, errors } = await demo.newPage();
    await page.clock.install();
    await page.goto(`${demo.app.url}/demo?mode=member`);
    await launcher(page).waitFor();
    const drop = (route: import('playwright-core').Route) => route.abort('internetdisconnected');
    await page.route('**/api/v1.0/**', drop);
    await launcher(page).click();
    await dialog(page).getByRole('button', { name: 'Try again' }).waitFor();
    // The page's clock moved on in steps, each failed read given the real time to fail and set its next try.
    const pass = async (ms: number) => {
      for (let at = 0; at < ms; at += 5_000) {
        await page.clock.runFor(5_000);
        await page.waitForTimeout(50);
      }
    };
    // Two minutes without the network: past the first tries (2, 5 and 10 s apart).
    await pass(120_000);
    expect(await dialog(page).getByRole('tab').count()).toBe(4);
    await page.unroute('**/api/v1.0/**', drop);
    await pass(25_000);
    await expect
      .poll(() => dialog(page).getByRole('tab').allTextContents(), { timeout: 8_000 })
      .toEqual(['Streaks', 'Challenges', 'Missions', 'Leaderboard', 'Stars', 'Rewards']);
    expect(errors).toEqual([]);
  });

  it('waits out a board being ranked (503 with Retry-After) and shows it, without the error state', async () => {
    const { page, errors } = await demo.newPage();
    const asked: number[] = [];
    // The core's answer while a new large board is built (docs/api.md, Leaderboards), then the board.
    await page.route('**/standings*', async (route) => {
      asked.push(Date.now());
      if (asked.length === 1)
        return route.fulfill({
          status: 503,
          headers: { 'retry-after': '1', 'access-control-allow-origin': '*', 'access-control-expose-headers': 'retry-after' },
          contentType: 'application/json',
          body: JSON.stringify({ error: { status: 503, code: 'unavailable', message: 'The leaderboard is being built.', details: [] } }),
        });
      return route.continue();
    });
    await page.goto(`${demo.app.url}/demo`);
    await launcher(page).click();
    await dialog(page).getByRole('tab', { name: 'Leaderboard' }).click();
    await expect.poll(() => tabPanel(page).locator('[data-standings] li').count(), { timeout: 8_000 }).toBe(10);
    expect(asked).toHaveLength(2);
    expect(asked[1]! - asked[0]!).toBeGreaterThanOrEqual(900);
    expect(await dialog(page).getByRole('button', { name: 'Try again' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('shows a quiet error state for a floating widget id that does not exist, and throws nothing into the page', async () => {
    const { page, errors } = await demo.newPage();
    const { accountId, templateId, themeId } = demo.ids;
    await merchantPage(page, { baseUrl: demo.app.url, accountId, templateId, themeId, floatingWidgetId: randomUUID(), languageCode: 'en' });
    // The launcher still shows, with the default look, so the shopper can read what happened.
    await launcher(page).click();
    const status = dialog(page).getByRole('status');
    await expect.poll(() => status.textContent()).toContain('Rewards are unavailable right now.');
    expect(await dialog(page).getByRole('button', { name: 'Try again' }).count()).toBe(1);
    await screenshot(page, 'error-state');
    expect(await page.evaluate(() => document.querySelector('h1')?.textContent)).toBe('Another shop');
    expect(errors).toEqual([]);
  });

  it('names a launcher without a title in the page’s language while the core is down, before and after the app comes', async () => {
    const { page, errors } = await demo.newPage();
    await page.route('**/api/v1.0/**', (route) => route.abort('connectionrefused'));
    await merchantPage(page, { ...demo.ids, baseUrl: demo.app.url, languageCode: 'de' });
    // The spec's default launcher: an icon, named for screen readers.
    await expect.poll(() => launcher(page).getAttribute('aria-label')).toBe('Prämien');
    expect(await launcher(page).textContent()).toBe('');
    await launcher(page).click();
    await expect.poll(() => dialog(page).locator('h2').textContent()).toBe('Prämien');
    expect(await launcher(page).getAttribute('aria-label')).toBe('Prämien');
    expect(errors).toEqual([]);
  });

  it('shows the error state when the API refuses the token, and ignores a bad init call', async () => {
    const { page, errors } = await demo.newPage();
    const warnings: string[] = [];
    page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
    await merchantPage(page, { ...demo.ids, baseUrl: demo.app.url, accessToken: 'not-a-token' });
    await launcher(page).click();
    await expect.poll(() => dialog(page).getByRole('status').textContent()).toContain('Rewards are unavailable right now.');
    await page.evaluate(() => (window as unknown as { LoyaltyWidget: { init(c: unknown): void } }).LoyaltyWidget.init({ baseUrl: 42 }));
    expect(warnings.some((w) => w.includes('[LoyaltyWidget] init needs'))).toBe(true);
    expect(errors).toEqual([]);
  });
});

describe('served assets', () => {
  it('serves the loader briefly cached and the hashed app and languages cached for good, gzipped or in brotli when accepted, without auth', async () => {
    const loader = await fetch(`${demo.app.url}/widget/loader.js`, { headers: { 'accept-encoding': 'identity' } });
    expect(loader.status).toBe(200);
    expect(loader.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(loader.headers.get('cache-control')).toBe('public, max-age=300');
    expect(loader.headers.get('content-encoding')).toBeNull();
    const source = await loader.text();
    expect(Buffer.byteLength(source)).toBeLessThanOrEqual(10_000);
    // The app and, beside it, each language's words but English's: one of those a shopper loads.
    const files = [...source.matchAll(/\.\/(app-[\w-]+\.js)/g)].map((m) => m[1]!);
    expect(files).toHaveLength(9);
    const served = await Promise.all(
      files.map(async (file) => {
        // Gzip, the larger: what the budget is for.
        const res = await fetch(`${demo.app.url}/widget/${file}`, { headers: { 'accept-encoding': 'gzip' } });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
        expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        expect(res.headers.get('content-encoding')).toBe('gzip');
        expect(res.headers.get('vary')).toBe('accept-encoding');
        const text = await res.text();
        // A browser asking for brotli (every one over https) is sent the smaller copy of the same text.
        const br = await fetch(`${demo.app.url}/widget/${file}`, { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
        expect(br.headers.get('content-encoding')).toBe('br');
        expect(br.headers.get('vary')).toBe('accept-encoding');
        expect(Number(br.headers.get('content-length'))).toBeLessThan(Number(res.headers.get('content-length')));
        expect(await br.text()).toBe(text);
        return { file, bytes: Number(res.headers.get('content-length')), text };
      }),
    );
    // The app exports mount (and mountPage); each language's words are a default export.
    const isApp = (text: string) => / as mount[,}]/.test(text);
    const [app, ...others] = [...served].sort((a, b) => Number(isApp(b.text)) - Number(isApp(a.text)));
    expect(isApp(app!.text)).toBe(true);
    expect(app!.bytes).toBeLessThanOrEqual(21.75 * 1024);
    for (const words of others) {
      expect(words.text).toContain(' as default}');
      expect(words.bytes).toBeLessThanOrEqual(1800);
    }
    expect(others.map((w) => /^app-([\w-]+)-[\w-]{8}\.js$/.exec(w.file)?.[1]).sort()).toEqual([
      'de',
      'es',
      'fr',
      'it',
      'ja',
      'ko',
      'pt',
      'zh-CN',
    ]);
    for (const path of ['/widget/app-nothere.js', '/widget/..%2Fpackage.json', '/widget/index.html']) {
      expect((await fetch(`${demo.app.url}${path}`)).status).toBe(404);
    }
  });

  it('falls back to gzip for a file built without a brotli copy', async () => {
    const dist = fileURLToPath(new URL('../dist/', import.meta.url));
    const file = `app-test-${randomUUID().slice(0, 8)}.js`;
    writeFileSync(join(dist, file), 'export {};');
    writeFileSync(join(dist, `${file}.gz`), gzipSync('export {};'));
    try {
      const res = await fetch(`${demo.app.url}/widget/${file}`, { headers: { 'accept-encoding': 'gzip, br' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBe('gzip');
      expect(await res.text()).toBe('export {};');
    } finally {
      for (const f of [file, `${file}.gz`]) rmSync(join(dist, f));
    }
  });
});
