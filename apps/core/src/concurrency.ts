/** Runs `work` over the items with at most `width` in flight at once. */
export async function inPool<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
}

/**
 * Admits at most `limit` tasks per key at once; the others wait their turn, first come first
 * served. Keys without work are forgotten, so memory follows the keys that are busy now.
 */
export class KeyedGate {
  private readonly lanes = new Map<string, { running: number; waiting: (() => void)[] }>();

  constructor(readonly limit: number) {}

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const lane = this.lanes.get(key) ?? { running: 0, waiting: [] };
    this.lanes.set(key, lane);
    if (lane.running < this.limit) lane.running += 1;
    else await new Promise<void>((admit) => lane.waiting.push(admit));
    try {
      return await work();
    } finally {
      // The finished task's place goes to the next in line, or is given up.
      const next = lane.waiting.shift();
      if (next) next();
      else if (--lane.running === 0) this.lanes.delete(key);
    }
  }

  /** Tasks of `key` running and waiting now. */
  load(key: string): { running: number; waiting: number } {
    const lane = this.lanes.get(key);
    return { running: lane?.running ?? 0, waiting: lane?.waiting.length ?? 0 };
  }
}
