import type { Knex } from 'knex';
import pino, { type Logger } from 'pino';
import { Authenticator } from './auth/authenticate.js';
import { SecretBox } from './auth/crypto.js';
import type { Config } from './config.js';
import { TokenBuckets } from './http/rateLimit.js';
import { Metrics } from './observability/metrics.js';
import { Registry } from './records/registry.js';
import { RecordService } from './records/service.js';
import { createResources } from './resources/index.js';

/**
 * Logs errors as type, message, code and stack only: driver errors carry their client, whose
 * connection parameters include the database password.
 */
export function createLogger(level: string): Logger {
  return pino({
    level,
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
}

export function createServices(config: Config, db: Knex, logger?: Logger): Services {
  if (!config.masterKey) throw new Error('master key not resolved');
  const box = new SecretBox(config.masterKey);
  const registry = new Registry(createResources(config));
  const records = new RecordService(db, box, registry);
  const auth = new Authenticator(db, box);
  // Other processes learn of key changes by notification; this one drops its cache at once.
  records.onWrite((slug) => {
    if (slug === 'apikey') auth.forget();
  });
  return {
    config,
    db,
    box,
    registry,
    records,
    auth,
    logger: logger ?? createLogger(config.logLevel),
    metrics: new Metrics(db, config.metricsEnabled),
    buckets: new TokenBuckets(),
  };
}
