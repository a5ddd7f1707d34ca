import { readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../../extensions/loyalty-theme/', import.meta.url);
const block = readFileSync(new URL('blocks/loyalty-widget.liquid', root), 'utf8');
const schema = JSON.parse(/{% schema %}([\s\S]*){% endschema %}/.exec(block)![1]!) as {
  name: string;
  target: string;
  settings: { id: string; type: string }[];
};

describe('theme app extension', () => {
  it('is an app embed on body named "Loyalty widget" with the three id settings', () => {
    expect(schema.name).toBe('Loyalty widget');
    expect(schema.target).toBe('body');
    expect(schema.settings.map((s) => s.id)).toEqual(['template_id', 'theme_id', 'floating_widget_id']);
  });

  it('renders nothing on the storefront until all three are set (they are required)', () => {
    expect(block).toMatch(/if template_id == blank or theme_id == blank or floating_widget_id == blank/);
  });

  it('passes the storefront locale and fetches the token from the app proxy only for a signed-in customer', () => {
    expect(block).toContain('request.locale.iso_code');
    const tokenFetch = block.indexOf("'/apps/loyalty/token'");
    const customerBranch = block.indexOf('if customer');
    const guestBranch = block.indexOf('else %}', customerBranch);
    expect(customerBranch).toBeGreaterThan(0);
    expect(tokenFetch).toBeGreaterThan(customerBranch);
    expect(tokenFetch).toBeLessThan(guestBranch);
    expect(block).toContain("shop.metafields['$app:loyalty']");
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
});
