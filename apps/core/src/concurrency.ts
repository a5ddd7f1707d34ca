/**
 * Admits at most `limit` tasks per key at once; the others wait their turn, first come first
 * served. Keys without work are forgotten, so memory follows the keys that are busy now. Once
 * closed, the tasks still waiting and any new ones are refused (they have done nothing), and the
 * running ones finish.
 */
export class KeyedGate {
  private readonly lanes = new Map<string, { running: number; waiting: { admit(): void; refuse(err: Error): void }[] }>();
  private refusal: (() => Error) | undefined;

  constructor(readonly limit: number) {}

  /** Runs `work` in its turn; a task whose `signal` aborts while it waits leaves the line, refused with the signal's reason. */
  async run<T>(key: string, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (this.refusal) throw this.refusal();
    signal?.throwIfAborted();
    const lane = this.lanes.get(key) ?? { running: 0, waiting: [] };
    this.lanes.set(key, lane);
    if (lane.running < this.limit) lane.running += 1;
    else await waitInLine(lane.waiting, (admit, refuse) => ({ admit, refuse }), signal);
    try {
      return await work();
    } finally {
      // The finished task's place goes to the next in line, or is given up.
      const next = lane.waiting.shift();
      if (next) next.admit();
      else if (--lane.running === 0) this.lanes.delete(key);
    }
  }

  /** Refuses, with what `refusal` makes, the tasks waiting now and every task asked for from now on. */
  close(refusal: () => Error): void {
    this.refusal = refusal;
    for (const lane of this.lanes.values()) for (const waiter of lane.waiting.splice(0)) waiter.refuse(refusal());
  }

  /** Tasks of `key` running and waiting now. */
  load(key: string): { running: number; waiting: number } {
    const lane = this.lanes.get(key);
    return { running: lane?.running ?? 0, waiting: lane?.waiting.length ?? 0 };
  }
}

/**
 * Bytes held per key and in all, each under a ceiling: what requests' bodies hold in memory from
 * before they are received until they are answered. What would pass a ceiling waits its turn,
 * unread (the sender's socket fills and it stops sending), first come first served per key; a key
 * holding nothing always takes one request's worth, so the largest body a route takes passes alone
 * and one caller's line never holds up another's first request.
 */
export class ByteBudget {
  private readonly held = new Map<string, number>();
  private total = 0;
  private readonly waiting: { key: string; bytes: number; admit(): void }[] = [];

  constructor(
    readonly perKey: number,
    readonly overall: number,
  ) {}

  /** Takes `bytes` for `key` once they fit; a task whose `signal` aborts while it waits leaves the line, refused with the reason. */
  async take(key: string, bytes: number, signal?: AbortSignal): Promise<void> {
    if (bytes === 0) return;
    signal?.throwIfAborted();
    if (!this.waiting.some((w) => w.key === key) && this.fits(key, bytes)) return this.hold(key, bytes);
    // A line the leaver headed may move on.
    await waitInLine(
      this.waiting,
      (admit) => ({ key, bytes, admit }),
      signal,
      () => this.admitWaiting(),
    );
  }

  give(key: string, bytes: number): void {
    if (bytes === 0) return;
    const left = (this.held.get(key) ?? 0) - bytes;
    if (left > 0) this.held.set(key, left);
    else this.held.delete(key);
    this.total -= bytes;
    this.admitWaiting();
  }

  /** Bytes `key` holds now, and how many of its bodies wait. */
  load(key: string): { held: number; waiting: number } {
    return { held: this.held.get(key) ?? 0, waiting: this.waiting.filter((w) => w.key === key).length };
  }

  private fits(key: string, bytes: number): boolean {
    const mine = this.held.get(key) ?? 0;
    return mine === 0 || (mine + bytes <= this.perKey && this.total + bytes <= this.overall);
  }

  private hold(key: string, bytes: number): void {
    this.held.set(key, (this.held.get(key) ?? 0) + bytes);
    this.total += bytes;
  }

