import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** Every environment variable the service reads, parsed once at boot (ARCHITECTURE principle 7). */
export interface Config {
  host: string;
  port: number;
  databaseUrl: string | undefined;
  dataDir: string;
  /** Undefined only in embedded mode before the data dir supplies one. */
  masterKey: Buffer | undefined;
  platformToken: string | undefined;
  publicUrl: string;
  schedulerIntervalMs: number;
  /** How long a sweep may stay active before another worker may start one: after a worker dies mid-sweep, sweeps resume within this and its upkeep. */
  sweepExpirySeconds: number;
  lateLogGraceSeconds: number;
  /** A reward hold's day, in seconds (CONTRACT §17). */
  holdDaySeconds: number;
  /** Up to how many progress records a new leaderboard's standings are built in its request; above, in the background. */
  standingsInlineMax: number;
  webhookRetrySchedule: number[];
  webhookTimeoutMs: number;
  webhookAllowPrivate: boolean;
  rateLimitPerSecond: number;
  endUserRateLimitPerSecond: number;
  guestRateLimitPerSecond: number;
  /** Connections of each process's PostgreSQL pool. */
  dbPoolMax: number;
  /**
   * Requests of one account a process works on at once; the rest wait their turn in order, so
   * that one tenant's burst leaves the pool's other connections to everyone else.
   */
  tenantConcurrency: number;
  emailTransport: 'file' | 'smtp' | 'ses';
  /** The shared pre-verified sending domain: integrations on it send from no-reply@ this domain. */
  emailSharedDomain: string;
  smtpUrl: string | undefined;
  sesEndpoint: string | undefined;
  pushApiUrl: string | undefined;
  smsEndpoint: string | undefined;
  chatEndpoint: string | undefined;
  dnsServers: string[];
  logLevel: string;
  trustProxy: boolean;
  /** Off: no /metrics content, no default process collectors, no counting (for measuring their cost). */
  metricsEnabled: boolean;
  /** Where `loyalty worker` serves /metrics and /healthz; 0 picks a free port. */
  workerMetricsPort: number;
  /** OTLP/HTTP base URL; traces are exported only when set, and the SDK is not loaded otherwise. */
  otlpEndpoint: string | undefined;
  otelServiceName: string | undefined;
  /** OTEL_TRACES_SAMPLER is set: the SDK takes the sampler it names, else ours (parent-based, a share of new traces). */
  otelSamplerNamed: boolean;
  /** How long delivered events and finished delivery logs are kept, in days (0: forever), and how often the workers prune. */
  retention: RetentionSettings;
}

