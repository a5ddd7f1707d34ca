import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

// scripts/set-app-url.mjs runs for real on a copy of the app config and the Flow extensions.
const repo = fileURLToPath(new URL('../../../', import.meta.url));
const script = fileURLToPath(new URL('../scripts/set-app-url.mjs', import.meta.url));
const APP = 'apps/shopify/shopify.app.toml';
const flows = readdirSync(join(repo, 'extensions'))
  .filter((d) => d.startsWith('flow-'))
  .sort();
const extension = (dir: string) => `extensions/${dir}/shopify.extension.toml`;
// The UI extensions that call the app from the shopper's browser or the POS device carry its URL in their code.
const APP_URL_FILES = readdirSync(join(repo, 'extensions'))
  .sort()
  .map((dir) => `extensions/${dir}/src/app-url.ts`)
  .filter((file) => existsSync(join(repo, file)));
const FILES = [APP, ...flows.map(extension), ...APP_URL_FILES];

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function copyRepo() {
  const root = mkdtempSync(join(tmpdir(), 'set-app-url-'));
  roots.push(root);
  mkdirSync(join(root, 'apps/shopify'), { recursive: true });
  cpSync(join(repo, APP), join(root, APP));
  for (const dir of flows) cpSync(join(repo, 'extensions', dir), join(root, 'extensions', dir), { recursive: true });
  for (const file of APP_URL_FILES) cpSync(join(repo, file), join(root, file));
  return root;
}

function run(root: string, url: string) {
  const { status, stdout, stderr } = spawnSync(process.execPath, [script, url, '--root', root], { encoding: 'utf8' });
  return { status, stdout, stderr };
}

const snapshot = (root: string) => Object.fromEntries(FILES.map((f) => [f, readFileSync(join(root, f), 'utf8')]));

function value(text: string, key: string, section?: string) {
  const from = section ? text.indexOf(`\n[${section}]\n`) : 0;
  expect(from, section).toBeGreaterThanOrEqual(0);
  return new RegExp(`^${key} = (.*)$`, 'm').exec(text.slice(from))![1]!;
}

// Every URL the script is meant to set, by where it sits.
function urls(files: Record<string, string>) {
  const app = files[APP]!;
  const out: Record<string, string> = {
    application_url: JSON.parse(value(app, 'application_url')) as string,
    'app_proxy.url': JSON.parse(value(app, 'url', 'app_proxy')) as string,
  };
  (JSON.parse(value(app, 'redirect_urls', 'auth')) as string[]).forEach((u, k) => (out[`redirect_urls[${k}]`] = u));
  // Flow actions name their URL runtime_url; the trigger lifecycle callback names it url.
  for (const dir of flows) {
    const key = dir === 'flow-trigger-lifecycle' ? 'url' : 'runtime_url';
    out[`${dir} ${key}`] = JSON.parse(value(files[extension(dir)]!, key)) as string;
  }
  for (const file of APP_URL_FILES)
    out[`${file.split('/')[1]} APP_URL`] = JSON.parse(/^export const APP_URL = (".*");$/m.exec(files[file]!)![1]!) as string;
  return out;
}

const rebase = (all: Record<string, string>, from: string, to: string) =>
  Object.fromEntries(Object.entries(all).map(([k, u]) => [k, u.startsWith(from) ? to + u.slice(from.length) : `not on ${from}: ${u}`]));
// The files as they must be afterwards: only the quoted URLs on the old base differ.
const swapped = (files: Record<string, string>, from: string, to: string) =>
  Object.fromEntries(
    Object.entries(files).map(([f, text]) => [f, text.replaceAll(`"${from}"`, `"${to}"`).replaceAll(`"${from}/`, `"${to}/`)]),
  );

