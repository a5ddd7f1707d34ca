// Builds dist/app-<hash>.js (the Preact panel app, an ES module) and dist/loader.js (framework-free,
// an IIFE that draws the launcher and knows the app's hashed name), fails when either is over its
// budget, and writes a gzipped and a brotli copy of each for the core to serve to browsers that accept them. With
// --bench it also builds bench/dist/loader-eager.js, the same loader importing and mounting the app
// at once (as before the lazy launcher), which bench:widget measures beside the real one.
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';
import { brotliBest, gzipBest } from './compress.mjs';

/** Shopify's limit for theme app extension scripts. */
const LOADER_BUDGET_BYTES = 10_000;
// 20 KB until the social follows (20.2 KB in zlib's gzip) and again once the copies were zopfli's,
// until the loyalty page and the bonus points event took the app to 20.2 KB in zopfli's (2026-12-05);
// 21 KiB until the reminder told a member what the nearest reward still takes (2026-12-06); 21.5 KiB
// until a leaderboard's values said what they count (2026-12-07).
const APP_BUDGET_GZIP_BYTES = 21.75 * 1024;

const root = fileURLToPath(new URL('..', import.meta.url));
// The same build wherever it runs: Vite makes a development build when NODE_ENV says so (a test
// runner sets it to "test"), whose app differs from the production one in content and hash.
process.env.NODE_ENV = 'production';
// Built beside dist/ and swapped in once it passes its checks: a core or test serving dist/ while
// this runs (turbo runs two tasks at once) never finds it empty, and a failed build leaves it as it was.
const dist = join(root, 'dist');
const outDir = join(root, `dist.building-${process.pid}`);
rmSync(outDir, { recursive: true, force: true });

const shared = {
  root,
  mode: 'production',
  configFile: false,
  logLevel: 'warn',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact', legalComments: 'none' },
  define: { 'process.env.NODE_ENV': '"production"' },
};
// Both builds write into one directory, emptied once above.
const output = { outDir, emptyOutDir: false, target: 'es2020', modulePreload: false };

// The interface's words in each language but English (which the app carries) are chunks of their
// own, `app-<language>-<hash>.js`: a shopper downloads one language, not nine.
const languagesDir = join(root, '../view-model/src/languages');
const languages = readdirSync(languagesDir).map((f) => f.replace(/\.ts$/, ''));
const appBuild = await build({
  ...shared,
  build: {
    ...output,
    // terser's second pass takes about 500 B gzipped more off the app than esbuild's minifier.
    minify: 'terser',
    terserOptions: { ecma: 2020, module: true, compress: { passes: 2 } },
    rollupOptions: {
      input: {
        app: join(root, 'src/app/index.tsx'),
        ...Object.fromEntries(languages.map((l) => [`app-${l}`, join(languagesDir, `${l}.ts`)])),
      },
      // An app build drops entry exports by default; the loader calls mount() and reads each language's default.
      preserveEntrySignatures: 'strict',
      output: { format: 'es', entryFileNames: '[name]-[hash].js', chunkFileNames: 'app-chunk-[hash].js' },
    },
  },
});
const entries = [appBuild].flat()[0].output.filter((o) => o.type === 'chunk' && o.isEntry);
const appFile = entries.find((o) => o.name === 'app').fileName;
const languageFiles = Object.fromEntries(
  entries.filter((o) => o.name !== 'app').map((o) => [o.name.slice('app-'.length), `./${o.fileName}`]),
);
const chunks = [appBuild].flat()[0].output.filter((o) => o.type === 'chunk' && !o.isEntry);
if (chunks.length) {
  // A chunk the languages shared with the app would be one more request before the panel opens.
  console.error(`widget build: unexpected shared chunks ${chunks.map((c) => c.fileName).join(', ')}`);
  process.exit(1);
}

// The loader names a launcher that no record names in the page's language, before the app and its words come.
const rewards = Object.fromEntries(
  await Promise.all(
    Object.entries(languageFiles).map(async ([l, f]) => [l, (await import(pathToFileURL(join(outDir, f)).href)).default.rewards]),
  ),
);

const buildLoader = (dir, eager, fileName) =>
  build({
    ...shared,
    define: {
      ...shared.define,
      __APP_FILE__: JSON.stringify(`./${appFile}`),
      __LANGUAGE_FILES__: JSON.stringify(languageFiles),
      __REWARDS__: JSON.stringify(rewards),
      __EAGER__: String(eager),
    },
    build: {
      ...output,
      outDir: dir,
      rollupOptions: {
        input: join(root, 'src/loader/index.ts'),
        output: { format: 'iife', entryFileNames: fileName },
      },
    },
  });
await buildLoader(outDir, false, 'loader.js');
if (process.argv.includes('--bench')) await buildLoader(join(root, 'bench/dist'), true, 'loader-eager.js');

const loaderBytes = statSync(join(outDir, 'loader.js')).size;
const app = readFileSync(join(outDir, appFile));
for (const file of ['loader.js', appFile, ...Object.values(languageFiles)]) {
  const bytes = readFileSync(join(outDir, file));
  writeFileSync(join(outDir, `${file}.gz`), await gzipBest(bytes));
  writeFileSync(join(outDir, `${file}.br`), brotliBest(bytes));
}
// The budgets are for the gzipped copies the core serves, the larger of the two.
const appGzip = statSync(join(outDir, `${appFile}.gz`)).size;
const languageGzip = Object.values(languageFiles).map((f) => statSync(join(outDir, `${f}.gz`)).size);
const line = (name, value, budget, unit) =>
  `  ${name.padEnd(22)} ${String(value).padStart(7)} B ${unit.padEnd(8)} budget ${budget} B ${value > budget ? 'OVER' : 'ok'}`;
console.log(
  [
    'widget build:',
    line('loader.js', loaderBytes, LOADER_BUDGET_BYTES, 'minified'),
    line(appFile, appGzip, APP_BUDGET_GZIP_BYTES, 'gzipped'),
    `  (${appFile} is ${app.length} B minified, ${statSync(join(outDir, `${appFile}.br`)).size} B in brotli)`,
    `  ${Object.keys(languageFiles).length} languages besides English, one loaded beside the app: ${Math.min(...languageGzip)}–${Math.max(...languageGzip)} B gzipped`,
  ].join('\n'),
);
// The loader runs in the host page's global scope: a bundler helper hoisted out of the IIFE would be a global of the page's.
if (!readFileSync(join(outDir, 'loader.js'), 'utf8').startsWith('(function(){')) {
  console.error('widget build: loader.js declares something outside its IIFE');
  rmSync(outDir, { recursive: true, force: true });
  process.exit(1);
}
if (loaderBytes > LOADER_BUDGET_BYTES || appGzip > APP_BUDGET_GZIP_BYTES) {
  console.error('widget build: over budget');
  rmSync(outDir, { recursive: true, force: true });
  process.exit(1);
}
const previous = join(root, `dist.previous-${process.pid}`);
if (existsSync(dist)) renameSync(dist, previous);
renameSync(outDir, dist);
rmSync(previous, { recursive: true, force: true });
