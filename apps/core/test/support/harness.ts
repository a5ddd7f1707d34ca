import { randomBytes } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import { expect, inject } from 'vitest';
import { type Config, loadConfig } from '../../src/config.js';
import { createDb, type Db } from '../../src/db/knex.js';
import type { AppOptions } from '../../src/http/app.js';
import { API_PREFIX } from '../../src/http/prefix.js';
import { apiDocument } from '../../src/http/routes/docs.js';
import { startApi, type RunningApi } from '../../src/server.js';
import { assertDocumented, useDocument } from './openapi.js';
import { guardPool, guardRequests } from './pool-guard.js';

export const PLATFORM_TOKEN = 'test-platform-token-0123456789';

/**
 * A database of this test file's own, cloned from the migrated template (or `empty`, for another
 * app's own tables). Named after the template, so the run's teardown drops any left behind.
 */
export async function createTestDatabase({ empty = false } = {}): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = inject('adminUrl');
  const template = inject('templateDatabase');
  const name = `${template}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  // Cloning needs the template free of sessions; concurrent files retry briefly.
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.query(empty ? `create database ${name}` : `create database ${name} template ${template}`);
      break;
    } catch (err) {
      if (attempt > 50 || (err as { code?: string }).code !== '55006') throw err;
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
    }
  }
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      // A pool's end() resolves before its sockets close: a forced drop at once would terminate those
      // sessions, and their clients report it as an uncaught error. Let closing sessions finish first.
      for (let attempt = 0; attempt < 20; attempt++) {
        const { rows } = await c.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
        if (rows[0].n === 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export type HeaderMap = Record<string, string>;

/**
 * A minimal HTTP client over fetch that returns status, headers and parsed JSON, and checks every
 * response against the service's OpenAPI document. `validate: false` is for the routes that are not
 * API operations (metrics, docs, the demo page, files), which the document leaves out.
 */
export class Client {
  constructor(
    readonly baseUrl: string,
    readonly defaults: HeaderMap = {},
  ) {}

  with(headers: HeaderMap): Client {
    return new Client(this.baseUrl, { ...this.defaults, ...headers });
  }

  async request<T = any>(
    method: string,
    path: string,
    options: { body?: unknown; raw?: string | Buffer; headers?: HeaderMap; query?: Record<string, unknown>; validate?: false } = {},
  ): Promise<Reply<T>> {
    const url = new URL(path.startsWith('http') ? path : `${this.baseUrl}${path}`);
    for (const [k, v] of Object.entries(options.query ?? {})) {
      url.searchParams.set(k, typeof v === 'string' ? v : JSON.stringify(v));
    }
    const headers: HeaderMap = { ...this.defaults, ...options.headers };
    let body: string | Blob | undefined =
      typeof options.raw === 'string' || options.raw === undefined ? options.raw : new Blob([new Uint8Array(options.raw)]);
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(url, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    if (options.validate !== false) await assertDocumented({ method, url, status: res.status, headers: res.headers, text, body: parsed });
    return { status: res.status, headers: res.headers, body: parsed as T };
  }

  get<T = any>(path: string, query?: Record<string, unknown>, headers?: HeaderMap) {
    return this.request<T>('GET', path, { query, headers });
  }
  post<T = any>(path: string, body?: unknown, headers?: HeaderMap) {
    return this.request<T>('POST', path, { body, headers });
  }
  patch<T = any>(path: string, body?: unknown, headers?: HeaderMap, query?: Record<string, unknown>) {
    return this.request<T>('PATCH', path, { body, headers, query });
  }
  delete<T = any>(path: string, headers?: HeaderMap) {
    return this.request<T>('DELETE', path, { headers });
  }
}

/** The `data` of an answer that must be 200; otherwise the test fails, showing the answer's body. */
export async function accepted<T = any>(reply: Promise<Pick<Reply<{ data: T }>, 'status' | 'body'>>): Promise<T> {
  const res = await reply;
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

export interface TestAccount {
  organizationId: string;
  accountId: string;
  apiKey: string;
  apiSecret: string;
  /** A client authenticated with this account's API key. */
  api: Client;
}

export interface TestApp {
  url: string;
  db: Db;
  config: Config;
  running: RunningApi;
  /** Unauthenticated client on the API prefix. */
  anon: Client;
  platform: Client;
  createAccount(input?: Record<string, unknown>): Promise<TestAccount>;
  close(): Promise<void>;
}

/** Boots the real service on a database of its own; the integration runner of every suite. */
export async function startTestApp(env: Record<string, string> = {}, options: AppOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const config = loadConfig({
    DATABASE_URL: database.url,
    LOYALTY_MASTER_KEY: randomBytes(32).toString('base64'),
    LOYALTY_PLATFORM_TOKEN: PLATFORM_TOKEN,
    PORT: '0',
    LOG_LEVEL: 'silent',
    LOYALTY_RATE_LIMIT_PER_SECOND: '100000',
    LOYALTY_ENDUSER_RATE_LIMIT_PER_SECOND: '100000',
    LOYALTY_GUEST_RATE_LIMIT_PER_SECOND: '100000',
    ...env,
  });
  const db = createDb(database.url, config.dbPoolMax);
  guardPool(db);
  const running = await startApi(config, db, pino({ level: 'silent' }), options);
  guardRequests(running.server);
  useDocument(running.url, apiDocument(running.services.registry, `${config.publicUrl}${API_PREFIX}`));
  const prefix = `${running.url}/api/v1.0`;
  const anon = new Client(prefix);
  const platform = anon.with({ authorization: `Bearer ${PLATFORM_TOKEN}` });
  let counter = 0;
  return {
    url: running.url,
    db,
    config,
    running,
    anon,
    platform,
    async createAccount(input = {}) {
      counter += 1;
      const res = await platform.post('/platform/accounts', {
        organizationName: `Org ${counter}`,
        accountName: `Account ${counter}`,
        ...input,
      });
      if (res.status !== 200) throw new Error(`account create failed: ${res.status} ${JSON.stringify(res.body)}`);
      const { organization, account, apiKey } = res.body.data;
      return {
        organizationId: organization.id,
        accountId: account.id,
        apiKey: apiKey.apiKey,
        apiSecret: apiKey.apiSecret,
        api: anon.with({ 'x-api-key': apiKey.apiKey, 'x-api-secret': apiKey.apiSecret }),
      };
    },
    async close() {
      await running.close();
      await db.destroy();
      await database.drop();
    },
  };
}
