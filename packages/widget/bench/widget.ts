import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { brotliBest, gzipBest } from '../scripts/compress.mjs';
import { formatTable, openBenchDatabase } from '../../../apps/core/bench/lib.js';
import { loadConfig } from '../../../apps/core/src/config.js';
import { createDb } from '../../../apps/core/src/db/knex.js';
import { migrateLatest } from '../../../apps/core/src/db/migrate.js';
import { demoRoutes, ensureDemoAccount } from '../../../apps/core/src/demo/index.js';
import { startApi } from '../../../apps/core/src/server.js';
import { CHROMIUM, launchChromium } from '../test/support/browser.js';

/**
 * `pnpm bench:widget`: what the widget costs the storefront on a guest's (and a member's) first
 * visit, the lazy launcher beside the eager build (the app imported and mounted at once, as before
 * the launcher was drawn without it) in the same run. The demo page is loaded in chromium, each
 * time in a fresh context (nothing cached), without the widget and with each build, the pages in
 * turn (round by round, so that the machine's slower spells fall on all of them alike), until the
 * launcher is drawn and the network is idle, and for the "until its reminder" rows on until the
 * reminder beside the launcher is drawn too (five seconds after the page is idle, once a session:
 * its reads and its first number format are then counted). Counted per load: the main-thread time (CDP
 * Performance.getMetrics), long tasks (PerformanceObserver), the widget's script bytes over the
 * wire by the time the launcher was drawn and in all, and when the launcher was drawn; then a
 * click on the launcher and the time until the panel is in the page. Separate loads click the
 * launcher the moment it is drawn (the app not yet imported, the worst case of the lazy build),
 * and a few traced loads split the main-thread time by kind of work (Chromium's trace).
 */

const RUNS = Number(process.env.BENCH_WIDGET_RUNS ?? 15);
const TRACE_RUNS = Number(process.env.BENCH_WIDGET_TRACE_RUNS ?? 5);
const RESULTS_FILE = fileURLToPath(new URL('../bench-results.json', import.meta.url));
const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const EAGER_LOADER = fileURLToPath(new URL('dist/loader-eager.js', import.meta.url));
/**
 * The eager loader is served by the core itself, so that it comes compressed and with its real
 * headers: for the run it sits in dist/ under a name the core's widget route serves.
 */
const EAGER_FILE = 'app-bench-eager-loader.js';
const MARK_LAUNCHER = 'loyalty-widget:launcher';
const MARK_PANEL = 'loyalty-widget:panel';

type Build = 'eager' | 'lazy';
interface Variant {
  name: string;
  query: string;
  build?: Build;
  /** Measured on until the reminder beside the launcher is drawn (five seconds after the page is idle), not only until the network is idle. */
  reminder?: boolean;
}
const VARIANTS: Variant[] = [
  { name: 'without widget', query: 'widget=off' },
  { name: 'guest, eager (before)', query: 'mode=guest', build: 'eager' },
  { name: 'guest, lazy', query: 'mode=guest', build: 'lazy' },
  { name: 'guest, lazy, until its reminder', query: 'mode=guest', build: 'lazy', reminder: true },
  { name: 'member, eager (before)', query: 'mode=member', build: 'eager' },
  { name: 'member, lazy', query: 'mode=member', build: 'lazy' },
  { name: 'member, lazy, until its reminder', query: 'mode=member', build: 'lazy', reminder: true },
];

interface Sample {
  taskMs: number;
  scriptMs: number;
  styleLayoutMs: number;
  longTasks: number;
  /** The part of each long task over 50 ms, summed (total blocking time). */
  blockingMs: number;
  /** The widget's script bytes over the wire before the launcher was drawn, and by the end of the load. */
  scriptBytesAtLauncher: number;
  scriptBytes: number;
  /** From navigation start. */
  launcherMs: number | null;
  /** From the click's pointerdown to the panel in the page. */
  openMs: number | null;
}

