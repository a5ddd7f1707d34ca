import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { stringsFor } from '@loyalty/view-model';
import { describe, expect, it } from 'vitest';

const root = new URL('../../../extensions/loyalty-theme/', import.meta.url);
const repo = fileURLToPath(new URL('../../../', import.meta.url));
const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
/** Whether the widget's sources differ from the last commit (or this is no checkout): its build may then differ from the committed loader. */
const widgetUncommitted = (() => {
  try {
    git('diff', '--quiet', 'HEAD', '--', 'packages/widget', 'packages/view-model', 'pnpm-lock.yaml');
    return false;
  } catch {
    return true;
  }
})();
const block = readFileSync(new URL('blocks/loyalty-widget.liquid', root), 'utf8');
const schema = JSON.parse(/{% schema %}([\s\S]*){% endschema %}/.exec(block)![1]!) as {
  name: string;
  target: string;
  settings: { id: string; type: string; default?: unknown }[];
};

describe('theme app extension', () => {
  it('is an app embed on body named "Loyalty widget": the merchant only switches it on, and may switch the reminder off', () => {
    expect(schema.name).toBe('Loyalty widget');
    expect(schema.target).toBe('body');
    expect(schema.settings.map(({ id, type, default: on }) => ({ id, type, on }))).toEqual([{ id: 'nudges', type: 'checkbox', on: true }]);
    expect([...block.matchAll(/block\.settings\.(\w+)/g)].map((m) => m[1])).toEqual(['nudges']);
    expect(block).toContain('nudges: {{ block.settings.nudges | json }},');
    // Its words in the merchant's language, in each the admin speaks: the theme editor reads the schema's locales.
    const setting = schema.settings[0] as unknown as Record<string, string>;
    const files = readdirSync(new URL('locales/', root)).filter((file) => file.endsWith('.schema.json'));
    expect(files.sort()).toEqual(
      ['de', 'en.default', 'es', 'fr', 'it', 'ja', 'ko', 'pt-BR', 'zh-CN'].map((language) => `${language}.schema.json`),
    );
    for (const file of files) {
      const words = JSON.parse(readFileSync(new URL(`locales/${file}`, root), 'utf8')) as Record<
        string,
        Record<string, Record<string, string>>
      >;
      for (const key of ['label', 'info']) {
        const [, group, id, name] = /^t:(\w+)\.(\w+)\.(\w+)$/.exec(setting[key]!)!;
        expect(words[group!]?.[id!]?.[name!], `${file} ${key}`).toMatch(/\S/);
      }
    }
  });

  it('takes the account, the core URL and the three ids from the app-owned metafields the app writes', () => {
    expect(block).toContain("assign loyalty = shop.metafields['$app:loyalty']");
    for (const key of ['account_id', 'base_url', 'template_id', 'theme_id', 'floating_widget_id'])
      expect(block).toContain(`assign ${key} = loyalty.${key}.value`);
    for (const [option, value] of [
      ['baseUrl', 'base_url'],
      ['accountId', 'account_id'],
      ['templateId', 'template_id'],
      ['themeId', 'theme_id'],
      ['floatingWidgetId', 'floating_widget_id'],
    ])
      expect(block).toContain(`${option}: {{ ${value} | json }},`);
  });

  it('renders nothing on the storefront until they are all there, and says what is missing in the theme editor', () => {
    const account = /if account_id == blank or base_url == blank -%}([\s\S]*?){%- elsif/.exec(block)?.[1] ?? '';
    const ids =
      /elsif template_id == blank or theme_id == blank or floating_widget_id == blank -%}([\s\S]*?){%- else/.exec(block)?.[1] ?? '';
    for (const [branch, key] of [
      [account, 'missing_account'],
      [ids, 'missing_widget'],
    ]) {
      expect(branch).toContain('if request.design_mode');
      expect(branch).toContain(`'loyalty_widget.${key}' | t`);
      expect(branch).not.toContain('<script');
    }
    const locale = JSON.parse(readFileSync(new URL('locales/en.default.json', root), 'utf8')) as { loyalty_widget: Record<string, string> };
    const used = [...block.matchAll(/'loyalty_widget\.(\w+)' \| t/g)].map((m) => m[1]);
    expect(Object.keys(locale.loyalty_widget).sort()).toEqual([...new Set(used)].sort());
  });

  it('passes the storefront locale and fetches the token from the app proxy only for a signed-in customer', () => {
    expect(block).toContain('request.locale.iso_code');
    const tokenFetch = block.indexOf("'/apps/loyalty/token'");
    const customerBranch = block.indexOf('if customer');
    const guestBranch = block.indexOf('else %}', customerBranch);
    expect(customerBranch).toBeGreaterThan(0);
    expect(tokenFetch).toBeGreaterThan(customerBranch);
    expect(tokenFetch).toBeLessThan(guestBranch);
  });

  it('sends a signed-in customer’s visit of the day to the app proxy, once the page is idle, once a day per browser', () => {
    const customerBranch = block.indexOf('if customer');
    const guestBranch = block.indexOf('else %}', customerBranch);
    const visit = block.indexOf("'/apps/loyalty/visit'");
    expect(visit).toBeGreaterThan(block.indexOf('queue.init(config)', customerBranch));
    expect(visit).toBeLessThan(guestBranch);
    expect(block.slice(visit, guestBranch)).toMatch(/method: 'POST'/);
    expect(block.slice(customerBranch, guestBranch)).toMatch(/requestIdleCallback/);
    expect(block.slice(customerBranch, guestBranch)).toMatch(/localStorage\.getItem\(seen\) !== day/);
  });

  it('ships the widget loader as its asset, within 10,000 bytes', () => {
    expect(block).toContain("'loyalty-loader.js' | asset_url");
    expect(statSync(new URL('assets/loyalty-loader.js', root)).size).toBeLessThanOrEqual(10_000);
  });

  // The tests copy the build over the asset first; Shopify gets the committed file, whose app chunk name must be one the core serves.
  it.skipIf(widgetUncommitted)('commits the loader the widget builds, so the embed imports an app chunk the core serves', () => {
    const built = readFileSync(new URL('../../../packages/widget/dist/loader.js', import.meta.url), 'utf8');
    expect(git('show', 'HEAD:extensions/loyalty-theme/assets/loyalty-loader.js')).toBe(built);
  });
});

