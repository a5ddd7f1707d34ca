import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../../src/db/embedded.js';
import { createDb } from '../../src/db/knex.js';
import { migrateLatest } from '../../src/db/migrate.js';

declare module 'vitest' {
  export interface ProvidedContext {
    adminUrl: string;
    templateDatabase: string;
  }
}

/**
 * One PostgreSQL for the run: DATABASE_URL when set, else an embedded server. Migrations run once
 * into a template database; every test file clones it into a database of its own.
 */
export default async function setup(project: TestProject) {
  let adminUrl = process.env.DATABASE_URL;
  let stopEmbedded: (() => Promise<void>) | undefined;
  let dataDir: string | undefined;
  if (!adminUrl) {
    dataDir = mkdtempSync(join(tmpdir(), 'loyalty-test-pg-'));
    // The server may run as another user (when tests run as root); it must reach its folder.
    chmodSync(dataDir, 0o755);
    // Two files at a time, each with its own service processes and their pools (the Shopify app's
    // files run the core and the app, some a second app process): past PostgreSQL's default of 100.
    const embedded = await startEmbeddedPostgres(dataDir, 'postgres_admin', undefined, ['max_connections=200']);
    adminUrl = embedded.url;
    stopEmbedded = embedded.stop;
  }
  const template = `loyalty_tpl_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${template}`);
  const url = new URL(adminUrl);
  url.pathname = `/${template}`;
  const db = createDb(url.toString(), 1);
  await migrateLatest(db);
  await db.destroy();
  project.provide('adminUrl', adminUrl);
  project.provide('templateDatabase', template);

  return async () => {
    const { rows } = await admin.query(`select datname from pg_database where datname like $1 or datname = $2`, [
      `${template}_%`,
      template,
    ]);
    for (const { datname } of rows as { datname: string }[]) {
      await admin.query(`drop database if exists "${datname}" with (force)`);
    }
    await admin.end();
    await stopEmbedded?.();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
}
