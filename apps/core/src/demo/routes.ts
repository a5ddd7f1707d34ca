import type Router from '@koa/router';
import { loadAccount } from '../auth/authenticate.js';
import { DEMO_REF, DEMO_SHOPPER } from './seed.js';
import { LANGUAGE_CODES } from '../formats.js';
import type { RecordColumns, RowOf } from '../records/row-types.js';
import type { apikey } from '../resources/apikey.js';
import type { Services } from '../services.js';
import { mintEndUserToken } from '../http/routes/enduser.js';

const LANGUAGES: Record<string, string> = {
  en: 'English',
  fr: 'Français',
  es: 'Español',
  de: 'Deutsch',
  it: 'Italiano',
  pt: 'Português',
  ja: '日本語',
  ko: '한국어',
  'zh-CN': '简体中文',
};

const PRODUCTS = [
  ['Merino crew sweater', 89, '#7c3aed', '#c4b5fd'],
  ['Canvas weekender bag', 120, '#0f766e', '#5eead4'],
  ['Ceramic pour-over set', 46, '#b45309', '#fcd34d'],
  ['Linen throw blanket', 75, '#be123c', '#fda4af'],
  ['Trail running cap', 28, '#1d4ed8', '#93c5fd'],
  ['Beeswax candle trio', 32, '#4d7c0f', '#bef264'],
] as const;

/** JSON for an inline script: no `</script>` or HTML comment can close it early. */
const inlineJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

interface PageInput {
  origin: string;
  mode: 'guest' | 'member';
  lang: string;
  widget: boolean;
  /** The shop's loyalty page (the theme's block, a `<loyalty-page>` element) rather than its products. */
  rewards: boolean;
  init: Record<string, string>;
}