describe('the Loyalty program block', () => {
  const page = readFileSync(new URL('blocks/loyalty-page.liquid', root), 'utf8');
  const pageSchema = JSON.parse(/{% schema %}([\s\S]*){% endschema %}/.exec(page)![1]!) as {
    name: string;
    target: string;
    settings: unknown[];
  };

  it('is a block for any section named "Loyalty program": it marks where the widget draws its panel, with no script of its own', () => {
    expect(pageSchema).toEqual({ name: 'Loyalty program', target: 'section', settings: [] });
    expect(page).toMatch(/<loyalty-page class="loyalty-page" {{ block.shopify_attributes }}>/);
    expect(page).not.toContain('<script');
  });

  it('says in the theme editor only, inside the element (which the panel then covers), what to switch on', () => {
    const inside = /<loyalty-page[^>]*>([\s\S]*?)<\/loyalty-page>/.exec(page)![1]!;
    expect(inside).toContain('if request.design_mode');
    expect(inside).toContain("'loyalty_page.embed_needed' | t");
    const locale = JSON.parse(readFileSync(new URL('locales/en.default.json', root), 'utf8')) as { loyalty_page: Record<string, string> };
    expect(Object.keys(locale.loyalty_page)).toEqual(['embed_needed']);
  });
});

describe('the Loyalty points block', () => {
  const points = readFileSync(new URL('blocks/loyalty-points.liquid', root), 'utf8');
  const pointsSchema = JSON.parse(/{% schema %}([\s\S]*){% endschema %}/.exec(points)![1]!) as Record<string, unknown>;
  const LOCALES = ['de', 'en.default', 'es', 'fr', 'it', 'ja', 'ko', 'pt-BR', 'zh-CN'];
  const wordsOf = (file: string) =>
    (JSON.parse(readFileSync(new URL(`locales/${file}.json`, root), 'utf8')) as { loyalty_points: Record<string, string> }).loyalty_points;

  it('is a block for product and cart pages named "Loyalty points", with nothing to set', () => {
    expect(pointsSchema).toEqual({
      name: 'Loyalty points',
      target: 'section',
      enabled_on: { templates: ['product', 'cart'] },
      settings: [],
    });
  });

  it('reads the app’s points metafield and the customer’s tier metafield, and asks neither the app nor the core anything', () => {
    expect(points).toContain("assign points = shop.metafields['$app:loyalty'].points.value");
    expect(points).toContain("customer.metafields['$app:loyalty'].tier.value");
    expect(points).not.toMatch(/XMLHttpRequest|asset_url|apps\/loyalty/);
    // Its one request, on the cart page: the shop's own cart, as the theme left it.
    expect([...points.matchAll(/fetch\(([^,)]*)/g)].map((m) => m[1])).toEqual(['c.cart']);
    expect(points).toContain(`"cart":{%- if on_cart -%}{{ routes.cart_url | append: '.js' | json }}`);
  });

  it('speaks to shoppers in the nine languages of the program, with points called as the widget calls them', () => {
    const files = readdirSync(new URL('locales/', root)).filter((file) => /^[\w-]+(\.default)?\.json$/.test(file));
    expect(files.sort()).toEqual(LOCALES.map((locale) => `${locale}.json`));
    for (const locale of LOCALES) {
      const words = wordsOf(locale);
      expect(Object.keys(words).sort(), locale).toEqual(['earn', 'earn_order', 'earn_order_up_to', 'earn_up_to', 'off', 'point', 'points']);
      for (const key of ['earn', 'earn_up_to', 'earn_order', 'earn_order_up_to']) {
        expect(words[key], `${locale} ${key}`).toContain('{{ points }}');
        expect(words[key], `${locale} ${key}`).toContain('{{ name }}');
      }
      // The block hands these words through `t` twice (as the name in the sentence): nothing in them may change when escaped.
      for (const [key, text] of Object.entries(words)) expect(text, `${locale} ${key}`).not.toMatch(/[&<>"']/);
      const widget = stringsFor(locale === 'en.default' ? 'en' : locale === 'pt-BR' ? 'pt' : locale);
      expect(
        [words.point, words.points].map((w) => w!.toLowerCase()),
        locale,
      ).toEqual([widget.point, widget.points].map((w) => w.toLowerCase()));
    }
  });
});