/**
 * Runs in the page before its scripts: long tasks, the click's time, the widget's marks reported to
 * the bench through a CDP binding (waiting for them with Playwright would evaluate its own script
 * in the page, main-thread work the page without the widget would not get), and for `cold` loads
 * the click itself, the moment the launcher is drawn.
 */
function pageProbe(cold: boolean): void {
  const w = window as unknown as { __bench: { long: number[]; clickAt?: number }; __benchMark?: (name: string) => void };
  w.__bench = { long: [] };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__bench.long.push(e.duration);
  }).observe({ type: 'longtask', buffered: true });
  addEventListener('pointerdown', (e) => (w.__bench.clickAt = e.timeStamp), true);
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (!e.name.startsWith('loyalty-widget:')) continue;
      if (cold && e.name === 'loyalty-widget:launcher') {
        const button = document.querySelector('loyalty-widget')?.shadowRoot?.querySelector<HTMLButtonElement>('.lw-launcher');
        w.__bench.clickAt = performance.now();
        button?.click();
      }
      w.__benchMark?.(e.name);
    }
  }).observe({ type: 'mark' });
}

interface PageReadout {
  long: number[];
  clickAt?: number;
  launcherAt?: number;
  panelAt?: number;
  resources: { name: string; transferSize: number; responseEnd: number }[];
}
const readout = (page: Page): Promise<PageReadout> =>
  page.evaluate(
    // No named function inside: tsx would wrap it in a helper the page does not have.
    ([launcherMark, panelMark]: [string, string]) => {
      const w = window as unknown as { __bench: { long: number[]; clickAt?: number } };
      return {
        long: w.__bench.long,
        clickAt: w.__bench.clickAt,
        launcherAt: performance.getEntriesByName(launcherMark, 'mark')[0]?.startTime,
        panelAt: performance.getEntriesByName(panelMark, 'mark')[0]?.startTime,
        resources: (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((r) => ({
          name: r.name,
          transferSize: r.transferSize,
          responseEnd: r.responseEnd,
        })),
      };
    },
    [MARK_LAUNCHER, MARK_PANEL] as [string, string],
  );

/** A fresh context whose /widget/loader.js is the given build (both through the same interception, to treat them alike). */
async function openPage(browser: Browser, variant: Variant, cold: boolean) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const seen = new Set<string>();
  const waiting = new Map<string, () => void>();
  cdp.on('Runtime.bindingCalled', (e) => {
    if (e.name !== '__benchMark') return;
    seen.add(e.payload);
    waiting.get(e.payload)?.();
  });
  await cdp.send('Runtime.enable');
  await cdp.send('Runtime.addBinding', { name: '__benchMark' });
  const waitForMark = (name: string) => (seen.has(name) ? Promise.resolve() : new Promise<void>((resolve) => waiting.set(name, resolve)));
  await page.addInitScript(pageProbe, cold);
  if (variant.build) {
    const build = variant.build;
    await page.route('**/widget/loader.js', (route) =>
      route.continue(
        build === 'eager'
          ? {
              url: route
                .request()
                .url()
                .replace(/loader\.js$/, EAGER_FILE),
            }
          : {},
      ),
    );
  }
  return { context, page, cdp, waitForMark };
}

/** The launcher drawn and the network idle; for a reminder's row, the reminder drawn too, and a moment for what follows it. */
async function settle(page: Page, variant: Variant, waitForMark: (name: string) => Promise<void>): Promise<void> {
  if (variant.build) await waitForMark(MARK_LAUNCHER);
  await page.waitForLoadState('networkidle');
  if (!variant.reminder) return;
  await page.locator('loyalty-widget .lw-nudge').waitFor({ timeout: 20_000 });
  await page.waitForTimeout(250);
}