describe('set-app-url', () => {
  it('puts the new base on every app, Flow and UI extension URL, keeps their paths and leaves every other byte', () => {
    const root = copyRepo();
    const before = snapshot(root);
    const oldBase = urls(before).application_url!.replace(/\/+$/, '');
    expect(Object.values(rebase(urls(before), oldBase, ''))).toEqual([
      '',
      '/apps/loyalty',
      '/auth/callback',
      ...flows.map((dir) => `/flow/${dir.slice('flow-'.length)}`),
      ...APP_URL_FILES.map(() => ''),
    ]);
    expect(APP_URL_FILES.map((file) => file.split('/')[1])).toEqual([
      'loyalty-checkout-rewards',
      'loyalty-pos',
      'loyalty-rewards',
      'loyalty-thank-you',
    ]);
    expect(flows).toEqual([
      'flow-adjust-points',
      'flow-execute-challenge',
      'flow-execute-mission',
      'flow-execute-streak',
      'flow-grant-streak-freezes',
      'flow-set-birthday',
      'flow-stamp-coupon',
      'flow-trigger-lifecycle',
    ]);

    const res = run(root, 'https://loyalty.example.net/');
    expect(res.status, res.stderr).toBe(0);
    const lines = res.stdout.trim().split('\n');
    expect(lines).toHaveLength(FILES.length);
    FILES.forEach((f, k) => expect(lines[k]).toContain(f));

    const after = snapshot(root);
    expect(urls(after)).toEqual(rebase(urls(before), oldBase, 'https://loyalty.example.net'));
    expect(after).toEqual(swapped(before, oldBase, 'https://loyalty.example.net'));
  });

  it('runs again with another base, path prefix included, and does nothing when the base is already set', () => {
    const root = copyRepo();
    expect(run(root, 'https://loyalty.example.net').status).toBe(0);
    const first = snapshot(root);

    const res = run(root, 'https://Apps.Other.test:8443/shopify/');
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout.trim().split('\n')).toHaveLength(FILES.length);
    const second = snapshot(root);
    const base = 'https://apps.other.test:8443/shopify';
    expect(urls(second)).toEqual(rebase(urls(first), 'https://loyalty.example.net', base));
    expect(urls(second)['flow-execute-streak runtime_url']).toBe(`${base}/flow/execute-streak`);
    expect(urls(second)['redirect_urls[0]']).toBe(`${base}/auth/callback`);
    expect(second).toEqual(swapped(first, 'https://loyalty.example.net', base));

    const again = run(root, base);
    expect(again.status, again.stderr).toBe(0);
    expect(snapshot(root)).toEqual(second);
  });

  it.each([
    ['plain http', 'http://loyalty.example.net'],
    ['a relative URL', '/shopify'],
    ['a host without scheme', 'loyalty.example.net'],
    ['a query', 'https://loyalty.example.net/?shop=x'],
    ['a fragment', 'https://loyalty.example.net/#top'],
  ])('refuses %s with exit 2 and a one-line reason, changing no file', (_name, url) => {
    const root = copyRepo();
    const before = snapshot(root);
    const res = run(root, url);
    expect(res.status).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr.trim()).not.toBe('');
    expect(res.stderr.trim()).not.toContain('\n');
    expect(snapshot(root)).toEqual(before);
  });

  it('changes no file when a URL is not on the current base (exit 1)', () => {
    const root = copyRepo();
    const file = join(root, extension('flow-stamp-coupon'));
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(/^runtime_url = "[^"]*"/m, 'runtime_url = "https://elsewhere.test/flow/stamp-coupon"'),
    );
    const before = snapshot(root);
    const res = run(root, 'https://loyalty.example.net');
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('elsewhere.test');
    expect(snapshot(root)).toEqual(before);
  });

  it('also moves an absolute webhook uri on the current base, and leaves relative ones', () => {
    const root = copyRepo();
    const app = join(root, APP);
    const oldBase = urls(snapshot(root)).application_url!;
    writeFileSync(
      app,
      readFileSync(app, 'utf8').replace('uri = "/webhooks/app/uninstalled"', `uri = "${oldBase}/webhooks/app/uninstalled"`),
    );
    expect(run(root, 'https://loyalty.example.net').status).toBe(0);
    const text = readFileSync(app, 'utf8');
    expect(text).toContain('uri = "https://loyalty.example.net/webhooks/app/uninstalled"');
    expect(text).toContain('uri = "/webhooks/customers/redact"');
  });
});
