import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Histogram } from 'prom-client';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/knex.js';
import { Metrics } from '../../src/observability/metrics.js';

/**
 * docs/operations: the alert rules pass Prometheus's own checks and unit tests (promtool, which
 * scripts/ensure-promtool.sh installs), the dashboard's queries parse, and both name only metrics
 * the service exposes.
 */
const run = promisify(execFile);
const docs = fileURLToPath(new URL('../../../../docs/operations/', import.meta.url));
const alerts = readFileSync(join(docs, 'alerts.yml'), 'utf8');
const dashboard = JSON.parse(readFileSync(join(docs, 'dashboard.json'), 'utf8')) as {
  panels: { title: string; targets?: { expr: string }[] }[];
};
const queries = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })));
const scratch = mkdtempSync(join(tmpdir(), 'loyalty-ops-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Every series name the service can expose: the API's registry plus the workers' queue gauge. */
async function exposedNames(): Promise<Set<string>> {
  const db = createDb('postgres://unused@127.0.0.1:1/unused');
  try {
    const metrics = new Metrics(db);
    metrics.watchQueues({ getQueueSize: async () => 0 }, ['q']);
    const names = new Set<string>();
    for (const metric of metrics.registry.getMetricsAsArray()) {
      const name = (metric as unknown as { name: string }).name;
      names.add(name);
      if (metric instanceof Histogram) for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${name}${suffix}`);
    }
    return names;
  } finally {
    await db.destroy();
  }
}

/** Metric names in a PromQL expression: identifiers followed by a selector, range or aggregation end. */
const namesIn = (expr: string) => [...expr.matchAll(/\b((?:loyalty|process|nodejs)_[a-z0-9_]+)\b/g)].map((m) => m[1]!);

describe('docs/operations', () => {
  it('alerts.yml passes promtool check rules', async () => {
    const { stdout } = await run('promtool', ['check', 'rules', join(docs, 'alerts.yml')]);
    expect(stdout).toContain('SUCCESS: 9 rules found');
  });

  it('each alert fires on its case and not on the healthy one (promtool test rules alerts.test.yml)', async () => {
    const { stdout } = await run('promtool', ['test', 'rules', join(docs, 'alerts.test.yml')]);
    expect(stdout).toContain('SUCCESS');
  });

  it("the dashboard's queries parse as PromQL", async () => {
    expect(queries.length).toBeGreaterThanOrEqual(20);
    // promtool parses expressions in rule files: each query becomes a recording rule.
    const rules = queries.map(
      (q, i) => `      - record: dashboard:query_${i}\n        expr: ${JSON.stringify(q.expr.replaceAll('$__rate_interval', '5m'))}`,
    );
    const file = join(scratch, 'dashboard-queries.yml');
    writeFileSync(file, `groups:\n  - name: dashboard\n    rules:\n${rules.join('\n')}\n`);
    const { stdout } = await run('promtool', ['check', 'rules', file]);
    expect(stdout).toContain(`SUCCESS: ${queries.length} rules found`);
  });

  it('alerts and dashboard name only metrics the service exposes', async () => {
    const exposed = await exposedNames();
    const used = new Set([...namesIn(alerts), ...queries.flatMap((q) => namesIn(q.expr))]);
    expect(used.size).toBeGreaterThanOrEqual(15);
    expect([...used].filter((name) => !exposed.has(name))).toEqual([]);
  });
});
