import { type AdminBrowser, openAdmin } from './browser';
import { serveBuild } from './serve';
import { type Stack, startStack } from './stack';

export interface AdminApp {
  stack: Stack;
  server: { url: string; close(): Promise<void> };
  browser: AdminBrowser;
  close(): Promise<void>;
}

/**
 * The production build served against the real core, TEST_SHOP installed and seeded by `seed`,
 * and Chromium signed in to its admin: what every browser test of the admin starts from.
 */
export async function startAdminApp(seed: (stack: Stack) => Promise<void>): Promise<AdminApp> {
  const stack = await startStack();
  await stack.install();
  await seed(stack);
  const server = await serveBuild(stack.admin.origin);
  const browser = await openAdmin(server.url);
  return {
    stack,
    server,
    browser,
    async close() {
      await browser.close();
      await server.close();
      await stack.close();
    },
  };
}
