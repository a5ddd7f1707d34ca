const { layerRules } = require('../../scripts/layer-rules.cjs');

/**
 * The app's rooms as layers, top first. A module may import from its own layer and the layers below
 * it, never from one above; no import cycle is allowed, type-only imports included. Every module of
 * app/ must belong to a layer, so a new room is placed here before it is used.
 *
 * - entry: what runs — Remix's routes and entries, and the commands node runs (migrate, the worker).
 * - components: React; they read the admin's shared models and the lists below, never a route.
 * - admin: the admin pages' logic shared by routes (authenticateShop, editor, members, onboarding).
 * - app: shopify.server.ts, the Shopify app's configuration (sessions, auth, provisioning on install).
 * - loop: core events → Flow triggers and Shopify discounts: its outbox and what sends it. It is
 *   handed its Admin API client (commands/worker), so it needs neither the Shopify app nor Remix.
 * - insights: what the program earns (CONTRACT §18): the figures from the order facts, the holdout
 *   lift's statistics, the CSV exports, the order facts' retention.
 * - imports: balances brought from another loyalty app — the file's reading, the queue and the
 *   worker that gives each row's points (it makes members as earning does).
 * - earning: the store's own activity → core logs (CONTRACT §17): Shopify's order and customer
 *   webhooks as kept, the worker that earns and reverses from them, visits, earning rules' feeds.
 * - shopify: what faces Shopify — the Admin API operations, Flow actions, install, webhook payloads.
 * - core: talking to the loyalty core — the typed client, records per slug, the app's subscription.
 * - storage: the app's own tables — pool, migrations, sessions, shops, checklist marks.
 * - base: configuration, JSON narrowing, the admin's texts, HTTP helpers (bounded bodies, POST-only routes).
 */
const LAYERS = [
  ['entry', ['app/routes/', 'app/root.tsx', 'app/entry.server.tsx', 'app/commands/']],
  ['components', ['app/components/']],
  ['admin', ['app/admin/']],
  ['app', ['app/shopify.server.ts']],
  ['loop', ['app/loop/']],
  ['insights', ['app/insights/']],
  ['imports', ['app/points-import/']],
  ['earning', ['app/earning/']],
  ['shopify', ['app/shopify/']],
  ['core', ['app/core/']],
  ['storage', ['app/storage/']],
  ['base', ['app/config.server.ts', 'app/json.ts', 'app/i18n/', 'app/http.server.ts']],
];

module.exports = {
  forbidden: [
    ...layerRules(LAYERS, 'app/'),
    {
      name: 'components-import-routes',
      comment: "A component takes what a route gives it; the route's data types live with the component or below.",
      severity: 'error',
      from: { path: '^app/components/' },
      to: { path: '^app/routes/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
