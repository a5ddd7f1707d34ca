import pg from 'pg';
import type { Logger } from 'pino';
import { CONNECT_TIMEOUT_MS } from './pool.js';

export interface Listener {
  stop(): Promise<void>;
}

/**
 * LISTENs on a channel on a connection of its own, reconnecting when it drops. `onConnect` runs
 * on every (re)connection: notifications sent while disconnected are lost, so callers catch up.
 */
export function listen(databaseUrl: string, channel: string, handlers: { onNotify(): void; onConnect(): void }, logger: Logger): Listener {
  let client: pg.Client | undefined;
  let stopped = false;
  const retry = (c: pg.Client) => {
    c.end().catch(() => {});
    if (client === c) client = undefined;
    if (!stopped) setTimeout(() => void connect(), 1000).unref();
  };
  const connect = async () => {
    if (stopped) return;
    // A connect left hanging on a server that does not answer would never retry.
    const c = new pg.Client({
      connectionString: databaseUrl,
      application_name: `loyalty-listener-${channel}`,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    c.on('notification', () => handlers.onNotify());
    c.on('error', (err) => {
      logger.warn({ err, channel }, 'listener lost its connection; reconnecting');
      retry(c);
    });
    try {
      await c.connect();
      await c.query(`listen ${pg.escapeIdentifier(channel)}`);
      if (stopped) {
        await c.end();
        return;
      }
      client = c;
      handlers.onConnect();
    } catch (err) {
      logger.warn({ err, channel }, 'listener could not connect; retrying');
      retry(c);
    }
  };
  void connect();
  return {
    async stop() {
      stopped = true;
      await client?.end().catch(() => {});
    },
  };
}
