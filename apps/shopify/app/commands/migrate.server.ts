import { config } from '../config.server';
import { migrate } from '../storage/migrate.server';
import { createPool } from '../storage/pool.server';

/**
 * `pnpm run migrate` (node build/commands/migrate.js), also the first step of `start`: applies the
 * app's migrations and exits; 1 when they could not be applied.
 */
async function main(): Promise<void> {
  const pool = createPool(config.databaseUrl, config.dbPoolMax);
  try {
    const applied = await migrate(pool);
    console.log(applied.length ? `[loyalty] migrations applied: ${applied.join(', ')}` : '[loyalty] migrations: none to apply');
  } finally {
    await pool.end();
  }
}

main().catch((err: unknown) => {
  console.error(`[loyalty] migrations failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
});
