import { randomBytes } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import type { Logger } from 'pino';
import { CREDENTIALS_CHANNEL } from './auth/authenticate.js';
import { SecretBox } from './auth/crypto.js';
import { type Config, ConfigError, readIfExists, writeDataFile } from './config.js';
import { startEmbeddedPostgres } from './db/embedded.js';
import { createDb, type Db } from './db/knex.js';
import { listen } from './db/listen.js';
import { migrateLatest } from './db/migrate.js';
import { type AppOptions, createApp } from './http/app.js';
import { createHttpServer } from './http/limits.js';
import { unavailable } from './errors.js';
import { createLogger, createServices, type Services } from './services.js';

/** How long a closing API lets its in-flight requests finish before it cuts what is still open. */
const CLOSE_GRACE_MS = 5_000;

/** The generated platform token, in the embedded data dir. */
export const PLATFORM_TOKEN_FILE = 'platform.token';

/** A secret kept in the embedded data dir: read it, or generate it once (mode 600). */
function dataDirSecret(config: Config, file: string, generate: () => string): string {
  const existing = readIfExists(resolve(config.dataDir, file));
  if (existing) return existing;
  const value = generate();
  writeDataFile(config.dataDir, file, `${value}\n`);
  return value;
}

export interface Runtime {
  config: Config;
  db: Db;
  databaseUrl: string;
  /** True when the platform token was generated here and should be shown to the operator. */
  generatedPlatformToken: boolean;
  close(): Promise<void>;
}

/** Resolves the database (embedded when DATABASE_URL is unset), the master key, and migrates. */
export async function openRuntime(config: Config): Promise<Runtime> {
  const resolved = { ...config };
  let stopEmbedded: (() => Promise<void>) | undefined;
  let url = config.databaseUrl;
  let generatedPlatformToken = false;
  if (!url) {
    const embedded = await startEmbeddedPostgres(config.dataDir, 'loyalty', createLogger(config.logLevel));
    url = embedded.url;
    stopEmbedded = embedded.stop;
    resolved.masterKey ??= Buffer.from(
      dataDirSecret(config, 'master.key', () => randomBytes(32).toString('base64')),
      'base64',
    );
    if (!resolved.platformToken) {
      resolved.platformToken = dataDirSecret(config, PLATFORM_TOKEN_FILE, () => randomBytes(32).toString('base64url'));
      generatedPlatformToken = true;
    }
  }
  const db = createDb(url, config.dbPoolMax);
  try {
    await migrateLatest(db);
    await checkMasterKey(db, resolved.masterKey);
  } catch (err) {
    await db.destroy();
    await stopEmbedded?.();
    throw err;
  }
  resolved.databaseUrl = url;
  return {
    config: resolved,
    db,
    databaseUrl: url,
    generatedPlatformToken,
    async close() {
      await db.destroy();
      await stopEmbedded?.();
    },
  };
}

/**
 * API keys' secrets (and every other stored secret) are sealed with the master key: under another
 * key each API key's request would fail as a 500, so the process refuses to start with one.
 */
async function checkMasterKey(db: Db, masterKey: Buffer | undefined): Promise<void> {
  if (!masterKey) return;
  const sealed = await db('apikey').first<{ api_secret_enc: string } | undefined>('api_secret_enc');
  if (!sealed) return;
  try {
    new SecretBox(masterKey).open(sealed.api_secret_enc);
  } catch {
    throw new ConfigError([
      'LOYALTY_MASTER_KEY does not open the secrets this database holds: they were sealed with another key. Start with the key they were sealed with.',
    ]);
  }
}

export interface RunningApi {
  services: Services;
  server: Server;
  url: string;
  close(): Promise<void>;
}

export async function startApi(config: Config, db: Db, logger?: Logger, options: AppOptions = {}): Promise<RunningApi> {
  const services = createServices(config, db, logger);
  const app = createApp(services, options);
  // A request the parser refused draws on its address's guest bucket, as an unknown path does (http/app.ts).
  const charge = (address: string) => services.buckets.take(`ip:${address}`, config.guestRateLimitPerSecond);
  const server = createHttpServer(app.callback(), charge).listen(config.port, config.host);
  await new Promise<void>((ok, fail) =>
    server
      .once('listening', ok)
      .once('error', (err: NodeJS.ErrnoException) =>
        fail(
          err.code === 'EADDRINUSE'
            ? new ConfigError([`port ${config.port} on ${config.host} is in use: set PORT (or HOST) to another`])
            : err,
        ),
      ),
  );
  server.keepAliveTimeout = 65_000;
  // Once stopping, every answer not yet begun closes its connection, so a keep-alive client opens a new one (elsewhere).
  let draining = false;
  const answering = new Set<ServerResponse>();
  server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
    if (draining) res.shouldKeepAlive = false;
    else {
      answering.add(res);
      res.once('close', () => answering.delete(res));
    }
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const forget = () => services.auth.forget();
  const credentials = config.databaseUrl
    ? listen(config.databaseUrl, CREDENTIALS_CHANNEL, { onNotify: forget, onConnect: forget }, services.logger)
    : undefined;
  return {
    services,
    server,
    url: `http://${config.host}:${port}`,
    async close() {
      draining = true;
      for (const res of answering) if (!res.headersSent) res.shouldKeepAlive = false;
      // Requests waiting for their account's turn have done nothing: they are refused, to be retried elsewhere.
      services.tenants.close(() => unavailable('The service is stopping: retry the request.', 1));
      const closed = new Promise<void>((ok) => server.close(() => ok()));
      // A connection whose client stopped mid-request (a body refused before it was all sent) counts
      // as busy until the keep-alive timeout: after the in-flight requests' grace it is cut, so a
      // shutdown never waits 65 s on it.
      const cut = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
      await closed;
      clearTimeout(cut);
      await credentials?.stop();
    },
  };
}
