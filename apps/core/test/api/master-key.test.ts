import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { cliArgs } from '../support/processes.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
  // An account seals its API key's secret with the master key.
  await app.createAccount();
});
afterAll(() => app?.close());

/** `serve` on the test's database under a master key: its exit code and output, or 'listening' once it listened (then stopped). */
async function serveWith(masterKey: Buffer): Promise<{ outcome: number | null | 'listening'; out: string }> {
  const child = spawn(process.execPath, [...cliArgs(), 'serve', '--no-workers'], {
    env: {
      ...process.env,
      DATABASE_URL: app.config.databaseUrl,
      LOYALTY_MASTER_KEY: masterKey.toString('base64'),
      LOYALTY_EMAIL_TRANSPORT: 'file',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'silent',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const listening = new Promise<'listening'>((resolve) => {
    const read = (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Loyalty service listening')) resolve('listening');
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
  });
  const outcome = await Promise.race([exited, listening]);
  if (outcome === 'listening') {
    child.kill('SIGTERM');
    await exited;
  }
  return { outcome, out };
}

describe('a process started under another master key than the one its database was sealed with', () => {
  it('refuses to start, says which setting, and never prints a key; under the right key it serves', async () => {
    const other = randomBytes(32);
    const refused = await serveWith(other);
    expect(refused.outcome).toBe(1);
    expect(refused.out).toContain('LOYALTY_MASTER_KEY does not open the secrets this database holds');
    expect(refused.out).not.toContain(other.toString('base64'));
    expect(refused.out).not.toContain(app.config.masterKey!.toString('base64'));

    expect((await serveWith(app.config.masterKey!)).outcome).toBe('listening');
  }, 60_000);
});
