import pg from 'pg';

/**
 * What a benchmark's latency tail is made of, measured beside the load: what PostgreSQL's
 * backends wait on (pg_stat_activity sampled every few milliseconds), how long the service's
 * queries waited for a pooled connection and how long its garbage collector paused it (both from
 * the service's /metrics, read before and after).
 */

export interface WaitSamples {
  /** Backend samples taken while a statement was running, waiting or not. */
  activeSamples: number;
  /** Of those, by what the backend waited on (`Lock:object`, `IO:WALSync`, …; `CPU` when on none). */
  byWait: Record<string, number>;
  /** Samples of backends idle inside a transaction: waiting for the client's next statement. */
  idleInTransactionSamples: number;
  sampleIntervalMs: number;
  sampleRounds: number;
}

/** Samples the wait events of the client backends whose application_name is `application` until stopped. */
export function sampleWaits(databaseUrl: string, application: string, intervalMs = 5): { stop(): Promise<WaitSamples> } {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'bench-wait-sampler' });
  const samples: WaitSamples = { activeSamples: 0, byWait: {}, idleInTransactionSamples: 0, sampleIntervalMs: intervalMs, sampleRounds: 0 };
  let stopped = false;
  const loop = (async () => {
    await client.connect();
    while (!stopped) {
      const { rows } = await client.query<{ state: string | null; wait: string | null }>(
        `select state, wait_event_type || ':' || wait_event as wait from pg_stat_activity
          where datname = current_database() and backend_type = 'client backend' and application_name = $1`,
        [application],
      );
      samples.sampleRounds++;
      for (const row of rows) {
        if (row.state === 'active') {
          samples.activeSamples++;
          const wait = row.wait ?? 'CPU';
          samples.byWait[wait] = (samples.byWait[wait] ?? 0) + 1;
        } else if (row.state === 'idle in transaction') samples.idleInTransactionSamples++;
      }
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
    await client.end();
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return samples;
    },
  };
}

export function mergeWaits(all: WaitSamples[]): WaitSamples {
  const merged: WaitSamples = {
    activeSamples: 0,
    byWait: {},
    idleInTransactionSamples: 0,
    sampleIntervalMs: all[0]?.sampleIntervalMs ?? 0,
    sampleRounds: 0,
  };
  for (const w of all) {
    merged.activeSamples += w.activeSamples;
    merged.idleInTransactionSamples += w.idleInTransactionSamples;
    merged.sampleRounds += w.sampleRounds;
    for (const [k, v] of Object.entries(w.byWait)) merged.byWait[k] = (merged.byWait[k] ?? 0) + v;
  }
  return merged;
}

/** What PostgreSQL wrote to its WAL (`pg_stat_wal`, cluster-wide) while one side ran, and for how many requests. */
export interface WalUsage {
  requests: number;
  records: number;
  fullPageImages: number;
  bytes: number;
  /** WAL flushes to disk: a commit waits for one, and commits that wait together share it. */
  syncs: number;
}

type WalReading = Omit<WalUsage, 'requests'>;

/** pg_stat_wal's counters now; undefined before PostgreSQL 14, which has no such view. */
export async function readWal(pool: pg.Pool): Promise<WalReading | undefined> {
  try {
    const { rows } = await pool.query<WalReading>(
      `select wal_records::float8 as records, wal_fpi::float8 as "fullPageImages", wal_bytes::float8 as bytes, wal_sync::float8 as syncs from pg_stat_wal`,
    );
    return rows[0];
  } catch {
    return undefined;
  }
}

export function walUsage(before: WalReading | undefined, after: WalReading | undefined, requests: number): WalUsage | undefined {
  if (!before || !after) return undefined;
  return {
    requests,
    records: after.records - before.records,
    fullPageImages: after.fullPageImages - before.fullPageImages,
    bytes: after.bytes - before.bytes,
    syncs: after.syncs - before.syncs,
  };
}

export function mergeWal(all: (WalUsage | undefined)[]): WalUsage | undefined {
  if (!all.length || all.some((w) => !w)) return undefined;
  const sum = (key: keyof WalUsage) => all.reduce((total, w) => total + w![key], 0);
  return {
    requests: sum('requests'),
    records: sum('records'),
    fullPageImages: sum('fullPageImages'),
    bytes: sum('bytes'),
    syncs: sum('syncs'),
  };
}

/** Prometheus text: each sample line's value by its name and labels as written. */
function parseMetrics(text: string): Map<string, number> {
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    values.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return values;
}

export async function scrape(serviceUrl: string): Promise<Map<string, number>> {
  return parseMetrics(await (await fetch(`${serviceUrl}/metrics`)).text());
}

export interface ServiceTail {
  /** Connection acquisitions by the service's pool during the window, and how many waited longer than each bound. */
  poolAcquisitions: number;
  poolWaitsOverMs: Record<string, number>;
  poolWaitTotalMs: number;
  /** Garbage-collection pauses during the window: count and total, and those of 10 ms or more. */
  gcPauses: number;
  gcTotalMs: number;
  gcPausesOver10Ms: number;
}

