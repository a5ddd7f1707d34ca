// Compiles a UI extension as Shopify CLI does (esbuild, one minified ES module, Preact's JSX) into
// its dist/, fails when the bundle is over Shopify's 64 KB limit for UI extension bundles, and
// leaves the sizes in dist/size.json for the benchmark report. Each extension package passes its
// own esbuild, which this file outside any package could not resolve.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const LIMIT_BYTES = 64 * 1024;

/** Builds `entry` (relative to the package at `packageUrl`) into dist/`out`; exits 1 over the limit. */
export async function buildExtension(esbuild, packageUrl, entry, out) {
  const root = fileURLToPath(packageUrl);
  const outfile = `${root}dist/${out}`;
  await esbuild.build({
    entryPoints: [`${root}${entry}`],
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
    JSON.stringify({ bytes, gzipped, limit: LIMIT_BYTES, esbuild: esbuild.version, at: new Date().toISOString() }),
  );
  console.log(
    `extension build: dist/${out} ${bytes} B minified (${gzipped} B gzipped), limit ${LIMIT_BYTES} B ${bytes > LIMIT_BYTES ? 'OVER' : 'ok'}`,
  );
  if (bytes > LIMIT_BYTES) process.exit(1);
}
