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

export default defineConfig({
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
});
