import type { Knex } from 'knex';
import pino, { type Logger } from 'pino';
import { Authenticator } from './auth/authenticate.js';
import { SecretBox } from './auth/crypto.js';
import type { Config } from './config.js';
import { Metrics } from './http/metrics.js';
import { TokenBuckets } from './http/rateLimit.js';
import { Registry } from './records/registry.js';
import { RecordService } from './records/service.js';
import { createResources } from './resources/index.js';

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
  return {
    config,
    db,
    box,
    registry,
    records: new RecordService(db, box, registry),
    auth: new Authenticator(db, box),
    logger: logger ?? pino({ level: config.logLevel }),
    metrics: new Metrics(),
    buckets: new TokenBuckets(),
  };
}