async function loadOnce(browser: Browser, url: string, variant: Variant): Promise<Sample> {
  const { context, page, cdp, waitForMark } = await openPage(browser, variant, false);
  try {
    await cdp.send('Performance.enable');
    await page.goto(url, { waitUntil: 'load' });
    await settle(page, variant, waitForMark);
    const { metrics } = await cdp.send('Performance.getMetrics');
    const metric = (name: string) => (metrics.find((m) => m.name === name)?.value ?? 0) * 1000;
    const before = await readout(page);
    let openMs: number | null = null;
    if (variant.build) {
      await page.locator('loyalty-widget .lw-launcher').click();
      await waitForMark(MARK_PANEL);
      const after = await readout(page);
      openMs = after.panelAt! - after.clickAt!;
    }
    const widgetScripts = before.resources.filter((r) => new URL(r.name).pathname.startsWith('/widget/'));
    const launcherAt = before.launcherAt ?? null;
    return {
      taskMs: metric('TaskDuration'),
      scriptMs: metric('ScriptDuration'),
      styleLayoutMs: metric('RecalcStyleDuration') + metric('LayoutDuration'),
      longTasks: before.long.length,
      blockingMs: before.long.reduce((sum, d) => sum + Math.max(0, d - 50), 0),
      scriptBytesAtLauncher: widgetScripts
        .filter((r) => launcherAt !== null && r.responseEnd <= launcherAt)
        .reduce((s, r) => s + r.transferSize, 0),
      scriptBytes: widgetScripts.reduce((s, r) => s + r.transferSize, 0),
      launcherMs: launcherAt,
      openMs,
    };
  } finally {
    await context.close();
  }
}

/** A click the moment the launcher is drawn: the time until the panel is in the page. */
async function coldOpen(browser: Browser, url: string, variant: Variant): Promise<number> {
  const { context, page, waitForMark } = await openPage(browser, variant, true);
  try {
    await page.goto(url, { waitUntil: 'load' });
    await waitForMark(MARK_PANEL);
    const r = await readout(page);
    return r.panelAt! - r.clickAt!;
  } finally {
    await context.close();
  }
}

/** What the main thread did, by kind of work: the trace's events by name. */
const KINDS: [string, RegExp][] = [
  ['script compile', /^(v8\.compile|v8\.compileModule|V8\.CompileCode|v8\.produceCache|v8\.produceModuleCache|CacheScript)/],
  [
    'script run',
    /^(EvaluateScript|v8\.evaluateModule|v8\.run|v8\.callFunction|FunctionCall|TimerFire|EventDispatch|FireIdleCallback|FireAnimationFrame|RunMicrotasks|v8\.callModuleMethod|XHRReadyStateChange|V8\.Execute)/,
  ],
  ['garbage collection', /(GC|BlinkGC|V8\.GC)/],
  ['HTML parse', /^(ParseHTML|HTMLDocumentParser::|DecodedDataDocumentParser::)/],
  ['navigation, document setup', /^(DocumentLoader::|CommitLoad|Document::|LocalWindowProxy::|Frame::|NavigationBodyLoader::)/],
  ['style (recalc, CSS parse)', /^(UpdateLayoutTree|RecalculateStyles|ParseAuthorStyleSheet)$/],
  ['layout', /^(Layout|UpdateLayerTree)$/],
  [
    'paint, composite',
    /^(Paint|PrePaint|Layerize|Commit|UpdateLayer|CompositeLayers|PaintImage|Decode Image|ImageDecodeTask|ProxyMain::BeginMainFrame|Animation)/,
  ],
];
const OTHER = 'other (task scheduling, IPC)';
const KIND_NAMES = [...KINDS.map(([k]) => k), OTHER];

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread (CPU) time: unlike dur, it does not grow while other processes hold the cores. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; beginData?: { url?: string }; data?: { url?: string } };
}

/**
 * Self thread time (ms) per kind on the page's main thread (the renderer thread that parsed the
 * demo page), and the wall time of its tasks: what the CPU time does not explain was spent waiting.
 */
