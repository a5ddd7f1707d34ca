import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { listen, type Listener } from '../db/listen.js';
import { run } from '../db/prepared.js';

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

/**
 * One coalescing sender per database handle. A NOTIFY inside the statement that writes a log's
 * events made every such commit take PostgreSQL's notify-queue lock and hold it through its WAL
 * flush, so concurrent logs committed one at a time (bench:ingest's tail). Sent after the commit
 * instead, at most one at a time (a commit during a send asks for one more), and with an
 * asynchronous commit: the events are already durable, and a wake-up lost to a crash only costs
 * the workers' poll interval.
 */
class CommitNotifier {
  private sending = false;
  private again = false;

  constructor(private readonly db: Knex) {}

  notify(): void {
    if (this.sending) {
      this.again = true;
      return;
    }
    this.sending = true;
    void this.send();
  }

  private async send(): Promise<void> {
    do {
      this.again = false;
      try {
        await run(this.db, NOTIFY);
      } catch {
        // Polling delivers what a missed wake-up would have (a database restart, a pool at its end).
      }
    } while (this.again);
    this.sending = false;
  }
}

const NOTIFY = {
  text: `select set_config('synchronous_commit', 'off', true), pg_notify($1, '')`,
  values: [EVENTS_CHANNEL],
};
const notifiers = new WeakMap<Knex, CommitNotifier>();

/** Wakes idle delivery workers after a commit that wrote events; returns at once. */
export function notifyEventsCommitted(db: Knex): void {
  let notifier = notifiers.get(db);
  if (!notifier) notifiers.set(db, (notifier = new CommitNotifier(db)));
  notifier.notify();
}
