import pg from 'pg';

/*
 * The connection pool under knex, in place of knex's own (tarn). Every statement takes a
 * connection and gives it back, and tarn spends about thirty promises and a timer on each turn
 * (its pending operation, its timeout, an asynchronous validation). Here a free connection is
 * handed out with one resolved promise; a timer exists only while someone waits.
 */

/** A pooled pg client, with the marks knex's PostgreSQL client reads and writes on its connections. */
export type PooledConnection = pg.Client & {
  /** Why the connection must not be handed out again (set by knex, the transactions and the listeners here). */
  __knex__disposed?: unknown;
  /** knex names connections in its query events and debug output. */
  __knexUid?: string;
};

export interface PoolOptions {
  max: number;
  /** How long an acquisition waits for a connection before it fails. */
  acquireTimeoutMs: number;
  /** An idle connection is closed after this long, so a quiet service holds none. */
  idleTimeoutMs?: number;
}

interface Waiter {
  resolve(connection: PooledConnection): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
  since: bigint;
}

/** How long opening a connection may take before it counts as failed: the server does not answer. */
export const CONNECT_TIMEOUT_MS = 10_000;

/** Raised when no connection frees up in time: the pool is full of work that does not finish. */
export class PoolTimeoutError extends Error {
  constructor(waitedMs: number) {
    super(`No database connection became free within ${waitedMs} ms: the pool is full.`);
    this.name = 'PoolTimeoutError';
  }
}

let connections = 0;

/**
 * A pool with tarn's interface as knex uses it (`acquire().promise`, `release`, `destroy`, the
 * counts). Idle connections are kept last in, first out, so the busiest ones stay warm with
 * their prepared statements and the rest time out.
 */
export class ConnectionPool {
  readonly max: number;
  /** Told how long each acquisition waited for its connection, or failed waiting, in seconds (0 when one was free). */
  onAcquired?: (waitedSeconds: number) => void;
  private readonly idle: { connection: PooledConnection; since: number }[] = [];
  private readonly waiting: Waiter[] = [];
  /** Connections open or opening. */
  private open = 0;
  private opening = 0;
  private ended = false;
  private readonly closed = new WeakSet<PooledConnection>();
  private readonly reaper: NodeJS.Timeout;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly options: PoolOptions,
  ) {
    this.max = options.max;
    const idleTimeoutMs = options.idleTimeoutMs ?? 30_000;
    this.reaper = setInterval(() => this.closeIdleSince(Date.now() - idleTimeoutMs), Math.min(idleTimeoutMs, 1_000));
    this.reaper.unref();
  }

  acquire(): { promise: Promise<PooledConnection> } {
    return { promise: this.take() };
  }

  /** Gives a connection back: to the first waiter, to the idle ones, or closed when it is broken. */
  release(connection: PooledConnection): boolean {
    if (connection.__knex__disposed || this.ended) {
      this.close(connection);
      this.openForWaiters();
      return true;
    }
    const waiter = this.waiting.shift();
    if (waiter) {
      this.served(waiter);
      waiter.resolve(connection);
    } else {
      this.idle.push({ connection, since: Date.now() });
    }
    return true;
  }

  /** Closes the idle connections and fails the waiters; connections in use close as they come back. */
  async destroy(): Promise<void> {
    this.ended = true;
    clearInterval(this.reaper);
    for (const waiter of this.waiting.splice(0)) {
      this.served(waiter);
      waiter.reject(new Error('The database pool was closed.'));
    }
    await Promise.all(this.idle.splice(0).map(({ connection }) => this.close(connection)));
  }

  numUsed(): number {
    return this.open - this.opening - this.idle.length;
  }

  numFree(): number {
    return this.idle.length;
  }

  numPendingAcquires(): number {
    return this.waiting.length;
  }

  private take(): Promise<PooledConnection> {
    if (this.ended) return Promise.reject(new Error('The database pool was closed.'));
    const free = this.idle.pop();
    if (free) {
      this.onAcquired?.(0);
      return Promise.resolve(free.connection);
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          this.served(waiter);
          reject(new PoolTimeoutError(this.options.acquireTimeoutMs));
        }, this.options.acquireTimeoutMs),
        since: process.hrtime.bigint(),
      };
      this.waiting.push(waiter);
      this.openForWaiters();
    });
  }

  /** Opens connections while some waiter has none coming and the pool has room. */
  private openForWaiters(): void {
    while (!this.ended && this.waiting.length > this.opening && this.open < this.max) {
      this.open++;
      this.opening++;
      void this.connect().then(
        (connection) => {
          this.opening--;
          this.release(connection);
        },
        (error: Error) => {
          this.opening--;
          this.open--;
          // The waiter this connection was for hears why; the others keep waiting for a free one.
          const waiter = this.waiting.shift();
          if (waiter) {
            this.served(waiter);
            waiter.reject(error);
          }
        },
      );
    }
  }

  private async connect(): Promise<PooledConnection> {
    const connection: PooledConnection = new pg.Client(this.config);
    connection.__knexUid = `__knexUid${++connections}`;
    // Without a listener a connection's error would end the process. A broken connection is
    // marked so its holder's release closes it; an idle one leaves the pool at once.
    const broken = (reason: unknown) => {
      connection.__knex__disposed ??= reason ?? 'Connection ended unexpectedly';
      const at = this.idle.findIndex((entry) => entry.connection === connection);
      if (at >= 0) {
        this.idle.splice(at, 1);
        this.close(connection);
      }
    };
    connection.on('error', broken);
    connection.on('end', () => broken(undefined));
    try {
      await connection.connect();
    } catch (error) {
      connection.end().catch(() => undefined);
      throw error;
    }
    return connection;
  }

  /** A waiter leaves the queue: its timer stops and its wait is told. */
  private served(waiter: Waiter): void {
    clearTimeout(waiter.timer);
    this.onAcquired?.(Number(process.hrtime.bigint() - waiter.since) / 1e9);
  }

  private closeIdleSince(cutoff: number): void {
    while (this.idle.length && this.idle[0]!.since < cutoff) void this.close(this.idle.shift()!.connection);
  }

  /** Ends a connection that has left the pool (idle ones are taken off the list first), once. */
  private close(connection: PooledConnection): Promise<void> {
    if (this.closed.has(connection)) return Promise.resolve();
    this.closed.add(connection);
    connection.__knex__disposed ??= 'closed by the pool';
    this.open--;
    return connection.end().catch(() => undefined);
  }
}
