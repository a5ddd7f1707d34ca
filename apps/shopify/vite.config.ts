import { vitePlugin as remix } from '@remix-run/dev';
import { defineConfig } from 'vite';

// Single fetch also makes the server (scripts/serve.mjs) keep Node's own fetch globals (Request, Response with
// Response.json, Headers) instead of installing Remix's polyfills, so the routes run on the same
// globals in production as under test; and it is the data protocol React Router keeps.
declare module '@remix-run/node' {
  interface Future {
    v3_singleFetch: true;
  }
}

// The Shopify CLI passes the tunnel URL as SHOPIFY_APP_URL; HMR must reach the browser through it.
const appUrl = new URL(process.env.SHOPIFY_APP_URL || 'http://localhost');
const hmr =
  appUrl.hostname === 'localhost'
    ? { protocol: 'ws', host: 'localhost', port: 64999, clientPort: 64999 }
    : { protocol: 'wss', host: appUrl.hostname, port: Number(process.env.FRONTEND_PORT) || 8002, clientPort: 443 };

export default defineConfig(({ command }) => ({
  server: {
    port: Number(process.env.PORT || 3000),
    hmr,
    fs: { allow: ['app', 'node_modules'] },
    // Cross-origin preflights (the app proxy, checkout, POS and customer account extensions) go on to the
    // routes, which answer them as in production, instead of Vite's own answer for localhost origins only.
    cors: { preflightContinue: true },
  },
  plugins: [
    remix({
      ignoredRouteFiles: ['**/.*', '**/*.test.*'],
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_lazyRouteDiscovery: true,
        v3_singleFetch: true,
        v3_routeConfig: false,
      },
    }),
  ],
  build: { assetsInlineLimit: 0 },
  // Bundled into the server build, Polaris is the components the routes use: loaded from node_modules,
  // shopify-app-remix's AppProvider pulled in all of Polaris and its icons, 1,000 files and half a second
  // of every start's CPU. Vite's dev server keeps loading them from node_modules.
  ssr: command === 'build' ? { noExternal: ['@shopify/polaris', '@shopify/polaris-icons', '@shopify/shopify-app-remix'] } : {},
}));
