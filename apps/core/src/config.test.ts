import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('loadConfig', () => {
  it('refuses durations a timer or a timestamp cannot hold, naming the variable', () => {
    expect(() => loadConfig({ LOYALTY_LATE_LOG_GRACE_SECONDS: '10000000000000' })).toThrow(
      /LOYALTY_LATE_LOG_GRACE_SECONDS must be an integer >= 0 and <= 315360000/,
    );
    expect(() => loadConfig({ LOYALTY_SCHEDULER_INTERVAL_MS: '3000000000' })).toThrow(
      /LOYALTY_SCHEDULER_INTERVAL_MS must be an integer >= 1 and <= 2147483647/,
    );
    expect(loadConfig({ LOYALTY_LATE_LOG_GRACE_SECONDS: '315360000' }).lateLogGraceSeconds).toBe(315_360_000);
  });

  it("refuses a sweep expiry the job queue refuses (24 hours or more) at start, not in the queue's stack trace", () => {
    expect(() => loadConfig({ LOYALTY_SWEEP_EXPIRY_SECONDS: '86400' })).toThrow(
      /LOYALTY_SWEEP_EXPIRY_SECONDS must be an integer >= 1 and <= 86399/,
    );
    expect(loadConfig({ LOYALTY_SWEEP_EXPIRY_SECONDS: '86399' }).sweepExpirySeconds).toBe(86_399);
  });

  it('reads the webhook retry schedule strictly: a blank or fractional entry is refused, an empty schedule is no retries', () => {
    for (const schedule of ['5,,3', '5, ,3', '5,', '1.5', '-1', 'abc', '315360001'])
      expect(() => loadConfig({ LOYALTY_WEBHOOK_RETRY_SCHEDULE: schedule }), schedule).toThrow(/LOYALTY_WEBHOOK_RETRY_SCHEDULE must be/);
    expect(loadConfig({ LOYALTY_WEBHOOK_RETRY_SCHEDULE: ' 5, 300 ' }).webhookRetrySchedule).toEqual([5, 300]);
    expect(loadConfig({ LOYALTY_WEBHOOK_RETRY_SCHEDULE: '' }).webhookRetrySchedule).toEqual([]);
    expect(loadConfig({}).webhookRetrySchedule).toHaveLength(9);
  });

  it('refuses a port no socket takes', () => {
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT must be an integer >= 0 and <= 65535/);
    expect(() => loadConfig({ LOYALTY_WORKER_METRICS_PORT: '65536' })).toThrow(/LOYALTY_WORKER_METRICS_PORT must be/);
  });

  it('names a malformed URL without the password in it', () => {
    const refused = () => loadConfig({ DATABASE_URL: 'postgres://admin:Sup3rS3cret@db.example:54x32/loyalty' });
    expect(refused).toThrow(/DATABASE_URL must be a URL, got "postgres:\/\/\[credentials\]@db.example:54x32\/loyalty"/);
    expect(refused).not.toThrow(/Sup3rS3cret/);
  });
});

describe('configuration once, at boot', () => {
  /** The modules of src/ (tests aside) that read `process.env`, found on their syntax trees. */
  function readersOfEnv(): string[] {
    const root = fileURLToPath(new URL('.', import.meta.url));
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    return files.filter((file) => {
      const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest);
      const reads = (node: ts.Node): boolean =>
        (ts.isPropertyAccessExpression(node) &&
          ts.isIdentifier(node.expression) &&
          node.expression.text === 'process' &&
          node.name.text === 'env') ||
        (ts.forEachChild(node, reads) ?? false);
      return reads(source);
    });
  }

  it('reads the environment in config.ts only: every other module takes the typed configuration', () => {
    expect(readersOfEnv()).toEqual(['config.ts']);
  });

  it('tells tracing whether the standard sampler variable names a sampler', () => {
    expect(loadConfig({}).otelSamplerNamed).toBe(false);
    expect(loadConfig({ OTEL_TRACES_SAMPLER: 'always_on' }).otelSamplerNamed).toBe(true);
  });
});
