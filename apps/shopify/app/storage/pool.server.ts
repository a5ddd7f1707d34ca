import pg from 'pg';
import { config } from '../config.server';

/**
 * How long a query waits for a connection (one free in the pool, or a new one opened): past it the
 * database counts as out of reach and the request is answered 503, rather than hanging on a
 * server that does not answer (a failover, a network partition) until Shopify's own timeout.
 */
export const CONNECT_TIMEOUT_MS = 10_000;

/**
 * A pool on the app's database of at most `max` connections; what a process keeps open is its
 * business (see pool()). `name` is the connections' application_name, which pg_stat_activity shows.
 */
export function createPool(url: string, max: number, name = 'loyalty-shopify'): pg.Pool {
  // No JIT: the app's queries are short, and PostgreSQL's estimate for a JSON array's elements (100
  // rows each) would have it spend seconds compiling the dashboard's few-millisecond queries. Enough
  // memory to group a quarter's ordering customers (100,000 of a large shop) without spilling to disk.
  const pool = new pg.Pool({
    connectionString: url,
    max,
    application_name: name,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    options: '-c jit=off -c work_mem=32MB',
  });
  // An idle connection the server drops (restart, failover) must not crash the process; the pool
  // replaces it on the next query.
  pool.on('error', () => undefined);
  // Nor may one lent out, which the pool no longer listens to: held between a transaction's
  // statements while its holder awaits the core or Shopify, its drop would be an unhandled error
  // event. Its holder's next statement fails instead, and the pool drops it when it is given back.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

let current: pg.Pool | null = null;

/** The process's pool on the app's database, created on first use: importing the app opens nothing. */
export function pool(): pg.Pool {
  current ??= createPool(config.databaseUrl, config.dbPoolMax);
  return current;
}

/** Ends the process's pool (shutdown, and tests that load the app in-process); the next use opens a new one. */
export async function closePool(): Promise<void> {
  const open = current;
  current = null;
  await open?.end();
}

/** SQLSTATE classes of an outage: 08 connection exceptions, 53 insufficient resources (too many clients), 57P0x shutdowns. */
const OUTAGE_SQLSTATE = /^(08|53)[0-9A-Z]{3}$|^57P0[1-5]$/;
const OUTAGE_SOCKET = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN']);
/** pg's own words for a connection that went away under a query, or that could not be had in time. */
const OUTAGE_MESSAGE =
  /Connection terminated|connection is not open|Client was closed|not queryable|connection error|timeout exceeded when trying to connect/i;

/**
 * Whether `error` is the app's database out of reach (down, restarting, out of connections) rather
 * than a failure of what was asked: the request did nothing, and may be retried.
 */
export function isDatabaseOutage(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = 'code' in error ? error.code : undefined;
  if (typeof code === 'string' && (OUTAGE_SQLSTATE.test(code) || OUTAGE_SOCKET.has(code))) return true;
  return 'message' in error && typeof error.message === 'string' && OUTAGE_MESSAGE.test(error.message);
}