function page({ origin, mode, lang, widget, rewards, init }: PageInput): string {
  const link = (changes: Record<string, string>) => {
    const q = new URLSearchParams({ mode, lang, ...(rewards ? { page: 'rewards' } : {}), ...changes });
    return `/demo?${q.toString()}`;
  };
  const embed = widget
    ? `<!-- The widget, embedded as a merchant would: the stub queues init until the loader arrives. -->
<script>window.LoyaltyWidget=window.LoyaltyWidget||{q:[],init:function(){this.q.push(arguments)}};</script>
<script src="${escapeHtml(origin)}/widget/loader.js" async></script>
<script>LoyaltyWidget.init(${inlineJson(init)});</script>`
    : '';
  // The page's own text is English whatever `lang` is (each language's name says its own): the widget's root carries `lang`.
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Demo Shop</title>
<link rel="icon" href="data:,">
<style>
  *{box-sizing:border-box}
  body{margin:0;font:16px/1.5 Georgia,'Times New Roman',serif;color:#1f2937;background:#faf7f2}
  a{color:inherit}
  .bar{display:flex;flex-wrap:wrap;gap:12px;align-items:center;justify-content:center;padding:8px 16px;background:#1f2937;color:#f9fafb;font:14px system-ui,sans-serif}
  .bar a{padding:2px 10px;border-radius:999px;text-decoration:none;border:1px solid #4b5563}
  .bar a[aria-current]{background:#f9fafb;color:#1f2937}
  header{display:flex;justify-content:space-between;align-items:center;padding:20px 32px;border-bottom:1px solid #e7e1d8}
  header strong{font-size:26px;letter-spacing:.02em}
  nav{display:flex;gap:20px;font:15px system-ui,sans-serif}
  .hero{padding:56px 32px;text-align:center;background:linear-gradient(120deg,#ede9fe,#fef3c7)}
  .hero h1{margin:0 0 8px;font-size:40px}
  main{max-width:1100px;margin:0 auto;padding:32px}
  .grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(220px,1fr));gap:24px;padding:0;list-style:none}
  .product{background:#fff;border-radius:12px;overflow:hidden;box-shadow:0 1px 3px rgba(0,0,0,.08)}
  .product .art{height:160px}
  .product div.info{padding:14px 16px}
  .product h3{margin:0;font-size:18px}
  .product button{margin-top:10px;width:100%;padding:8px;border:0;border-radius:8px;background:#1f2937;color:#fff;font:14px system-ui,sans-serif;cursor:pointer}
  footer{padding:32px;text-align:center;color:#6b7280;font:14px system-ui,sans-serif}
</style>
</head>
<body>
<div class="bar" role="region" aria-label="Demo controls">
  <span>Demo storefront — view as:</span>
  <a href="${link({ mode: 'guest' })}"${mode === 'guest' ? ' aria-current="page"' : ''}>Guest</a>
  <a href="${link({ mode: 'member' })}"${mode === 'member' ? ' aria-current="page"' : ''}>${escapeHtml(DEMO_SHOPPER.firstName)} (signed in)</a>
  <form method="get" action="/demo">
    <input type="hidden" name="mode" value="${mode}">${rewards ? '\n    <input type="hidden" name="page" value="rewards">' : ''}
    <label>Language <select name="lang" onchange="this.form.submit()">${Object.entries(LANGUAGES)
      .map(([code, name]) => `<option value="${code}" lang="${code}"${code === lang ? ' selected' : ''}>${escapeHtml(name)}</option>`)
      .join('')}</select></label>
    <noscript><button>Apply</button></noscript>
  </form>
</div>
<header><strong>Demo Shop</strong><nav><a href="/demo?${new URLSearchParams({ mode, lang }).toString()}"${rewards ? '' : ' aria-current="page"'}>Shop</a><a href="${link({ page: 'rewards' })}"${rewards ? ' aria-current="page"' : ''}>Rewards</a><a href="#">Cart (0)</a></nav></header>
${
  rewards
    ? `<section class="hero"><h1>Our rewards program</h1><p>Earn points and rewards every time you visit and shop.</p></section>
<main>
  <!-- The theme's loyalty page block: the widget's panel in the page. -->
  <loyalty-page></loyalty-page>
</main>`
    : `<section class="hero"><h1>Autumn essentials</h1><p>Earn rewards every time you visit, shop and review.</p></section>
<main>
  <ul class="grid">
${PRODUCTS.map(
  ([name, price, from, to]) =>
    `    <li class="product"><div class="art" style="background:linear-gradient(135deg,${from},${to})"></div><div class="info"><h3>${name}</h3><span>€${price}</span><button type="button">Add to cart</button></div></li>`,
).join('\n')}
  </ul>
</main>`
}
<footer>Demo Shop is a demonstration of the loyalty widget.</footer>
${embed}
</body>
</html>`;
}

/**
 * `GET /demo`: a storefront page that embeds the widget for the demo account (externalRef
 * "demo", seeded by `serve --demo` and `seed-demo`). `mode=member` signs in the demo shopper with
 * a token minted here, as a merchant's backend would; `lang` picks the language; `page=rewards`
 * shows the shop's loyalty page (the theme's block) instead of its products; `widget=off` leaves the
 * widget out (the benchmark's baseline).
 */
export function demoRoutes(router: Router, s: Services): void {
  router.get('/demo', async (ctx) => {
    const mode = ctx.query.mode === 'member' ? 'member' : 'guest';
    const asked = String(ctx.query.lang);
    const lang = LANGUAGE_CODES.find((code) => code === asked) ?? 'en';
    const widget = ctx.query.widget !== 'off';
    const rewards = ctx.query.page === 'rewards';
    ctx.type = 'text/html; charset=utf-8';
    // The page carries a fresh token in member mode.
    ctx.set('cache-control', 'no-store');
    // `serve --demo` listens before it seeds the demo account (the seed goes through the API), so
    // a visit in those seconds is told to come back rather than that there is no demo.
    const notReadyYet = () => {
      ctx.status = 503;
      ctx.set('retry-after', '1');
      ctx.body =
        '<!doctype html><meta http-equiv="refresh" content="1"><title>Preparing the demo</title><p>The demo account is being prepared as the service starts; this page reloads itself. If it stays, start the service with <code>loyalty serve --demo</code> again or run <code>loyalty seed-demo</code>.</p>';
    };
    const account = await s.db<{ id: string; external_ref: string | null }>('account').where({ external_ref: DEMO_REF }).first('id');
    if (!account) return notReadyYet();
    const newest = (table: string) =>
      s
        .db<RecordColumns & { status: string }>(table)
        .where({ account_id: account.id, status: 'live' })
        .orderBy('created_at', 'desc')
        .first('id');
    // One after the other: a request holds at most one pooled connection at a time.
    const floatingWidget = await newest('floating_widget');
    const theme = await newest('theme');
    const template = await newest('template');
    if (!floatingWidget || !theme || !template) return notReadyYet();
    // The page is served by this service, so its own origin is where the widget and the API are
    // (not publicUrl, which names no port when the service listens on an ephemeral one).
    const origin = `${ctx.protocol}://${ctx.host}`;
    const init: Record<string, string> = {
      baseUrl: origin,
      accountId: account.id,
      templateId: template.id,
      themeId: theme.id,
      floatingWidgetId: floatingWidget.id,
      languageCode: lang,
      // The demo shop sells in euros: "2 Stars for every €1 spent".
      currency: 'EUR',
    };
    if (mode === 'member') {
      const key = await s
        .db<RowOf<typeof apikey>>('apikey')
        .where({ account_id: account.id, status: 'live' })
        .orderBy('created_at', 'desc')
        .first('api_key', 'api_secret_enc');
      const info = key && (await loadAccount(s.db, account.id));
      if (key && info) {
        const minted = await mintEndUserToken(
          s.records,
          info,
          { key: key.api_key, secret: s.box.open(key.api_secret_enc) },
          DEMO_SHOPPER,
          3600,
        );
        init.accessToken = minted.accessToken;
      }
    }
    ctx.body = page({ origin, mode, lang, widget, rewards, init });
  });
}
