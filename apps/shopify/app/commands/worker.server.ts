import { setTimeout as sleep } from 'node:timers/promises';
import { config } from '../config.server';
import { exclusionsSweepLoop } from '../earning/exclusions-sweep.server';
import { emptyOldPayloads } from '../earning/inbox.server';
import { EARNING_LANES, EarningWorker } from '../earning/worker.server';
import { dropExpiredOrderFacts } from '../insights/retention.server';
import { OutboxSender } from '../loop/sender.server';
import { pointsImportLoop } from '../points-import/imports.server';
import { unauthenticated } from '../shopify.server';
import { pendingMigrations } from '../storage/migrate.server';
import { closePool, createPool, pool } from '../storage/pool.server';
import { earningRules, shops } from '../storage/stores.server';

/**
 * The worker role: `pnpm run start:worker` (node build/commands/worker.js), which `start` runs beside
 * the web server. It sends the Shopify loop's outbox (Flow triggers, discounts), earns from the
 * kept order and customer webhooks (CONTRACT §17), sweeps the customers a shop's excluded tags
 * leave out, and gives imported balances until SIGTERM or
 * SIGINT; any number may run on one database.
 */
const RETENTION_INTERVAL_MS = 3_600_000;

async function main(): Promise<void> {
  // A worker that starts while the release's `migrate` still runs waits for it, rather than failing
  // its passes on tables that are not there yet.
  for (let told = false; (await pendingMigrations(pool())).length; told = true) {
    if (!told) console.log("[loyalty-loop] waiting for the app's migrations");
    await sleep(500);
  }
  const common = {
    pool: pool(),
    databaseUrl: config.databaseUrl,
    shops,
    coreUrl: config.coreUrl,
    retrySchedule: config.retrySchedule,
    adminFor: async (shop: string) => (await unauthenticated.admin(shop)).admin,
  };
  const sender = new OutboxSender(common);
  // The earning and import lanes wait on Shopify and the core with a row held, and read from the
  // process's pool meanwhile: on connections of their own, so they never fill that pool, and a large
  // import never takes order earning's.
  const earningPool = createPool(config.databaseUrl, EARNING_LANES, 'loyalty-shopify-earning');
  const earning = new EarningWorker({ ...common, pool: earningPool, rules: earningRules });
  const exclusions = exclusionsSweepLoop(common);
  const importPool = createPool(config.databaseUrl, config.pointsImportLanes, 'loyalty-shopify-import');
  const imports = pointsImportLoop({ ...common, pool: importPool }, config.pointsImportLanes);
  sender.start();
  earning.start();
  exclusions.start();
  imports.start();
  // Order facts past a shop's retention, and the payloads of webhooks no work reads any more, go at
  // start and every hour after (CONTRACT §18).
  const said = (what: string) => (err: unknown) =>
    console.error(`[loyalty-loop] ${what} failed: ${err instanceof Error ? err.message : String(err)}`);
  const prune = () =>
    Promise.all([
      dropExpiredOrderFacts(pool()).catch(said('dropping expired order facts')),
      emptyOldPayloads(pool()).catch(said('emptying old webhook payloads')),
    ]);
  void prune();
  const pruning = setInterval(() => void prune(), RETENTION_INTERVAL_MS);
  console.log('[loyalty-loop] worker started');
  const stop = async () => {
    clearInterval(pruning);
    await Promise.all([sender.stop(), earning.stop(), exclusions.stop(), imports.stop()]);
    await Promise.all([closePool(), earningPool.end(), importPool.end()]);
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}

main().catch((err: unknown) => {
  console.error(`[loyalty-loop] worker failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
