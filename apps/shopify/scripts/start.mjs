// `pnpm start`: the app as one machine runs it. package.json's `migrate` first, then its two roles
// side by side, `start:web` (the Remix server) and `start:worker` (the Flow and discount worker).
// When either role stops, the other is stopped and this exits with its code, so whatever supervises
// `start` restarts the pair; SIGTERM and SIGINT are passed on to both. With `--dev` the web role is
// `dev:web`, Vite's dev server (shopify.web.toml, for `shopify app dev`).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const appDir = fileURLToPath(new URL('../', import.meta.url));
const { scripts } = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8'));
const env = { ...process.env, PATH: [join(appDir, 'node_modules', '.bin'), process.env.PATH].join(delimiter) };

/** One of package.json's scripts (a plain command line) as a child sharing this process's output, with its exit code. */
function run(name) {
  const [command, ...args] = scripts[name].split(' ');
  const child = spawn(command === 'node' ? process.execPath : command, args, { cwd: appDir, env, stdio: 'inherit' });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
  return { child, exited };
}

const migrated = await run('migrate').exited;
if (migrated !== 0) process.exit(migrated);

const roles = [run(process.argv.includes('--dev') ? 'dev:web' : 'start:web'), run('start:worker')];
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => roles.forEach((role) => role.child.kill(signal)));
const code = await Promise.race(roles.map((role) => role.exited));
roles.forEach((role) => role.child.kill('SIGTERM'));
await Promise.all(roles.map((role) => role.exited));
process.exit(code);