function breakdown(events: TraceEvent[]): { kinds: Record<string, number>; wallMs: number } {
  const mainThreads = new Set(
    events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`),
  );
  const parsed = events.find(
    (e) => e.name === 'ParseHTML' && mainThreads.has(`${e.pid}:${e.tid}`) && e.args?.beginData?.url?.includes('/demo'),
  );
  const totals: Record<string, number> = Object.fromEntries(KIND_NAMES.map((k) => [k, 0]));
  let wallMs = 0;
  if (!parsed) return { kinds: totals, wallMs };
  const own = events
    .filter((e) => e.ph === 'X' && e.pid === parsed.pid && e.tid === parsed.tid && (e.dur ?? 0) > 0)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const stack: { end: number; child: number; event: TraceEvent }[] = [];
  const settle = (frame: { end: number; child: number; event: TraceEvent }) => {
    const self = (frame.event.tdur ?? frame.event.dur!) - frame.child;
    const kind = KINDS.find(([, pattern]) => pattern.test(frame.event.name))?.[0] ?? OTHER;
    totals[kind]! += Math.max(0, self) / 1000;
  };
  for (const event of own) {
    while (stack.length && stack[stack.length - 1]!.end <= event.ts) settle(stack.pop()!);
    const parent = stack[stack.length - 1];
    if (parent) parent.child += event.tdur ?? event.dur!;
    else wallMs += event.dur! / 1000;
    stack.push({ end: event.ts + event.dur!, child: 0, event });
  }
  while (stack.length) settle(stack.pop()!);
  return { kinds: totals, wallMs };
}

async function tracedLoad(browser: Browser, url: string, variant: Variant): Promise<ReturnType<typeof breakdown>> {
  const { context, page, waitForMark } = await openPage(browser, variant, false);
  try {
    await browser.startTracing(page, {
      categories: ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'loading'],
    });
    await page.goto(url, { waitUntil: 'load' });
    await settle(page, variant, waitForMark);
    const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
    return breakdown(trace.traceEvents);
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const medianOf = <T>(samples: T[], pick: (s: T) => number | null) => {
  const values = samples.map(pick).filter((v): v is number => v !== null);
  return values.length ? median(values) : null;
};

async function main(): Promise<void> {
  const loadAtStart = loadavg()[0]!;
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
  const api = await startApi(config, db, undefined, { extraRoutes: demoRoutes });
  const eagerPath = join(DIST, EAGER_FILE);
  copyFileSync(EAGER_LOADER, eagerPath);
  // Both copies, as the build writes them for the lazy loader, so each build is sent alike.
  writeFileSync(`${eagerPath}.gz`, await gzipBest(readFileSync(eagerPath)));
  writeFileSync(`${eagerPath}.br`, brotliBest(readFileSync(eagerPath)));
  let browser: Browser | undefined;
  try {
    await ensureDemoAccount(api.services, api.url);
    browser = await launchChromium(CHROMIUM);
    type Result = {
      median: Record<string, number | null>;
      coldOpenMs: number | null;
      breakdown: Record<string, number>;
      traceWallMs: number;
      samples: Sample[];
    };
    const results: Record<string, Result> = {};
    const urlOf = (variant: Variant) => `${api.url}/demo?${variant.query}`;
    // One unrecorded load of each warms the service and the browser.
    for (const variant of VARIANTS) await loadOnce(browser, urlOf(variant), variant);
    // Round by round, each page once: a slower spell of the machine falls on every page alike.
    const samples = new Map<Variant, Sample[]>(VARIANTS.map((v) => [v, []]));
    const cold = new Map<Variant, number[]>(VARIANTS.map((v) => [v, []]));
    const traces = new Map<Variant, ReturnType<typeof breakdown>[]>(VARIANTS.map((v) => [v, []]));
    for (let i = 0; i < RUNS; i++)
      for (const variant of VARIANTS) samples.get(variant)!.push(await loadOnce(browser, urlOf(variant), variant));
    for (let i = 0; i < RUNS; i++)
      for (const variant of VARIANTS) if (variant.build) cold.get(variant)!.push(await coldOpen(browser, urlOf(variant), variant));
    for (let i = 0; i < TRACE_RUNS; i++)
      for (const variant of VARIANTS) traces.get(variant)!.push(await tracedLoad(browser, urlOf(variant), variant));
    for (const variant of VARIANTS) {
      const own = samples.get(variant)!;
      const opened = cold.get(variant)!;
      const traced = traces.get(variant)!;
      const keys = Object.keys(own[0]!) as (keyof Sample)[];
      results[variant.name] = {
        median: Object.fromEntries(keys.map((k) => [k, medianOf(own, (s) => s[k])])),
        coldOpenMs: opened.length ? median(opened) : null,
        breakdown: Object.fromEntries(KIND_NAMES.map((k) => [k, traced.length ? median(traced.map((t) => t.kinds[k]!)) : 0])),
        traceWallMs: traced.length ? median(traced.map((t) => t.wallMs)) : 0,
        samples: own,
      };
    }

    const base = results[VARIANTS[0]!.name]!;
    const fixed = (v: number | null | undefined, digits = 1) => (v === null || v === undefined ? '–' : v.toFixed(digits));
    const added = (v: number | null | undefined, b: number | null | undefined) =>
      v === null || v === undefined || b === null || b === undefined
        ? fixed(v)
        : `${fixed(v)} (${v - b >= 0 ? '+' : ''}${(v - b).toFixed(1)})`;
    const version = browser.version();
    console.log(
      `bench:widget — /demo in chromium ${version}, median of ${RUNS} first visits each (${TRACE_RUNS} traced), ${availableParallelism()} cores\n`,
    );
    console.log(
      formatTable(
        [
          'page',
          'main-thread task ms',
          'long tasks',
          'blocking ms',
          'script bytes at launcher',
          'script bytes',
          'launcher drawn ms',
          'click → panel ms',
          'cold click → panel ms',
        ],
        VARIANTS.map(({ name }) => {
          const r = results[name]!;
          const m = r.median;
          return [
            name,
            added(m.taskMs, name === VARIANTS[0]!.name ? null : base.median.taskMs),
            fixed(m.longTasks, 0),
            fixed(m.blockingMs),
            fixed(m.scriptBytesAtLauncher, 0),
            fixed(m.scriptBytes, 0),
            fixed(m.launcherMs),
            fixed(m.openMs),
            fixed(r.coldOpenMs),
          ];
        }),
      ),
    );
    console.log(
      `\nmain-thread CPU time by kind of work (median of ${TRACE_RUNS} traced loads, self thread time of the trace's events, ms; in brackets: added to the page without the widget)\n`,
    );
    console.log(
      formatTable(
        ['work', ...VARIANTS.map((v) => v.name)],
        [...KIND_NAMES, 'all', 'all, wall time'].map((kind) => [
          kind,
          ...VARIANTS.map(({ name }, i) => {
            const of = (r: Result) =>
              kind === 'all, wall time'
                ? r.traceWallMs
                : kind === 'all'
                  ? Object.values(r.breakdown).reduce((a, b) => a + b, 0)
                  : r.breakdown[kind]!;
            return i === 0 ? fixed(of(base)) : added(of(results[name]!), of(base));
          }),
        ]),
      ),
    );
    writeFileSync(
      RESULTS_FILE,
      `${JSON.stringify(
        {
          at: new Date().toISOString(),
          loadAverage: { start: loadAtStart, end: loadavg()[0]! },
          chromium: version,
          runs: RUNS,
          traceRuns: TRACE_RUNS,
          cores: availableParallelism(),
          database: database.description,
          results,
        },
        null,
        2,
      )}\n`,
    );
    console.log(`\nwritten to ${RESULTS_FILE}`);
  } finally {
    await browser?.close();
    await api.close();
    await db.destroy();
    await database.close();
    for (const file of readdirSync(DIST).filter((f) => f.startsWith(EAGER_FILE))) rmSync(join(DIST, file));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
