import type { Logger } from 'pino';
import { listen, type Listener } from '../db/listen.js';

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
export function listenForEvents(databaseUrl: string, wakeup: Wakeup, logger: Logger): Listener {
  return listen(databaseUrl, EVENTS_CHANNEL, { onNotify: () => wakeup.signal(), onConnect: () => wakeup.signal() }, logger);
}