  /** Admits, in order, each waiting body that fits now and has no earlier one of its key still waiting. */
  private admitWaiting(): void {
    const blocked = new Set<string>();
    for (let i = 0; i < this.waiting.length;) {
      const w = this.waiting[i]!;
      if (blocked.has(w.key) || !this.fits(w.key, w.bytes)) {
        blocked.add(w.key);
        i += 1;
      } else {
        this.waiting.splice(i, 1);
        this.hold(w.key, w.bytes);
        w.admit();
      }
    }
  }
}

/**
 * Waits in `line` until the waiter `make` builds is admitted. A `signal` that aborts meanwhile takes
 * it out of the line (if it is still there) and rejects with the signal's reason, then `left` runs.
 */
function waitInLine<W extends { admit(): void }>(
  line: W[],
  make: (admit: () => void, refuse: (reason: unknown) => void) => W,
  signal?: AbortSignal,
  left?: () => void,
): Promise<void> {
  return new Promise<void>((admit, refuse) => {
    const leave = () => {
      const at = line.indexOf(waiter);
      if (at >= 0) line.splice(at, 1);
      refuse(signal!.reason);
      left?.();
    };
    const waiter = make(() => {
      signal?.removeEventListener('abort', leave);
      admit();
    }, refuse);
    line.push(waiter);
    signal?.addEventListener('abort', leave, { once: true });
  });
}

/** Time kept at the end of a lease for recording the attempt made under it. */
const RECORD_MARGIN_MS = 1_000;

/** Whether an attempt of up to `attemptMs` started at `now` could outlast its lease, with time to record it. */
export const outlastsLease = (leaseUntil: Date | null, now: Date, attemptMs: number): boolean =>
  !!leaseUntil && now.getTime() + attemptMs + RECORD_MARGIN_MS > leaseUntil.getTime();

/**
 * How far short of its time-out a run ended by it may measure: Node's timers count whole
 * milliseconds of the event loop's clock, so a 1,500 ms time-out can fire 1,499.4 ms after its run
 * began by `performance.now()`, and was then taken for a quick run (which gives its account a lane back).
 */
const TIMER_GRAIN_MS = 2;

/** What a worker may still lease: in all, and per account, less what it holds. */
export interface Room {
  free: number;
  /** Held per account at most, in flight and waiting: what a claim tops each account up to. */
  cap: number;
  busy: Record<string, number>;
}

/** How `FairLanes` runs its items, and what it does with those it gives up. */
export interface LaneWork<T> {
  /** In flight at once at most, in all and per account (an account's own lanes shrink while its runs hang, see `slowMs`). */
  width: number;
  accountCap: number;
  /**
   * A run that lasts this long has met its time-out: its far end hangs. Each such run halves its
   * account's lanes (down to one), each quicker run gives one back, so hanging accounts soon hold a
   * lane each, not their whole share, and a recovered one is back to its share within a few rounds.
   */
  slowMs: number;
  /** The clock runs are timed by, in ms (tests set it). */
  clock?: () => number;
  /** Held at most (in flight or waiting), in all and per account. */
  heldMax: number;
  accountHeldMax: number;
  /** Runs an item to its end; it never rejects (its failure is its own outcome, recorded by it). */
  run(item: T): Promise<void>;
  /** An item whose lease could run out before its run ends: it is handed back instead of run. */
  late(item: T): boolean;
  handBack(item: T): void;
  /** An account, or the whole, came down to half of what it may hold: a claim may take a worthwhile batch more. */
  onFreed?: () => void;
}

/**
 * Items leased to a worker, per account: each account's wait in a queue of their own and start as
 * its lanes free, the accounts in turn. An account whose work hangs holds its own lanes until its
 * time-outs, then one (`slowMs`), never all of them, and the other accounts' items go out beside it.
 */
export class FairLanes<T> {
  private running = 0;
  private held = 0;
  private readonly accounts = new Map<string, { running: number; waiting: T[] }>();
  private readonly inFlight = new Set<Promise<void>>();
  /** Lanes of the accounts whose runs hung lately, where fewer than `accountCap`; kept while they are idle, so a backlog that comes back starts from there. */
  private readonly shrunk = new Map<string, number>();
  private readonly clock: () => number;

