// Compiles a UI extension as Shopify CLI does (esbuild, one minified module, Preact's JSX, the CLI's
// es6 target) into its dist/, fails when the bundle is over Shopify's limit, and leaves the sizes
// in dist/size.json for the benchmark report. Shopify limits a UI extension's JavaScript on API
// 2025-10 and later to 64 KB compressed, a full-page customer account extension to 128 KB
// (shopify.dev, "Optimize bundle size"); gzip at its highest level stands in for its compression.
// Each extension package passes its own esbuild, which this file outside any package could not resolve.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const LIMIT_BYTES = 64 * 1024;
export const FULL_PAGE_LIMIT_BYTES = 128 * 1024;

/** Builds `entry` (relative to the package at `packageUrl`) into dist/`out`; exits 1 when its compressed size is over `limit`. */
export async function buildExtension(esbuild, packageUrl, entry, out, limit = LIMIT_BYTES) {
  const root = fileURLToPath(packageUrl);
  const outfile = `${root}dist/${out}`;
  await esbuild.build({
    entryPoints: [`${root}${entry}`],
    outfile,
    bundle: true,
    minify: true,
    format: 'esm',
    // The CLI's own target: a newer one writes shorter code and would under-state what Shopify measures.
    target: 'es6',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
  const bytes = statSync(outfile).size;
  const gzipped = gzipSync(readFileSync(outfile), { level: 9 }).length;
  writeFileSync(`${root}dist/size.json`, JSON.stringify({ bytes, gzipped, limit, esbuild: esbuild.version, at: new Date().toISOString() }));
  console.log(
    `extension build: dist/${out} ${bytes} B minified, ${gzipped} B compressed, limit ${limit} B compressed ${gzipped > limit ? 'OVER' : 'ok'}`,
  );
  if (gzipped > limit) process.exit(1);
}
