import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { cpuTimes, formatTable, median, openBenchDatabase } from '../../core/bench/lib.js';
import { appConfig } from '../test/support/stack';

/**
 * bench:startup — the app's web role (`start:web`: scripts/serve.mjs on the production build) from
 * its spawn to "[serve]", and the CPU it spends until then, against a bare `node:http` process that
 * only listens. A web process started for a deploy or after a crash answers no merchant meanwhile.
 * The two alternate, ten starts each, on one migrated database.
 */
const STARTS = Number(process.env.BENCH_STARTS ?? 10);
const APP_DIR = fileURLToPath(new URL('../', import.meta.url));
const BARE = `require('node:http').createServer((q, s) => s.end()).listen(0, '127.0.0.1', () => console.log('[serve]'));`;

interface Start {
  ms: number;
  cpuMs: number;
}

/** Spawns node with `args` in the app's folder, until it prints "[serve]"; then stops it. */
async function timeStart(args: string[], env: Record<string, string>): Promise<Start> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: APP_DIR, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('[serve]')) resolve();
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', () => reject(new Error(`exited before it listened:\n${output}`)));
  });
  const start = { ms: performance.now() - started, cpuMs: cpuTimes(child.pid!)?.service ?? 0 };
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  return start;
}

const database = await openBenchDatabase();
try {
  const env: Record<string, string> = {
    ...appConfig({ databaseUrl: database.url, coreUrl: 'http://127.0.0.1:9', platformToken: 'bench-platform-token-0123456789' }),
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: '0',
  };
  const migrated = spawn(process.execPath, ['build/commands/migrate.js'], {
    cwd: APP_DIR,
    env: { ...process.env, ...env },
    stdio: 'inherit',
  });
  // After a failed migration the starts would be timed against a database the app cannot use.
  const migrateCode = await new Promise((resolve) => migrated.once('exit', resolve));
  if (migrateCode !== 0) throw new Error(`migrate exited with ${String(migrateCode)}`);
  const web = ['scripts/serve.mjs', 'build/server/index.js'];
  const bare = ['-e', BARE];
  // One of each first, unmeasured: the file system's cache then holds both as a restart finds them.
  await timeStart(bare, {});
  await timeStart(web, env);
  const load = { start: loadavg()[0]!, end: 0 };
  const starts: Record<'web' | 'bare', Start[]> = { web: [], bare: [] };
  for (let i = 0; i < STARTS; i++) {
    starts.bare.push(await timeStart(bare, {}));
    starts.web.push(await timeStart(web, env));
  }
  load.end = loadavg()[0]!;
  const row = (name: string, of: Start[]) => [
    name,
    median(of.map((s) => s.ms)).toFixed(0),
    Math.max(...of.map((s) => s.ms)).toFixed(0),
    median(of.map((s) => s.cpuMs)).toFixed(0),
  ];
  console.log(
    `bench:startup (app), ${STARTS} starts each, alternating (${database.description}); 1-minute load average ${load.start.toFixed(2)} → ${load.end.toFixed(2)}`,
  );
  console.log(
    formatTable(
      ['process', 'to listening, median ms', 'max ms', 'CPU ms, median'],
      [row('start:web', starts.web), row('bare node:http', starts.bare)],
    ),
  );
  console.log(
    `start:web / bare node:http, time to listening: ${(median(starts.web.map((s) => s.ms)) / median(starts.bare.map((s) => s.ms))).toFixed(1)}×`,
  );
} finally {
  await database.close();
}
