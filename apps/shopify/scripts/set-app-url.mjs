// Sets the app's public base URL wherever Shopify needs it absolute: shopify.app.toml
// (application_url, the auth redirects, the app proxy, any absolute webhook uri), the Flow
// action extensions' runtime_url and the UI extensions' APP_URL (Rewards page, order and checkout blocks). Each URL keeps its path; only the base it shares with
// application_url changes, so the script can run again with another URL. Every file is checked
// before any is written: a refusal (exit 2 for the argument, 1 for a file) changes nothing.
// Usage: node scripts/set-app-url.mjs https://loyalty.example.net[/prefix] [--root <repo root>]
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const USAGE = 'usage: node scripts/set-app-url.mjs https://<host>[/<path>] [--root <repo root>]';

function fail(code, message) {
  console.error(`set-app-url: ${message}`);
  process.exit(code);
}

const args = process.argv.slice(2);
const rootAt = args.indexOf('--root');
const root =
  rootAt >= 0
    ? resolve(args.splice(rootAt, 2)[1] ?? fail(2, `--root needs a directory; ${USAGE}`))
    : fileURLToPath(new URL('../../../', import.meta.url));
if (args.length !== 1) fail(2, USAGE);
const base = parseBase(args[0]);

const appFile = join(root, 'apps/shopify/shopify.app.toml');
const flowFiles = readdirSync(join(root, 'extensions'))
  .filter((dir) => dir.startsWith('flow-'))
  .sort()
  .map((dir) => join(root, 'extensions', dir, 'shopify.extension.toml'));
// The UI extensions call the app's routes from the shopper's browser or the POS device, so each
// carries the URL in its code, in its src/app-url.ts.
const extensionFiles = readdirSync(join(root, 'extensions'))
  .sort()
  .map((dir) => join(root, 'extensions', dir, 'src/app-url.ts'))
  .filter((file) => existsSync(file));
const texts = new Map([appFile, ...flowFiles, ...extensionFiles].map((file) => [file, readFileSync(file, 'utf8')]));

const current = /^application_url\s*=\s*"([^"]+)"/m.exec(texts.get(appFile))?.[1]?.replace(/\/+$/, '');
if (!current) fail(1, `${appFile} has no application_url to take the current base from`);
// A quoted URL on the current base: the base itself, or followed by its path, query or fragment.
const onCurrent = new RegExp(`"${current.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=["/?#])`, 'g');

// Keys Shopify calls with absolute URLs: each of their URLs must be on the current base.
const ABSOLUTE = /^\s*(application_url|redirect_urls|url|runtime_url)\s*=\s*(.*)$/gm;
const writes = [];
for (const [file, text] of texts) {
  for (const [, key, value] of text.matchAll(ABSOLUTE)) {
    for (const [url] of value.matchAll(/"[^"]*"/g)) {
      onCurrent.lastIndex = 0;
      if (!onCurrent.test(url)) fail(1, `${file}: ${key} ${url} is not on the current base ${current}; fix it by hand first`);
    }
  }
  const count = text.match(onCurrent)?.length ?? 0;
  const out = text.replace(onCurrent, `"${base}`);
  if (out !== text) writes.push({ file, out, count });
}
for (const { file, out, count } of writes) {
  writeFileSync(file, out);
  console.log(`set-app-url: ${relative(root, file)}: ${count} URL${count === 1 ? '' : 's'} now on ${base}`);
}
if (!writes.length) console.log(`set-app-url: every URL already uses ${base}`);

/** An absolute https URL without credentials, query or fragment, as origin + path without the trailing slash. */
function parseBase(raw) {
  let url;
  try {
    url = new URL(raw);
  } catch {
    fail(2, `"${raw}" is not an absolute URL; ${USAGE}`);
  }
  // The URL parser also accepts "https:host" and backslashes; only the plain form is meant.
  if (url.protocol !== 'https:' || !/^https:\/\/[^\\]+$/i.test(raw))
    fail(2, `"${raw}" must be a plain https:// URL (Shopify requires https)`);
  if (url.username || url.password) fail(2, `"${raw}" must not contain credentials`);
  if (raw.includes('?') || raw.includes('#')) fail(2, `"${raw}" must not have a query or fragment`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
