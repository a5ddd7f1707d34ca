// Compiles the extension as Shopify CLI does (esbuild, one minified ES module, Preact's JSX) into
// dist/rewards.js, fails when it is over Shopify's 64 KB limit for UI extension bundles, and leaves
// the sizes in dist/size.json for the benchmark report.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, version } from 'esbuild';

const LIMIT_BYTES = 64 * 1024;
const root = fileURLToPath(new URL('..', import.meta.url));
const outfile = `${root}dist/rewards.js`;

await build({
  entryPoints: [`${root}src/Rewards.tsx`],
  outfile,
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2020',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
});

const bytes = statSync(outfile).size;
const gzipped = gzipSync(readFileSync(outfile), { level: 9 }).length;
writeFileSync(
  `${root}dist/size.json`,
  JSON.stringify({ bytes, gzipped, limit: LIMIT_BYTES, esbuild: version, at: new Date().toISOString() }),
);
console.log(
  `extension build: dist/rewards.js ${bytes} B minified (${gzipped} B gzipped), limit ${LIMIT_BYTES} B ${bytes > LIMIT_BYTES ? 'OVER' : 'ok'}`,
);
if (bytes > LIMIT_BYTES) process.exit(1);
