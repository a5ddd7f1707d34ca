import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { Liquid } from 'liquidjs';
import { type AdminStub, STUB_SHOP } from './admin-stub';

const THEME = fileURLToPath(new URL('../../../../extensions/loyalty-theme/', import.meta.url));

/** The extension's storefront words in `locale` (`de`, `pt-BR`), over the default file's, as Shopify falls back. */
function localeWords(locale: string): Record<string, Record<string, string>> {
  const read = (file: string) => JSON.parse(readFileSync(`${THEME}locales/${file}`, 'utf8')) as Record<string, Record<string, string>>;
  const words = read('en.default.json');
  if (!existsSync(`${THEME}locales/${locale}.json`)) return words;
  for (const [group, entries] of Object.entries(read(`${locale}.json`))) words[group] = { ...words[group], ...entries };
  return words;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

/**
 * liquidjs (a Liquid engine written from Shopify's language) with the Shopify filters the blocks
 * use: `t` from the extension's locale files, interpolating its named arguments and escaping the
 * result as Shopify does a key without `_html`, and `asset_url` to `assets`.
 */
function engineFor(locale: string, assets: string): Liquid {
  const words = localeWords(locale);
  const engine = new Liquid({ strictFilters: true });
  engine.registerFilter('t', (key: string, ...args: [string, unknown][]) => {
    const [group, name] = key.split('.');
    const text = words[group!]?.[name!];
    if (text === undefined) return `translation missing: ${key}`;
    const values = Object.fromEntries(args);
    return escapeHtml(text.replace(/{{\s*(\w+)\s*}}/g, (_, arg: string) => String(values[arg] ?? '')));
  });
  engine.registerFilter('asset_url', (name: string) => `${assets}/${name}`);
  return engine;
}

/** A block's source as a storefront renders it: the `{% schema %}` block is for the theme editor, and Shopify renders it as nothing. */
const blockSource = (block: string) =>
  readFileSync(`${THEME}blocks/${block}.liquid`, 'utf8').replace(/{% schema %}[\s\S]*?{% endschema %}/, '');

/** The app-owned metafields of `owner` as Liquid reads them: `{ key: { value } }`, a json one's value parsed. */
function ownedMetafields(admin: AdminStub, owner: string, keys: readonly string[]): Record<string, { value: unknown }> {
  return Object.fromEntries(
    keys.flatMap((key) => {
      const value = admin.metafields.get(`${owner}|$app:loyalty|${key}`);
      return value === undefined ? [] : [[key, { value: key === 'points' ? JSON.parse(value) : value }]];
    }),
  );
}

/**
 * The embed block (or another of the extension's blocks, such as `loyalty-page`) as a storefront
 * renders it, with the Shopify objects the blocks use: the app's metafields as the stub holds
 * them, `request`, `customer`, `block`.
 */
export async function renderEmbed(
  admin: AdminStub,
  options: { designMode: boolean; assets: string; block?: 'loyalty-widget' | 'loyalty-page'; nudges?: boolean },
): Promise<string> {
  const metafields = ownedMetafields(admin, STUB_SHOP.id, ['account_id', 'base_url', 'template_id', 'theme_id', 'floating_widget_id']);
  return engineFor('en', options.assets).parseAndRender(blockSource(options.block ?? 'loyalty-widget'), {
    shop: { metafields: { '$app:loyalty': metafields }, currency: 'EUR' },
    request: { design_mode: options.designMode, locale: { iso_code: 'en' } },
    // What the theme editor finds a block by; a storefront renders it as nothing.
    block: { shopify_attributes: options.designMode ? 'data-shopify-editor-block="{}"' : '', settings: { nudges: options.nudges ?? true } },
  });
}

/** A product as Liquid has it: its variants' ids, prices in cents of the page's currency, and whether tax applies. */
export interface ProductSpec {
  variants: { id: number; price: number; taxable?: boolean }[];
  /** The selected variant's position; the first by default. */
  selected?: number;
}

/** A cart line as Liquid and `/cart.js` have it: its price after its discounts, in cents of the page's currency. */
export interface CartLine {
  final_line_price: number;
  gift_card?: boolean;
  taxable?: boolean;
}

/** A cart as Liquid and `/cart.js` have it: its lines and, after every discount, its total. */
export interface CartSpec {
  items: CartLine[];
  total_price: number;
}

/** A cart as `/cart.js` answers it. */
export const cartJson = (cart: CartSpec) => ({
  total_price: cart.total_price,
  items: cart.items.map((i) => ({ gift_card: false, taxable: true, ...i })),
});

/**
 * The "Loyalty points" block as a storefront in `locale` renders it on a product page (`product`)
 * or the cart page (`cart`): the shop's `points` metafield and, for a signed-in customer, their tags
 * and `tier` metafield as the stub holds it; the cart's currency and whether its prices include tax.
 * The shop's currency is USD, as the stub's orders have it.
 */
export async function renderPointsBlock(
  admin: AdminStub,
  options: ({ product: ProductSpec; cart?: never } | { cart: CartSpec; product?: never }) & {
    designMode?: boolean;
    locale?: string;
    customer?: { id: number; tags?: string[] };
    currency?: string;
    taxesIncluded?: boolean;
  },
): Promise<string> {
  const { product, customer } = options;
  const variants = (product?.variants ?? []).map((v) => ({ id: v.id, price: v.price, taxable: v.taxable ?? true }));
  const locale = options.locale ?? 'en';
  return engineFor(locale, '').parseAndRender(blockSource('loyalty-points'), {
    shop: { metafields: { '$app:loyalty': ownedMetafields(admin, STUB_SHOP.id, ['points']) }, currency: 'USD' },
    template: { name: options.cart ? 'cart' : 'product' },
    routes: { cart_url: '/cart' },
    product: product && { variants, selected_or_first_available_variant: variants[product.selected ?? 0] },
    customer: customer && {
      id: customer.id,
      tags: customer.tags ?? [],
      metafields: { '$app:loyalty': ownedMetafields(admin, `gid://shopify/Customer/${customer.id}`, ['tier']) },
    },
    cart: {
      ...(options.cart ? cartJson(options.cart) : { items: [], total_price: 0 }),
      currency: { iso_code: options.currency ?? 'USD' },
      taxes_included: options.taxesIncluded ?? false,
    },
    request: { design_mode: options.designMode ?? false, locale: { iso_code: locale } },
    block: { id: 'points1', shopify_attributes: options.designMode ? 'data-shopify-editor-block="{}"' : '' },
  });
}

/**
 * A storefront page with the rendered embed in its body, its assets served beside it; answers the
 * page's origin. `other` answers first what it takes (the app proxy, the cart), saying so.
 */
export async function storefront(
  body: () => Promise<string>,
  other: (req: IncomingMessage, res: ServerResponse) => Promise<boolean> = async () => false,
): Promise<{ origin: string; server: Server }> {
  const server = createServer((req, res) => {
    if (req.url === '/assets/loyalty-loader.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(readFileSync(`${THEME}assets/loyalty-loader.js`));
      return;
    }
    void other(req, res).then(async (answered) => {
      if (answered) return;
      const html = await body();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html lang="en"><head><title>Shop</title></head><body><h1>Shop</h1>${html}</body></html>`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { origin: `http://127.0.0.1:${port}`, server };
}
