import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { formatTable, openBenchDatabase } from '../../../apps/core/bench/lib.js';
import { loadConfig } from '../../../apps/core/src/config.js';
import { createDb } from '../../../apps/core/src/db/knex.js';
import { migrateLatest } from '../../../apps/core/src/db/migrate.js';
import { ensureDemoAccount } from '../../../apps/core/src/demo.js';
import { startApi } from '../../../apps/core/src/server.js';
import { launchChromium } from '../test/support/browser.js';

/**
 * `pnpm bench:widget`: what the widget costs the storefront. The demo page is loaded in chromium,
 * each time in a fresh context (a first visit, nothing cached), without the widget and with it
 * (guest and signed in), until the widget's launcher shows and the network is idle. Counted: the
 * script bytes transferred (what came over the wire as Script resources) and the main-thread
 * time (CDP Performance.getMetrics: ScriptDuration, RecalcStyleDuration + LayoutDuration, and
 * TaskDuration, every main-thread task).
 */

const RUNS = 15;
const RESULTS_FILE = fileURLToPath(new URL('../bench-results.json', import.meta.url));

const VARIANTS = [
  { name: 'without widget', query: 'widget=off' },
  { name: 'widget, guest', query: 'mode=guest' },
  { name: 'widget, member', query: 'mode=member' },
] as const;

interface Sample {
  scriptBytes: number;
  scriptMs: number;
  /** Style and layout: where the rest of the main-thread time goes. */
  styleLayoutMs: number;
  taskMs: number;
}

async function loadOnce(browser: Browser, url: string, widget: boolean): Promise<Sample> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Performance.enable');
    const scripts = new Set<string>();
    let scriptBytes = 0;
    cdp.on('Network.responseReceived', (e) => {
      if (e.type === 'Script') scripts.add(e.requestId);
    });
    cdp.on('Network.loadingFinished', (e) => {
      if (scripts.has(e.requestId)) scriptBytes += e.encodedDataLength;
    });
    await page.goto(url, { waitUntil: 'load' });
    if (widget) await page.locator('loyalty-widget .lw-launcher').waitFor();
    await page.waitForLoadState('networkidle');
    const { metrics } = await cdp.send('Performance.getMetrics');
    const metric = (name: string) => (metrics.find((m) => m.name === name)?.value ?? 0) * 1000;
    return {
      scriptBytes,
      scriptMs: metric('ScriptDuration'),
      styleLayoutMs: metric('RecalcStyleDuration') + metric('LayoutDuration'),
      taskMs: metric('TaskDuration'),
    };
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function main(): Promise<void> {
  const database = await openBenchDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'loyalty-bench-widget-'));
  const config = loadConfig({
    DATABASE_URL: database.url,
    LOYALTY_MASTER_KEY: randomBytes(32).toString('base64'),
    LOYALTY_PLATFORM_TOKEN: randomBytes(16).toString('hex'),
    LOYALTY_DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: 'silent',
    // Page loads come quickly from one address; the guest limit is not what is measured.
    LOYALTY_GUEST_RATE_LIMIT_PER_SECOND: '100000',
    LOYALTY_ENDUSER_RATE_LIMIT_PER_SECOND: '100000',
  });
  const db = createDb(database.url);
  await migrateLatest(db);
  const api = await startApi(config, db, undefined, { demo: true });
  let browser: Browser | undefined;
  try {
    await ensureDemoAccount(api.services, api.url);
    browser = await launchChromium();
    const results: Record<string, { median: Sample; samples: Sample[] }> = {};
    for (const variant of VARIANTS) {
      const url = `${api.url}/demo?${variant.query}`;
      const widget = variant.query !== 'widget=off';
      // One unrecorded load warms the service and the browser.
      await loadOnce(browser, url, widget);
      const samples: Sample[] = [];
      for (let i = 0; i < RUNS; i++) samples.push(await loadOnce(browser, url, widget));
      results[variant.name] = {
        median: {
          scriptBytes: median(samples.map((s) => s.scriptBytes)),
          scriptMs: median(samples.map((s) => s.scriptMs)),
          styleLayoutMs: median(samples.map((s) => s.styleLayoutMs)),
          taskMs: median(samples.map((s) => s.taskMs)),
        },
        samples,
      };
    }

    const base = results[VARIANTS[0].name]!.median;
    const rows = VARIANTS.map(({ name }) => {
      const m = results[name]!.median;
      const diff = (v: number, b: number, digits: number) => (name === VARIANTS[0].name ? '' : ` (+${(v - b).toFixed(digits)})`);
      return [
        name,
        `${m.scriptBytes}${diff(m.scriptBytes, base.scriptBytes, 0)}`,
        `${m.scriptMs.toFixed(1)}${diff(m.scriptMs, base.scriptMs, 1)}`,
        `${m.styleLayoutMs.toFixed(1)}${diff(m.styleLayoutMs, base.styleLayoutMs, 1)}`,
        `${m.taskMs.toFixed(1)}${diff(m.taskMs, base.taskMs, 1)}`,
      ];
    });
    const version = browser.version();
    console.log(`bench:widget — /demo in chromium ${version}, median of ${RUNS} first visits each, ${availableParallelism()} cores\n`);
    console.log(formatTable(['page', 'script bytes', 'script ms', 'style+layout ms', 'main-thread task ms'], rows));
    writeFileSync(
      RESULTS_FILE,
      `${JSON.stringify({ at: new Date().toISOString(), chromium: version, runs: RUNS, cores: availableParallelism(), database: database.description, results }, null, 2)}\n`,
    );
    console.log(`\nwritten to ${RESULTS_FILE}`);
  } finally {
    await browser?.close();
    await api.close();
    await db.destroy();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
