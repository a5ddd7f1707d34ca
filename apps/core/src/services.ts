import type { Knex } from 'knex';
import pino, { type Logger } from 'pino';
import { Histogram } from 'prom-client';
import { Authenticator } from './auth/authenticate.js';
import { SecretBox } from './auth/crypto.js';
import type { Config } from './config.js';
import { ByteBudget, KeyedGate } from './concurrency.js';
import type { ConnectionPool } from './db/pool.js';
import { upsertMember } from './engine/members.js';
import { Metrics } from './observability/metrics.js';
import { TokenBuckets } from './rate-limit.js';
import { Registry } from './records/registry.js';
import { RecordService } from './records/service.js';
import { createResources } from './resources/index.js';

/** Fields that carry credentials, wherever a log call puts them (top level or one level down). */
const SECRET_FIELDS = [
  'apiSecret',
  'platformToken',
  'masterKey',
  'secret',
  'token',
  'accessToken',
  'password',
  'authorization',
  'cookie',
  'webhookSecret',
  'secretAccessKey',
  'serviceAccountJSON',
  'x-api-secret',
  'x-enduser-access-token',
];
const REDACT_PATHS = SECRET_FIELDS.flatMap((f) => [`["${f}"]`, `*["${f}"]`]);
const REDACTED = '[redacted]';

/** The configuration's own secrets, which no log line may carry whatever field or message holds them. */
export function configSecrets(config: Pick<Config, 'platformToken' | 'masterKey'>): string[] {
  return [config.platformToken, config.masterKey?.toString('base64')].filter((v): v is string => !!v);
}

/**
 * Logs errors as type, message, code and stack only: driver errors carry their client, whose
 * connection parameters include the database password. Credential fields are redacted, and the
 * given secret values are replaced wherever they appear in a line.
 */
export function createLogger(level: string, secrets: readonly string[] = []): Logger {
  return pino({
    level,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    hooks: { streamWrite: (line) => secrets.reduce((out, secret) => out.replaceAll(secret, REDACTED), line) },
    serializers: {
      err: (err: { name?: string; message?: string; code?: string; stack?: string }) => ({
        type: err?.name,
        message: err?.message,
        code: err?.code,
        stack: err?.stack,
      }),
    },
  });
}

/** The process-wide objects every part of the service shares, built once at boot. */
export interface Services {
  config: Config;
  db: Knex;
  box: SecretBox;
  registry: Registry;
  records: RecordService;
  auth: Authenticator;
  logger: Logger;
  metrics: Metrics;
  buckets: TokenBuckets;
  /** Each account's requests in progress in this process (config.tenantConcurrency at most). */
  tenants: KeyedGate;
  /** Request bodies held in memory, per merchant, member or guest address and in all (http/auth.ts). */
  bodies: ByteBudget;
}

const MB = 1024 * 1024;
/**
 * Eight of the largest bodies (a 4 MB coupon import) per caller, 64 in all: a burst of imports
 * waits in a line of bounded memory instead of a line of every body sent.
 */
const BODIES_PER_CALLER_BYTES = 32 * MB;
const BODIES_BYTES = 256 * MB;

/**
 * How long each query waited for a connection of the pool: a log's latency tail is partly its
 * wait for one of a few connections (bench:ingest reads this to break the tail down).
 */
function watchPoolWaits(db: Knex, metrics: Metrics): void {
  const pool = (db.client as { pool?: ConnectionPool }).pool;
  if (!metrics.enabled || !pool) return;
  const waits = new Histogram({
    name: 'loyalty_db_pool_wait_seconds',
    help: 'Time a query waited for a connection of the PostgreSQL pool',
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
    registers: [metrics.registry],
  });
  pool.onAcquired = (seconds) => waits.observe(seconds);
}

export function createServices(config: Config, db: Knex, logger?: Logger): Services {
  if (!config.masterKey) throw new Error('master key not resolved');
  const box = new SecretBox(config.masterKey);
  const registry = new Registry(createResources(config));
  const records = new RecordService(db, box, registry, config.holdDaySeconds, config.lateLogGraceSeconds);
  const auth = new Authenticator(db, box, (account, user) => upsertMember(records, account, user));
  // Other processes learn of key changes by notification; this one drops its cache at once.
  records.onWrite((slug) => {
    if (slug === 'apikey') auth.forget();
  });
  const metrics = new Metrics(db, config.metricsEnabled, config.webhookRetrySchedule.length + 1);
  watchPoolWaits(db, metrics);
  return {
    config,
    db,
    box,
    registry,
    records,
    auth,
    logger: logger ?? createLogger(config.logLevel, configSecrets(config)),
    metrics,
    buckets: new TokenBuckets(),
    tenants: new KeyedGate(config.tenantConcurrency),
    bodies: new ByteBudget(BODIES_PER_CALLER_BYTES, BODIES_BYTES),
  };
}
