// Copies the widget loader into the theme app extension's assets, so the app embed serves the
// same loader the core serves at /widget/loader.js. Without a widget build the committed copy
// stays (a fresh clone has no packages/widget/dist until the widget is built).
import { copyFileSync, existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const MAX_BYTES = 10_000;
const source = fileURLToPath(new URL('../../../packages/widget/dist/loader.js', import.meta.url));
const target = fileURLToPath(new URL('../../../extensions/loyalty-theme/assets/loyalty-loader.js', import.meta.url));

if (existsSync(source)) {
  copyFileSync(source, target);
  console.log(`copy-loader: ${source} -> ${target}`);
} else if (existsSync(target)) {
  console.log(`copy-loader: no widget build at ${source}; keeping the committed ${target}`);
} else {
  console.error(`copy-loader: neither ${source} nor ${target} exists; build packages/widget first`);
  process.exit(1);
}
const size = statSync(target).size;
if (size > MAX_BYTES) {
  console.error(`copy-loader: the loader is ${size} bytes; the theme asset must stay within ${MAX_BYTES}`);
  process.exit(1);
}
