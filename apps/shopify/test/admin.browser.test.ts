import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../core/test/support/harness';
import { type AdminBrowser, openAdmin } from './support/browser';
import { serveBuild } from './support/serve';
import { type Stack, startStack, TEST_SHOP } from './support/stack';

/** The admin pages in Chromium, outside the admin frame, against the real core. */
let stack: Stack;
let server: { url: string; close(): Promise<void> };
let browser: AdminBrowser;
let api: Client;

beforeAll(async () => {
  stack = await startStack();
  await stack.install();
  const account = (await stack.app.shops.find(TEST_SHOP))!;
  api = stack.core.anon.with({ 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret });
  server = await serveBuild();
  browser = await openAdmin(server.url);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await stack?.close();
});

describe('admin pages', () => {
  it('dashboard', async () => {
    await browser.open('/app');
    await browser.shot('dashboard');
    expect(await browser.page.textContent('body')).toContain('Loyalty dashboard');
  });
});
