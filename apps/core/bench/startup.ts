import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { createDb } from '../src/db/knex.js';
import { migrateLatest } from '../src/db/migrate.js';
import { cpuTimes, elapsedSeconds, formatTable, median, openBenchDatabase, startServiceProcess } from './lib.js';

/**
 * bench:startup — how long the service binary takes from its spawn to answering (`loyalty serve`
 * printing "listening on"), and the CPU it spends getting there, against a bare `node:http` process
 * doing nothing but listen: the floor of any Node service. A process started for a deploy, a
 * scale-out or after a crash serves no one meanwhile. The two alternate, ten starts each, on one
 * migrated database.
 */
const STARTS = Number(process.env.BENCH_STARTS ?? 10);
const BARE = `require('node:http').createServer((q, s) => s.end()).listen(0, '127.0.0.1', function () { console.log('listening on http://127.0.0.1:' + this.address().port); });`;

interface Start {
  seconds: number;
  cpuMs: number;
}

/** The CPU a process has used so far, in ms (its /proc times); 0 where /proc is missing. */
const cpuOf = (pid: number) => cpuTimes(pid)?.service ?? 0;

async function startBare(): Promise<Start> {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, ['-e', BARE], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('listening') && resolve()));
  const start = { seconds: elapsedSeconds(started), cpuMs: cpuOf(child.pid!) };
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  return start;
}

async function startService(env: Record<string, string>): Promise<Start> {
  const started = process.hrtime.bigint();
  const service = await startServiceProcess(env, ['serve']);
  const start = { seconds: elapsedSeconds(started), cpuMs: cpuOf(service.pid) };
  await service.stop();
  return start;
}

const database = await openBenchDatabase();
try {
  const env = { DATABASE_URL: database.url, LOYALTY_MASTER_KEY: randomBytes(32).toString('base64') };
  const db = createDb(database.url, 1);
  await migrateLatest(db).finally(() => db.destroy());
  // One of each first, unmeasured: the file system's cache then holds both as a restart finds them.
  await startBare();
  await startService(env);
  const load = { start: loadavg()[0]!, end: 0 };
  const bare: Start[] = [];
  const service: Start[] = [];
  for (let i = 0; i < STARTS; i++) {
    bare.push(await startBare());
    service.push(await startService(env));
  }
  load.end = loadavg()[0]!;
  const row = (name: string, starts: Start[]) => [
    name,
    (median(starts.map((s) => s.seconds)) * 1000).toFixed(0),
    (Math.max(...starts.map((s) => s.seconds)) * 1000).toFixed(0),
    median(starts.map((s) => s.cpuMs)).toFixed(0),
  ];
  console.log(
    `bench:startup, ${STARTS} starts each, alternating (${database.description}); 1-minute load average ${load.start.toFixed(2)} → ${load.end.toFixed(2)}`,
  );
  console.log(
    formatTable(
      ['process', 'to listening, median ms', 'max ms', 'CPU ms, median'],
      [row('loyalty serve', service), row('bare node:http', bare)],
    ),
  );
  const ratio = median(service.map((s) => s.seconds)) / median(bare.map((s) => s.seconds));
  console.log(`loyalty serve / bare node:http, time to listening: ${ratio.toFixed(1)}×`);
} finally {
  await database.close();
}
