import { AsyncLocalStorage } from 'node:async_hooks';
import type { Server } from 'node:http';
import type { Knex } from 'knex';

/**
 * ARCHITECTURE principle 13, checked: a request holds at most one pooled connection at a time.
 * One that asks the pool for a connection while it holds (or already waits for) another can
 * deadlock the service once as many such requests run as the pool has connections, so the guard
 * fails that request at once and records it; every test file ends by asserting none was recorded.
 */
interface Holder {
  label: string;
  /** Connections this request holds or waits for. */
  inUse: number;
}

const holders = new AsyncLocalStorage<Holder>();

/** What the guard refused in this test file: each the request and where it asked. */
export const poolViolations: string[] = [];

interface PoolClient {
  acquireConnection(): Promise<object>;
  releaseConnection(connection: object): Promise<unknown>;
}

/** Counts, per request, the connections of `db`'s pool it holds, and refuses a second. */
export function guardPool(db: Knex): void {
  const client = db.client as PoolClient;
  const acquire = client.acquireConnection.bind(client);
  const release = client.releaseConnection.bind(client);
  const owners = new WeakMap<object, Holder>();
  client.acquireConnection = async () => {
    const holder = holders.getStore();
    if (holder) {
      if (holder.inUse > 0) {
        const message = `${holder.label} asked for a second pooled connection while holding one`;
        const err = new Error(message);
        poolViolations.push(`${message}\n${err.stack}`);
        throw err;
      }
      holder.inUse += 1;
    }
    try {
      const connection = await acquire();
      if (holder) owners.set(connection, holder);
      return connection;
    } catch (err) {
      if (holder) holder.inUse -= 1;
      throw err;
    }
  };
  client.releaseConnection = (connection) => {
    const holder = owners.get(connection);
    if (holder) {
      owners.delete(connection);
      holder.inUse -= 1;
    }
    return release(connection);
  };
}

/** Runs each request of `server` as a holder of its own, for guardPool. */
export function guardRequests(server: Server): void {
  const listeners = server.listeners('request') as ((...args: unknown[]) => void)[];
  server.removeAllListeners('request');
  for (const listener of listeners) {
    server.on('request', (req: { method?: string; url?: string }, res: unknown) =>
      holders.run({ label: `${req.method} ${req.url}`, inUse: 0 }, () => listener(req, res)),
    );
  }
}

/** Runs `work` (a job, a sweep) as a holder of its own, for guardPool. */
export function asHolder<T>(label: string, work: () => T): T {
  return holders.run({ label, inUse: 0 }, work);
}