  constructor(private readonly work: LaneWork<T>) {
    this.clock = work.clock ?? (() => performance.now());
  }

  /** How many more items may be taken. */
  get free(): number {
    return this.work.heldMax - this.held;
  }

  room(): Room {
    const busy: Record<string, number> = {};
    // An account with fewer lanes may hold as much less; the claim reads the difference as held.
    for (const [id, lanes] of this.accounts)
      busy[id] = lanes.running + lanes.waiting.length + this.work.accountHeldMax - this.heldMaxOf(id);
    return { free: this.free, cap: this.work.accountHeldMax, busy };
  }

  /** Queues an item of an account; `pump` starts what has a lane. */
  add(accountId: string, item: T): void {
    this.lanesOf(accountId).waiting.push(item);
    this.held += 1;
  }

  /** Hands back waiting items that have become late. */
  handBackLate(): void {
    for (const [id, lanes] of this.accounts) {
      const keep: T[] = [];
      for (const item of lanes.waiting) {
        if (this.work.late(item)) this.handBack(item);
        else keep.push(item);
      }
      lanes.waiting = keep;
      this.forgetIdle(id, lanes);
    }
  }

  /** Waits until every item taken has been run or handed back. */
  async settled(): Promise<void> {
    while (this.inFlight.size) await Promise.all(this.inFlight);
  }

  /** Hands back what still waits for a lane, then settles what runs: a stopping worker starts nothing more. */
  async drain(): Promise<void> {
    for (const [id, lanes] of this.accounts) {
      for (const item of lanes.waiting) this.handBack(item);
      lanes.waiting = [];
      this.forgetIdle(id, lanes);
    }
    await this.settled();
  }

  /** Starts waiting items while there are lanes: one per account in turn, each account's oldest first. */
  pump(): void {
    let started = true;
    while (started && this.running < this.work.width) {
      started = false;
      for (const [id, lanes] of this.accounts) {
        if (this.running >= this.work.width) break;
        if (lanes.running >= this.lanesOfAccount(id) || !lanes.waiting.length) continue;
        const next = lanes.waiting.shift()!;
        started = true;
        if (this.work.late(next)) {
          this.handBack(next);
          this.forgetIdle(id, lanes);
        } else this.launch(id, lanes, next);
      }
    }
  }

  private lanesOfAccount(accountId: string): number {
    return this.shrunk.get(accountId) ?? this.work.accountCap;
  }

  private heldMaxOf(accountId: string): number {
    return Math.ceil((this.work.accountHeldMax * this.lanesOfAccount(accountId)) / this.work.accountCap);
  }

  private pace(accountId: string, hung: boolean): void {
    const lanes = this.lanesOfAccount(accountId);
    const next = hung ? Math.max(1, lanes >> 1) : lanes + 1;
    if (next >= this.work.accountCap) this.shrunk.delete(accountId);
    else this.shrunk.set(accountId, next);
  }

  private lanesOf(accountId: string) {
    let lanes = this.accounts.get(accountId);
    if (!lanes) this.accounts.set(accountId, (lanes = { running: 0, waiting: [] }));
    return lanes;
  }

  private forgetIdle(accountId: string, lanes: { running: number; waiting: T[] }): void {
    if (!lanes.running && !lanes.waiting.length) this.accounts.delete(accountId);
  }

  private handBack(item: T): void {
    this.held -= 1;
    this.work.handBack(item);
  }

  private launch(accountId: string, lanes: { running: number; waiting: T[] }, item: T): void {
    this.running += 1;
    lanes.running += 1;
    const started = this.clock();
    const task: Promise<void> = this.work.run(item).finally(() => {
      this.running -= 1;
      lanes.running -= 1;
      this.held -= 1;
      this.inFlight.delete(task);
      this.pace(accountId, this.clock() - started >= this.work.slowMs - TIMER_GRAIN_MS);
      this.forgetIdle(accountId, lanes);
      this.pump();
      if (lanes.running + lanes.waiting.length === this.heldMaxOf(accountId) >> 1 || this.held === this.work.heldMax >> 1)
        this.work.onFreed?.();
    });
    this.inFlight.add(task);
  }
}
