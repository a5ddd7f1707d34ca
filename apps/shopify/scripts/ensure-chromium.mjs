// The admin browser tests drive Debian's chromium-headless-shell (bench:admin its chromium) through
// playwright-core. The repository's scripts/ensure-chromium.sh installs them when it may; without
// that script, say what is missing.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const shared = fileURLToPath(new URL('../../../scripts/ensure-chromium.sh', import.meta.url));
if (existsSync(shared)) execFileSync('sh', [shared], { stdio: 'inherit' });
else if (!existsSync('/usr/bin/chromium-headless-shell') || !existsSync('/usr/bin/chromium')) {
  console.error(
    'ensure-chromium: the admin browser tests and bench:admin need /usr/bin/chromium-headless-shell and /usr/bin/chromium (apt-get install chromium chromium-headless-shell).',
  );
  process.exit(1);
}
