import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliArgs } from '../support/processes.js';

let blocker: Server;
let port: number;
let dataDir: string;

beforeAll(async () => {
  blocker = createServer();
  await new Promise<void>((ok) => blocker.listen(0, '127.0.0.1', ok));
  port = (blocker.address() as { port: number }).port;
  dataDir = await mkdtemp(join(tmpdir(), 'loyalty-cli-'));
  // The embedded server may run as another user (when run as root); it must reach its folder.
  await chmod(dataDir, 0o755);
});

afterAll(async () => {
  await new Promise<void>((ok) => blocker.close(() => ok()));
  await rm(dataDir, { recursive: true, force: true });
});

describe('loyalty serve', () => {
  it('that cannot listen says why, exits 1 and stops the embedded PostgreSQL it started', async () => {
    const { DATABASE_URL: _external, ...env } = process.env;
    const child = spawn(process.execPath, [...cliArgs(), 'serve', '--no-workers'], {
      env: { ...env, HOST: '127.0.0.1', PORT: String(port), LOYALTY_DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain(`port ${port} on 127.0.0.1 is in use`);
    // The server had started (it initialised its cluster) and was shut down cleanly: no pid file.
    expect(existsSync(join(dataDir, 'pg', 'PG_VERSION'))).toBe(true);
    expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  }, 120_000);
});