/** The service's pool waits and GC pauses between two scrapes. */
export function serviceTail(before: Map<string, number>, after: Map<string, number>): ServiceTail {
  const diff = (key: string) => (after.get(key) ?? 0) - (before.get(key) ?? 0);
  const sumWhere = (prefix: string, filter: (key: string) => boolean = () => true) =>
    [...after.keys()].filter((k) => k.startsWith(prefix) && filter(k)).reduce((sum, k) => sum + diff(k), 0);
  const acquisitions = diff('loyalty_db_pool_wait_seconds_count');
  const poolWaitsOverMs: Record<string, number> = {};
  for (const bound of [1, 5, 10, 25, 50]) {
    poolWaitsOverMs[bound] = acquisitions - diff(`loyalty_db_pool_wait_seconds_bucket{le="${bound / 1000}"}`);
  }
  const gcCount = sumWhere('nodejs_gc_duration_seconds_count');
  const gcUnder10 = sumWhere('nodejs_gc_duration_seconds_bucket', (k) => k.includes('le="0.01"'));
  return {
    poolAcquisitions: acquisitions,
    poolWaitsOverMs,
    poolWaitTotalMs: diff('loyalty_db_pool_wait_seconds_sum') * 1000,
    gcPauses: gcCount,
    gcTotalMs: sumWhere('nodejs_gc_duration_seconds_sum') * 1000,
    gcPausesOver10Ms: gcCount - gcUnder10,
  };
}

export function mergeServiceTails(all: ServiceTail[]): ServiceTail {
  const merged: ServiceTail = {
    poolAcquisitions: 0,
    poolWaitsOverMs: {},
    poolWaitTotalMs: 0,
    gcPauses: 0,
    gcTotalMs: 0,
    gcPausesOver10Ms: 0,
  };
  for (const t of all) {
    merged.poolAcquisitions += t.poolAcquisitions;
    merged.poolWaitTotalMs += t.poolWaitTotalMs;
    merged.gcPauses += t.gcPauses;
    merged.gcTotalMs += t.gcTotalMs;
    merged.gcPausesOver10Ms += t.gcPausesOver10Ms;
    for (const [k, v] of Object.entries(t.poolWaitsOverMs)) merged.poolWaitsOverMs[k] = (merged.poolWaitsOverMs[k] ?? 0) + v;
  }
  return merged;
}

/** The waits that took at least `minShare` of the active samples, largest first, as "x % Lock:object". */
export function topWaits(w: WaitSamples, minShare = 0.01): { wait: string; share: number }[] {
  return Object.entries(w.byWait)
    .map(([wait, n]) => ({ wait, share: w.activeSamples ? n / w.activeSamples : 0 }))
    .filter((e) => e.share >= minShare)
    .sort((a, b) => b.share - a.share);
}

/** One line for a report: what the backends waited on, pool waits, GC and the WAL written. */
export function describeTail(tail: { waits: WaitSamples; service?: ServiceTail; wal?: WalUsage; seconds: number }): string {
  const waits = topWaits(tail.waits)
    .map((e) => `${(e.share * 100).toFixed(0)} % ${e.wait === 'CPU' ? 'running (no wait)' : e.wait}`)
    .join(', ');
  const parts = [`backends while a statement ran: ${waits || 'no samples'}`];
  const s = tail.service;
  if (s && s.poolAcquisitions) {
    const pct = (n: number) => `${((n / s.poolAcquisitions) * 100).toFixed(1)} %`;
    parts.push(
      `pool: of ${s.poolAcquisitions} acquisitions ${pct(s.poolWaitsOverMs['5'] ?? 0)} waited over 5 ms and ${pct(s.poolWaitsOverMs['25'] ?? 0)} over 25 ms (mean ${(s.poolWaitTotalMs / s.poolAcquisitions).toFixed(2)} ms)`,
    );
  }
  if (s)
    parts.push(
      `GC: ${s.gcPauses} pauses, ${s.gcTotalMs.toFixed(0)} ms in all (${((s.gcTotalMs / (tail.seconds * 1000)) * 100).toFixed(1)} % of the time), ${s.gcPausesOver10Ms} of 10 ms or more`,
    );
  const wal = tail.wal;
  if (wal && wal.requests) {
    const per = (n: number) => n / wal.requests;
    parts.push(
      `WAL per request: ${per(wal.records).toFixed(1)} records, ${(per(wal.bytes) / 1024).toFixed(2)} KiB, ${per(wal.fullPageImages).toFixed(3)} full-page images; ${wal.syncs ? (wal.requests / wal.syncs).toFixed(2) : '–'} requests per WAL flush`,
    );
  }
  return parts.join('; ');
}
