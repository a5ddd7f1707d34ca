// Runs Shopify's theme check with the theme-app-extension configuration over extensions/loyalty-theme;
// any offense fails. The Liquid docs come from the package's bundled copy when offline.
import { fileURLToPath } from 'node:url';
import { themeCheckRun } from '@shopify/theme-check-node';

const root = fileURLToPath(new URL('../../../extensions/loyalty-theme', import.meta.url));
const { offenses } = await themeCheckRun(root, `${root}/.theme-check.yml`, () => {});
for (const o of offenses) {
  console.error(`${o.uri.replace(/^file:\/\//, '')}:${o.start.line + 1}: [${o.check}] ${o.message}`);
}
if (offenses.length) process.exit(1);
console.log(`theme-check: ${root} passes (theme-app-extension config)`);
