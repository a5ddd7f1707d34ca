import pg from 'pg';
import type { Logger } from 'pino';

export const EVENTS_CHANNEL = 'loyalty_events';

/** A sleep that a signal can cut short: workers idle until new work or the poll interval. */
export class Wakeup {
  private wake: (() => void) | undefined;
  private pending = false;

  signal(): void {
    this.pending = true;
    this.wake?.();
  }

  wait(ms: number): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const self = this;
      function done() {
        clearTimeout(timer);
        self.wake = undefined;
        self.pending = false;
        resolve();
      }
      this.wake = done;
    });
  }
}

/**
 * LISTENs for the outbox's NOTIFY so deliveries start within milliseconds of a commit; polling
 * remains the safety net, so a dropped connection only costs latency (it reconnects).
 */
export function listenForEvents(databaseUrl: string, wakeup: Wakeup, logger: Logger): { stop(): Promise<void> } {
  let client: pg.Client | undefined;
  let stopped = false;
  const connect = async () => {
    if (stopped) return;
    const c = new pg.Client({ connectionString: databaseUrl, application_name: 'loyalty-listener' });
    c.on('notification', () => wakeup.signal());
    c.on('error', (err) => {
      logger.warn({ err }, 'event listener lost its connection; reconnecting');
      c.end().catch(() => {});
      if (client === c) client = undefined;
      setTimeout(() => void connect(), 1000).unref();
    });
    try {
      await c.connect();
      await c.query(`listen ${EVENTS_CHANNEL}`);
      client = c;
      wakeup.signal();
    } catch (err) {
      logger.warn({ err }, 'event listener could not connect; retrying');
      c.end().catch(() => {});
      setTimeout(() => void connect(), 1000).unref();
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
