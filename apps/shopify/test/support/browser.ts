import { mkdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { BASE64_HOST, getJwt, TEST_SHOP, TEST_SHOP_NAME } from '@shopify/shopify-api/test-helpers';
import { type Browser, chromium, type Page, type Request } from 'playwright-core';
import { SHOPIFY } from './stack';

/**
 * Debian's headless build of Chromium (scripts/ensure-chromium.sh), the one Playwright runs tests in:
 * the same Blink and V8 without the full browser's compositing, about half of chromium's CPU per
 * admin page (the "no ids" walk: 137 s to 88 s).
 */
export const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

export const ARTIFACTS = fileURLToPath(new URL('../../../../test-artifacts/shopify/', import.meta.url));

/**
 * Stands in for the App Bridge script outside the Shopify admin frame: the session token that
 * App Bridge would hand out (signed like Shopify's), added to same-origin fetches as App Bridge
 * does, and the navigation and save bar elements it defines, hidden.
 */
function appBridgeStub(token: string): string {
  return `(() => {
    const token = ${JSON.stringify(token)};
    window.shopify = { idToken: async () => token, toast: { show() {} }, config: {} };
    const original = window.fetch.bind(window);
    window.fetch = (input, init = {}) => {
      const url = new URL(typeof input === 'string' ? input : input.url, location.href);
      if (url.origin !== location.origin) return original(input, init);
      const headers = new Headers(init.headers || (typeof input === 'string' ? undefined : input.headers));
      headers.set('authorization', 'Bearer ' + token);
      return original(input, { ...init, headers });
    };
    customElements.define('ui-nav-menu', class extends HTMLElement { connectedCallback() { this.style.display = 'none'; } });
    // App Bridge's contextual save bar, hidden (a test that shows it defines its own first).
    if (!customElements.get('ui-save-bar'))
      customElements.define('ui-save-bar', class extends HTMLElement {
        connectedCallback() { this.style.display = 'none'; }
        async show() {}
        async hide() {}
      });
  })();`;
}

// The library answers 410 to bots, and headless Chromium's own user agent reads as one.
export const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';

/**
 * Serves the App Bridge stand-in for `token` in place of Shopify's CDN script (anything else from the
 * CDN: 404). Through Chromium's own request interception for the CDN alone rather than Playwright's
 * `route`, which turns the HTTP cache off: every page would fetch the app's scripts again, where a
 * merchant's browser has them cached.
 */
export async function stubAppBridge(page: Page, token: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const script = Buffer.from(appBridgeStub(token)).toString('base64');
  cdp.on('Fetch.requestPaused', (paused) => {
    const bridge = paused.request.url.includes('app-bridge');
    cdp
      .send('Fetch.fulfillRequest', {
        requestId: paused.requestId,
        responseCode: bridge ? 200 : 404,
        responseHeaders: [{ name: 'content-type', value: bridge ? 'text/javascript' : 'text/plain' }],
        body: bridge ? script : '',
      })
      // The page navigated away or closed meanwhile: nothing is waiting for the answer.
      .catch(() => undefined);
  });
  await cdp.send('Fetch.enable', { patterns: [{ urlPattern: 'https://cdn.shopify.com/*' }] });
}

/** A page of the admin's browser: opens an admin path as Shopify's admin would load it (embedded, with shop, host and id_token). */
export interface AdminTab {
  page: Page;
  /** Loads the path and waits for React to hydrate it; a page React could not hydrate (it threw the server's page away and drew it again) fails. */
  open(path: string): Promise<void>;
}

/** One page load's time, navigation and hydration together. */
const LOAD_TIMEOUT = 60_000;
/** How long the network stays idle before a page counts as loaded (Playwright's networkidle). */
const QUIET_MS = 500;

/** React's production errors for a server page that does not match its first render (#418, #423, #425), and their development texts. */
const HYDRATION_ERROR = /Minified React error #4(?:18|23|25)|[Hh]ydrat(?:ion|ing) failed|did not match/;

export interface AdminBrowser extends AdminTab {
  /** Another page of the same browser, for reading pages side by side or in a merchant's own time zone. */
  tab(options?: { timezoneId?: string }): Promise<AdminTab & { close(): Promise<void> }>;
  shot(name: string): Promise<void>;
  close(): Promise<void>;
}

export async function openAdmin(appUrl: string): Promise<AdminBrowser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const { token } = await getJwt(TEST_SHOP_NAME, SHOPIFY.apiKey, SHOPIFY.apiSecretKey);
  const browser: Browser = await chromium.launch({ executablePath: HEADLESS_SHELL, args: ['--no-sandbox'] });
  const newTab = async (options: { timezoneId?: string } = {}): Promise<AdminTab> => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, userAgent: USER_AGENT, ...options });
    page.setDefaultTimeout(10_000);
    // A page's first load compiles its route chunks while CI runs other suites beside it, and a CI
    // host can run at half its usual speed: a load got 30 s and once needed more.
    page.setDefaultNavigationTimeout(LOAD_TIMEOUT);
    await stubAppBridge(page, token);
    const hydrationErrors: string[] = [];
    // The page's requests, counted here rather than by Playwright's networkidle: that waits for
    // every frame to report its own, and the branding preview's srcdoc frame sometimes never does
    // on a slow host (nothing in flight, and still no event, until the load timed out).
    const inFlight = new Set<Request>();
    let lastActivity = Date.now();
    page.on('request', (request) => {
      inFlight.add(request);
      lastActivity = Date.now();
    });
    const settled = (request: Request) => {
      inFlight.delete(request);
      lastActivity = Date.now();
    };
    page.on('requestfinished', settled);
    page.on('requestfailed', settled);
    /** Waits until no request has been in flight for QUIET_MS, as networkidle means. */
    const networkQuiet = async (deadline: number) => {
      while (inFlight.size || Date.now() - lastActivity < QUIET_MS) {
        if (Date.now() > deadline) {
          const pending = [...inFlight].map((request) => `${request.method()} ${request.url().slice(0, 160)}`);
          throw new Error(`the network did not go quiet within ${LOAD_TIMEOUT} ms; still loading: ${pending.join(', ') || 'nothing'}`);
        }
        await sleep(50);
      }
    };
    page.on('console', (message) => {
      if (message.type() === 'error' && HYDRATION_ERROR.test(message.text())) hydrationErrors.push(message.text());
    });
    return {
      page,
      async open(path) {
        hydrationErrors.length = 0;
        const url = new URL(path, appUrl);
        url.searchParams.set('embedded', '1');
        url.searchParams.set('shop', TEST_SHOP);
        url.searchParams.set('host', BASE64_HOST);
        url.searchParams.set('id_token', token);
        const deadline = Date.now() + LOAD_TIMEOUT;
        await page.goto(url.href, { waitUntil: 'commit' });
        // Server-rendered buttons ignore clicks until React has hydrated them; hydrating is part of
        // the page's load, so it gets what is left of the load's time.
        await page.locator('html[data-hydrated]').waitFor({ state: 'attached', timeout: Math.max(5_000, deadline - Date.now()) });
        await networkQuiet(deadline);
        if (hydrationErrors.length) throw new Error(`${path} did not hydrate: ${hydrationErrors[0]!.slice(0, 200)}`);
      },
    };
  };
  const main = await newTab();
  return {
    ...main,
    async tab(options) {
      const tab = await newTab(options);
      return { ...tab, close: () => tab.page.close() };
    },
    async shot(name) {
      await main.page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });
    },
    close: () => browser.close(),
  };
}
