interface Bucket {
  tokens: number;
  updatedAt: number;
}

export interface TakeResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  retryAfterSeconds: number;
}

/**
 * Token buckets per caller: `rate` tokens a second, bursting to twice that (CONTRACT §12).
 * Counted per process. rate-limiter-flexible offers fixed windows only, and the contract asks
 * for a bucket, which is a few lines.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  // From the injected clock: with Date.now() a test clock behind real time would never sweep.
  private lastSweep: number;

  constructor(private readonly now: () => number = Date.now) {
    this.lastSweep = now();
  }

  take(key: string, rate: number): TakeResult {
    const now = this.now();
    const capacity = rate * 2;
    const bucket = this.buckets.get(key) ?? { tokens: capacity, updatedAt: now };
    bucket.tokens = Math.min(capacity, bucket.tokens + ((now - bucket.updatedAt) / 1000) * rate);
    bucket.updatedAt = now;
    this.buckets.set(key, bucket);
    this.sweep(now);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true, limit: rate, remaining: Math.floor(bucket.tokens), retryAfterSeconds: 0 };
    }
    return { allowed: false, limit: rate, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / rate)) };
  }

  /** Forgets buckets that have refilled, so memory follows active callers only. */
  private sweep(now: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [key, b] of this.buckets) if (now - b.updatedAt > 60_000) this.buckets.delete(key);
  }
}
