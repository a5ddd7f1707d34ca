import pg from 'pg';
import { CONNECT_TIMEOUT_MS } from './pool.server';

export interface WorkLoopOptions {
  /** For the connection the loop listens on, held apart from the pool. */
  databaseUrl: string;
  /** The channel whose notifications start a pass at once. */
  channel: string;
  /** Prefixes what a failed pass logs. */
  name: string;
  /** Does one unit of due work; true when there was some (the pass goes on), false when nothing is due. */
  step(): Promise<boolean>;
  /**
   * Steps run at once in a pass (default 1). More than one needs a `step` that claims its unit
   * with SKIP LOCKED, so lanes never take the same one. Each lane holds a pooled connection: a step
   * that reads from the process's pool while it holds its unit needs its lanes on a pool of their
   * own, or lanes holding every place wait on each other.
   */
  lanes?: number;
  /**
   * Whether any unit is due, asked before a pass of several lanes: an idle poll then takes one
   * connection for a moment, rather than one per lane, which a poll each second would keep open.
   */
  anyDue?(): Promise<boolean>;
}

/**
 * How a worker role works off a table: passes of `step` until nothing is due, started by the
 * table's notifications (a committed row is sent at once) and by a poll besides (retries come due,
 * a notification may be missed). One pass at a time per loop, in `lanes` concurrent steps; a kick
 * during a pass runs another.
 */
export class WorkLoop {
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private listener: pg.Client | null = null;
  private stopped = false;

  constructor(private readonly options: WorkLoopOptions) {}

  /** Listens for the channel's notifications and polls every `intervalMs` until stopped. */
  start(intervalMs = 1000): void {
    this.timer = setInterval(() => {
      void this.listen();
      this.kick();
    }, intervalMs);
    void this.listen();
    this.kick();
  }

  /** Stops listening and polling, and waits for the pass under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.idle();
    const listener = this.listener;
    this.listener = null;
    await listener?.end().catch(() => undefined);
  }

  /** Starts a pass over due work now (or right after the current one). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          const lanes = this.options.lanes ?? 1;
          if (lanes === 1 || !this.options.anyDue || (await this.options.anyDue()))
            await Promise.all(
              Array.from({ length: lanes }, async () => {
                while (await this.options.step());
              }),
            );
        } catch (err) {
          console.error(`[${this.options.name}] pass failed: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
        }
      } while (this.again && !this.stopped);
    })().finally(() => (this.running = null));
  }

  /** Waits for the current pass. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Opens the listening connection when there is none; one that is lost is opened again at the next poll. */
  private async listen(): Promise<void> {
    if (this.listener || this.stopped) return;
    // Named, so an operator sees what listens; and a connect on a server that does not answer gives
    // up, or the loop would never listen again (it polls meanwhile).
    const client = new pg.Client({
      connectionString: this.options.databaseUrl,
      application_name: `loyalty-shopify-listen-${this.options.channel}`,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    this.listener = client;
    const drop = () => {
      if (this.listener !== client) return;
      this.listener = null;
      void client.end().catch(() => undefined);
    };
    // Without an error listener, a connection the server drops would end the process.
    client.on('error', drop);
    client.on('end', drop);
    client.on('notification', () => this.kick());
    try {
      await client.connect();
      await client.query(`listen ${this.options.channel}`);
    } catch {
      drop();
    }
  }
}
