import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { type DemoCredentials, demoRoutes, ensureDemoAccount } from '../../../../apps/core/src/demo/index.js';
import { type Client, startTestApp, type TestApp } from '../../../../apps/core/test/support/harness.js';

/**
 * Debian's browsers, installed by scripts/ensure-chromium.sh; Playwright downloads none. Tests run
 * in the headless shell (Playwright's own choice for tests: about half the CPU per page); the
 * benchmark measures the page's cost in chromium, the browser a shopper has.
 */
export const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
export const CHROMIUM = '/usr/bin/chromium';
/** Without the background-networking flags chromium keeps dialling Google, which this network refuses. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Playwright gives every launch a fresh temporary profile (user-data dir). */
export const launchChromium = (executablePath = HEADLESS_SHELL): Promise<Browser> =>
  chromium.launch({ executablePath, args: CHROMIUM_ARGS });

const ARTIFACTS = fileURLToPath(new URL('../../../../test-artifacts/widget/', import.meta.url));

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), animations: 'disabled' });
}

export interface DemoIds {
  accountId: string;
  floatingWidgetId: string;
  themeId: string;
  templateId: string;
}

export interface Demo {
  app: TestApp;
  creds: DemoCredentials;
  /** The records API with the demo account's key. */
  api: Client;
  ids: DemoIds;
  /** The member of `/demo?mode=member`, whom the demo seeded. */
  shopper(): Promise<string>;
  browser: Browser;
  /** A browser context of its own (cookies, permissions) with a page on it. */
  newPage(options?: Parameters<Browser['newContext']>[0]): Promise<{ context: BrowserContext; page: Page; errors: string[] }>;
  close(): Promise<void>;
}

/**
 * The real core on a database of its own, seeded with the demo data exactly as `serve --demo`
 * does it (through the API), and a chromium to look at `/demo` with.
 */
export async function startDemo(): Promise<Demo> {
  const dataDir = mkdtempSync(join(tmpdir(), 'loyalty-widget-demo-'));
  const app = await startTestApp({ LOYALTY_DATA_DIR: dataDir }, { extraRoutes: demoRoutes });
  const creds = await ensureDemoAccount(app.running.services, app.url);
  const api = app.anon.with({ 'x-api-key': creds.apiKey, 'x-api-secret': creds.apiSecret });
  const first = async (slug: string) => ((await api.get(`/schema/${slug}/record`, { limit: 1 })).body.data[0] as { id: string }).id;
  const ids = {
    accountId: creds.accountId,
    floatingWidgetId: await first('floating_widget'),
    themeId: await first('theme'),
    templateId: await first('template'),
  };
  const browser = await launchChromium();
  return {
    app,
    creds,
    api,
    ids,
    browser,
    async shopper() {
      const visits = { operator: 'and', conditions: [{ fieldSlug: 'uniqueIdentifier', operator: 'contains', fieldValue: 'demo-visit-' }] };
      return (await api.get('/schema/streak_log/record', { filters: visits, fields: ['ownedById'], limit: 1 })).body.data[0]
        .ownedById as string;
    },
    async newPage(options = {}) {
      const context = await browser.newContext({ viewport: { width: 1200, height: 800 }, ...options });
      // Well inside the test timeout, so that a missing element fails with Playwright's own message.
      context.setDefaultTimeout(10_000);
      const page = await context.newPage();
      const errors: string[] = [];
      // Uncaught exceptions and unhandled rejections of the page: the widget must cause none.
      page.on('pageerror', (err) => errors.push(err.message));
      return { context, page, errors };
    },
    async close() {
      await browser.close();
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const launcher = (page: Page) => page.locator('loyalty-widget .lw-launcher');
export const dialog = (page: Page) => page.locator('loyalty-widget [role="dialog"]');
/** The panel's tab names; the extra tabs (leaderboards, points) arrive after the first tab's content, so poll it. */
export const tabNames = (page: Page) =>
  dialog(page)
    .getByRole('tab')
    .evaluateAll((tabs) => tabs.map((t) => t.textContent));
export const tabPanel = (page: Page) => page.locator('loyalty-widget [role="tabpanel"]');

/** What has focus inside the widget's shadow root, if anything. */
export function widgetFocus(page: Page): Promise<{ launcher: boolean; inPanel: boolean; text: string } | null> {
  return page.evaluate(() => {
    const active = document.querySelector('loyalty-widget')?.shadowRoot?.activeElement;
    if (!active) return null;
    return {
      launcher: active.classList.contains('lw-launcher'),
      inPanel: Boolean(active.closest('[role="dialog"]')),
      text: active.textContent ?? '',
    };
  });
}

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** axe-core's violations inside the widget (its open shadow root, or a loyalty page's), by rule and the nodes that break it. */
export async function violations(page: Page, host = 'loyalty-widget'): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async (host) => {
    const { axe } = window as unknown as {
      axe: { run(context: Element): Promise<{ passes: unknown[]; violations: { id: string; nodes: { html: string }[] }[] }> };
    };
    const result = await axe.run(document.querySelector(host)!);
    // A context axe did not reach would pass nothing.
    if (!result.passes.length) throw new Error('axe checked nothing in the widget');
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`);
  }, host);
}
