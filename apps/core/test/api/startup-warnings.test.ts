import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cliArgs } from '../support/processes.js';

/**
 * What a started process says about a configuration that is valid but will fail its sends. The
 * database is unreachable here, so the process prints what it prints at its start and exits.
 */
async function startOutput(command: string, env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, [...cliArgs(), command], {
    env: {
      ...process.env,
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/unreachable',
      LOYALTY_MASTER_KEY: randomBytes(32).toString('base64'),
      LOYALTY_EMAIL_TRANSPORT: '',
      LOYALTY_SMTP_URL: '',
      PORT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await new Promise((resolve) => child.once('exit', resolve));
  return out;
}

const SMTP_WARNING = 'Warning: LOYALTY_EMAIL_TRANSPORT is smtp and LOYALTY_SMTP_URL is not set';

describe('a sending process started without an SMTP server for smtp e-mail', () => {
  it('warns, from serve and from worker', async () => {
    for (const command of ['serve', 'worker']) expect(await startOutput(command, {}), command).toContain(SMTP_WARNING);
  }, 60_000);

  it('says nothing when an SMTP server or another transport is set', async () => {
    expect(await startOutput('worker', { LOYALTY_SMTP_URL: 'smtp://127.0.0.1:2525' })).not.toContain('Warning:');
    expect(await startOutput('worker', { LOYALTY_EMAIL_TRANSPORT: 'file' })).not.toContain('Warning:');
  }, 60_000);
});
