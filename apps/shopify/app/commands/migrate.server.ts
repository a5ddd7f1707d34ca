import { migrate } from '../storage/migrate.server';
import { closePool, pool } from '../storage/pool.server';

/**
 * `pnpm run migrate` (node build/commands/migrate.js), also the first step of `start`: applies the
 * app's migrations and exits; 1 when they could not be applied.
 */
async function main(): Promise<void> {
  try {
    const applied = await migrate(pool());
    console.log(applied.length ? `[loyalty] migrations applied: ${applied.join(', ')}` : '[loyalty] migrations: none to apply');
  } finally {
    await closePool();
  }
}

main().catch((err: unknown) => {
  console.error(`[loyalty] migrations failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
});
