import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { Liquid } from 'liquidjs';
import { type AdminStub, STUB_SHOP } from './admin-stub';

const THEME = fileURLToPath(new URL('../../../../extensions/loyalty-theme/', import.meta.url));

/**
 * The embed block (or another of the extension's blocks, such as `loyalty-page`) as a storefront
 * renders it, with liquidjs (a Liquid engine written from Shopify's language) and the Shopify objects
 * and filters the blocks use: the app's metafields as the stub holds them, `request`, `customer`,
 * `block`, `t` from the extension's locale file, `asset_url` to `assets`. The `{% schema %}` block is
 * for the theme editor; Shopify renders it as nothing.
 */
export async function renderEmbed(
  admin: AdminStub,
  options: { designMode: boolean; assets: string; block?: 'loyalty-widget' | 'loyalty-page'; nudges?: boolean },
): Promise<string> {
  const file = `${THEME}blocks/${options.block ?? 'loyalty-widget'}.liquid`;
  const source = readFileSync(file, 'utf8').replace(/{% schema %}[\s\S]*?{% endschema %}/, '');
  const locale = JSON.parse(readFileSync(`${THEME}locales/en.default.json`, 'utf8')) as Record<string, Record<string, string>>;
  const engine = new Liquid({ strictFilters: true });
  engine.registerFilter('t', (key: string) => {
    const [group, name] = key.split('.');
    return locale[group!]?.[name!] ?? `translation missing: ${key}`;
  });
  engine.registerFilter('asset_url', (name: string) => `${options.assets}/${name}`);
  const metafields = Object.fromEntries(
    ['account_id', 'base_url', 'template_id', 'theme_id', 'floating_widget_id'].flatMap((key) => {
      const value = admin.metafields.get(`${STUB_SHOP.id}|$app:loyalty|${key}`);
      return value === undefined ? [] : [[key, { value }]];
    }),
  );
  return engine.parseAndRender(source, {
    shop: { metafields: { '$app:loyalty': metafields }, currency: 'EUR' },
    request: { design_mode: options.designMode, locale: { iso_code: 'en' } },
    // What the theme editor finds a block by; a storefront renders it as nothing.
    block: { shopify_attributes: options.designMode ? 'data-shopify-editor-block="{}"' : '', settings: { nudges: options.nudges ?? true } },
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