export interface RetentionSettings {
  eventLogDays: number;
  webhookLogDays: number;
  notificationLogDays: number;
  intervalMs: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

type Env = Record<string, string | undefined>;

const EMAIL_TRANSPORTS: readonly Config['emailTransport'][] = ['file', 'smtp', 'ses'];

const MAX_TIMER_MS = 2_147_483_647;
const TEN_YEARS_S = 315_360_000;

export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];

  // Past the largest delay Node's timers take, a timer fires at once; past ten years, a duration
  // taken from a timestamp leaves the dates PostgreSQL and JavaScript hold.
  const int = (name: string, fallback: number, min = 0, max = MAX_TIMER_MS): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${name} must be an integer >= ${min} and <= ${max}, got "${raw}"`);
      return fallback;
    }
    return n;
  };
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (raw === 'true' || raw === '1') return true;
    if (raw === 'false' || raw === '0') return false;
    problems.push(`${name} must be true or false, got "${raw}"`);
    return fallback;
  };
  const days = (name: string, fallback: number): number => (env[name] === 'off' ? 0 : int(name, fallback));
  const url = (name: string): string | undefined => {
    const raw = env[name];
    if (!raw) return undefined;
    try {
      new URL(raw);
      return raw;
    } catch {
      // The problems are printed: a password in the value is not.
      problems.push(`${name} must be a URL, got "${raw.replace(/\/\/[^/@]*@/, '//[credentials]@')}"`);
      return undefined;
    }
  };

  const host = env.HOST || '127.0.0.1';
  const port = int('PORT', 4000, 0, 65_535);
  const workerMetricsPort = int('LOYALTY_WORKER_METRICS_PORT', 9464, 0, 65_535);
  const dbPoolMax = int('LOYALTY_DB_POOL_MAX', 10, 2);
  const databaseUrl = url('DATABASE_URL');

  let masterKey: Buffer | undefined;
  if (env.LOYALTY_MASTER_KEY) {
    masterKey = Buffer.from(env.LOYALTY_MASTER_KEY, 'base64');
    if (masterKey.length !== 32) problems.push('LOYALTY_MASTER_KEY must be 32 bytes, base64-encoded');
  } else if (databaseUrl) {
    problems.push(
      "LOYALTY_MASTER_KEY is required with DATABASE_URL (generate one with: node -e \"console.log(require('crypto').randomBytes(32).toString('base64'))\")",
    );
  }

  // An empty schedule is no retries; a blank entry is a typo, not "retry at once".
  const entries = (env.LOYALTY_WEBHOOK_RETRY_SCHEDULE ?? '5,300,1800,7200,18000,36000,50400,72000,86400').trim();
  const schedule = entries === '' ? [] : entries.split(',').map((s) => (/^\d+$/.test(s.trim()) ? Number(s.trim()) : Number.NaN));
  if (schedule.some((n) => !(n <= TEN_YEARS_S))) {
    problems.push(`LOYALTY_WEBHOOK_RETRY_SCHEDULE must be comma-separated whole seconds, each <= ${TEN_YEARS_S}, or empty for no retries`);
  }

  const defaultTransport = databaseUrl ? 'smtp' : 'file';
  const transport = env.LOYALTY_EMAIL_TRANSPORT || defaultTransport;
  const emailTransport = EMAIL_TRANSPORTS.find((t) => t === transport);
  if (!emailTransport) {
    problems.push(`LOYALTY_EMAIL_TRANSPORT must be file, smtp or ses, got "${transport}"`);
  }

  const retention: RetentionSettings = {
    eventLogDays: days('LOYALTY_RETENTION_EVENT_LOG_DAYS', 90),
    webhookLogDays: days('LOYALTY_RETENTION_WEBHOOK_LOG_DAYS', 30),
    notificationLogDays: days('LOYALTY_RETENTION_NOTIFICATION_LOG_DAYS', 90),
    intervalMs: int('LOYALTY_RETENTION_INTERVAL_MS', 3_600_000, 1),
  };
  // A kept webhook log can be resent, and its body is its events: they must outlive it.
  if (retention.eventLogDays && (!retention.webhookLogDays || retention.eventLogDays < retention.webhookLogDays)) {
    problems.push(
      'LOYALTY_RETENTION_EVENT_LOG_DAYS must be off (0) or at least LOYALTY_RETENTION_WEBHOOK_LOG_DAYS: a webhook log that is kept is resent with its events',
    );
  }

  const config: Config = {
    host,
    port,
    databaseUrl,
    dataDir: env.LOYALTY_DATA_DIR || './.loyalty-data',
    masterKey,
    platformToken: env.LOYALTY_PLATFORM_TOKEN || undefined,
    publicUrl: (url('LOYALTY_PUBLIC_URL') ?? `http://${host}:${port}`).replace(/\/$/, ''),
    schedulerIntervalMs: int('LOYALTY_SCHEDULER_INTERVAL_MS', 60_000, 1),
    // pg-boss refuses a job expiry of 24 hours or more.
    sweepExpirySeconds: int('LOYALTY_SWEEP_EXPIRY_SECONDS', 60, 1, 86_399),
    lateLogGraceSeconds: int('LOYALTY_LATE_LOG_GRACE_SECONDS', 900, 0, TEN_YEARS_S),
    holdDaySeconds: int('LOYALTY_HOLD_DAY_SECONDS', 86_400, 1, TEN_YEARS_S),
    standingsInlineMax: int('LOYALTY_STANDINGS_INLINE_MAX', 10_000),
    webhookRetrySchedule: schedule,
    webhookTimeoutMs: int('LOYALTY_WEBHOOK_TIMEOUT_MS', 15_000, 1),
    webhookAllowPrivate: bool('LOYALTY_WEBHOOK_ALLOW_PRIVATE', false),
    rateLimitPerSecond: int('LOYALTY_RATE_LIMIT_PER_SECOND', 200, 1),
    endUserRateLimitPerSecond: int('LOYALTY_ENDUSER_RATE_LIMIT_PER_SECOND', 20, 1),
    guestRateLimitPerSecond: int('LOYALTY_GUEST_RATE_LIMIT_PER_SECOND', 20, 1),
    dbPoolMax,
    tenantConcurrency: int('LOYALTY_TENANT_CONCURRENCY', Math.max(1, Math.floor(dbPoolMax / 2)), 1),
    // An unknown transport is a problem, thrown below; the default only fills its place.
    emailTransport: emailTransport ?? defaultTransport,
    emailSharedDomain: env.LOYALTY_EMAIL_SHARED_DOMAIN || 'localhost',
    smtpUrl: url('LOYALTY_SMTP_URL'),
    sesEndpoint: url('LOYALTY_SES_ENDPOINT'),
    pushApiUrl: url('LOYALTY_PUSH_API_URL'),
    smsEndpoint: url('LOYALTY_SMS_ENDPOINT'),
    chatEndpoint: url('LOYALTY_CHAT_ENDPOINT'),
    dnsServers: (env.LOYALTY_DNS_SERVERS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    logLevel: env.LOG_LEVEL || 'info',
    trustProxy: bool('LOYALTY_TRUST_PROXY', false),
    metricsEnabled: bool('LOYALTY_METRICS_ENABLED', true),
    workerMetricsPort,
    otlpEndpoint: url('OTEL_EXPORTER_OTLP_ENDPOINT')?.replace(/\/$/, ''),
    otelServiceName: env.OTEL_SERVICE_NAME || undefined,
    otelSamplerNamed: Boolean(env.OTEL_TRACES_SAMPLER),
    retention,
  };
  if (problems.length) throw new ConfigError(problems);
  return config;
}

/** Writes a file only its owner may read into the data folder, which it creates if missing. */
export function writeDataFile(dataDir: string, file: string, text: string): void {
  mkdirSync(resolve(dataDir), { recursive: true });
  writeFileSync(resolve(dataDir, file), text, { mode: 0o600 });
}

/**
 * What a valid configuration will still fail at, said when a process starts: the service runs (a
 * merchant may never send e-mail), but an operator reads why e-mail fails before a merchant does.
 */
export function configWarnings(config: Config): string[] {
  return config.emailTransport === 'smtp' && !config.smtpUrl
    ? ['LOYALTY_EMAIL_TRANSPORT is smtp and LOYALTY_SMTP_URL is not set: every e-mail notification will fail until it is.']
    : [];
}

/** Reads a file if it exists; used for keys kept in the embedded data dir. */
export function readIfExists(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}
