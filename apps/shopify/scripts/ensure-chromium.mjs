// The admin browser tests drive Debian's chromium-headless-shell, bench:admin its chromium
// (`ensure-chromium.mjs chromium`), through playwright-core. The repository's
// scripts/ensure-chromium.sh installs the package when it may; without that script, say what is missing.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const shared = fileURLToPath(new URL('../../../scripts/ensure-chromium.sh', import.meta.url));
const packageName = process.argv[2] ?? 'chromium-headless-shell';
if (existsSync(shared)) execFileSync('sh', [shared, packageName], { stdio: 'inherit' });
else if (!existsSync(`/usr/bin/${packageName}`)) {
  console.error(`ensure-chromium: this needs /usr/bin/${packageName} (apt-get install ${packageName}).`);
  process.exit(1);
}
