import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { listen, type Listener } from '../db/listen.js';
import { run } from '../db/prepared.js';

export const EVENTS_CHANNEL = 'loyalty_events';

/** A sleep that a signal can cut short: workers idle until new work or the poll interval. */
export class Wakeup {
  private readonly waiters = new Set<() => void>();
  private pending = false;
  private closed = false;

  signal(): void {
    if (!this.waiters.size) this.pending = true;
    for (const wake of this.waiters) wake();
  }

  /**
   * Ends every wait, now and later (the workers stopping): a loop that was busy when a plain
   * signal came would find it taken by the others and sleep a whole poll interval.
   */
  close(): void {
    this.closed = true;
    this.signal();
  }

  wait(ms: number): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
    });
  }
}

/**
 * LISTENs for the outbox's NOTIFY so deliveries start within milliseconds of a commit; polling
 * remains the safety net, so a dropped connection only costs latency (it reconnects).
 */
export function listenForEvents(databaseUrl: string, wakeups: Wakeup[], logger: Logger): Listener {
  const signal = () => {
    for (const wakeup of wakeups) wakeup.signal();
  };
  return listen(databaseUrl, EVENTS_CHANNEL, { onNotify: signal, onConnect: signal }, logger);
}

/**
 * One coalescing sender per database handle. A NOTIFY inside the statement that writes a log's
 * events made every such commit take PostgreSQL's notify-queue lock and hold it through its WAL
 * flush, so concurrent logs committed one at a time (bench:ingest's tail). Sent after the commit
 * instead, one at a time: commits that come while a send waits to start share it, and a send
 * always starts after the commits it answers. Its commit is asynchronous: the events are durable
 * already, and a wake-up lost to a crash only costs the workers' poll interval.
 */
class CommitNotifier {
  private tail: Promise<void> = Promise.resolve();
  private waiting: Promise<void> | undefined;

  constructor(private readonly db: Knex) {}

  notify(): Promise<void> {
    if (!this.waiting) {
      this.waiting = this.tail = this.tail.then(() => {
        this.waiting = undefined;
        return this.send();
      });
    }
    return this.waiting;
  }

  private async send(): Promise<void> {
    try {
      await run(this.db, NOTIFY);
    } catch {
      // Polling delivers what a missed wake-up would have (a database restart, a pool at its end).
    }
  }
}

const NOTIFY = {
  text: `select set_config('synchronous_commit', 'off', true), pg_notify($1, '')`,
  values: [EVENTS_CHANNEL],
};
const notifiers = new WeakMap<Knex, CommitNotifier>();

/**
 * Wakes idle delivery workers after a commit that wrote events. Callers need not wait: the
 * promise settles (never rejects) once a NOTIFY sent after this call has committed.
 */
export function notifyEventsCommitted(db: Knex): Promise<void> {
  let notifier = notifiers.get(db);
  if (!notifier) notifiers.set(db, (notifier = new CommitNotifier(db)));
  return notifier.notify();
}
