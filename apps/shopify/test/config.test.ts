import { describe, expect, it } from 'vitest';
import { appConfig } from './support/stack';

const env = appConfig({ databaseUrl: 'postgres://127.0.0.1/app', coreUrl: 'http://127.0.0.1:4000', platformToken: 't' });
// The module reads the process's environment when imported.
Object.assign(process.env, env);
const { loadConfig } = await import('../app/config.server');

describe('the app’s configuration', () => {
  it('works an import four rows at a time unless told otherwise, from 1 to 16', () => {
    expect(loadConfig(env).pointsImportLanes).toBe(4);
    expect(loadConfig({ ...env, LOYALTY_POINTS_IMPORT_LANES: ' 1 ' }).pointsImportLanes).toBe(1);
    expect(loadConfig({ ...env, LOYALTY_POINTS_IMPORT_LANES: '16' }).pointsImportLanes).toBe(16);
    for (const bad of ['0', '17', '2.5', 'four'])
      expect(() => loadConfig({ ...env, LOYALTY_POINTS_IMPORT_LANES: bad })).toThrow(
        'LOYALTY_POINTS_IMPORT_LANES must be a whole number from 1 to 16',
      );
  });

  it('opens at most ten connections to its database in a process unless told otherwise, from 4 to 100', () => {
    expect(loadConfig(env).dbPoolMax).toBe(10);
    expect(loadConfig({ ...env, LOYALTY_SHOPIFY_DB_POOL_MAX: '4' }).dbPoolMax).toBe(4);
    for (const bad of ['3', '101', '12.5', 'ten'])
      expect(() => loadConfig({ ...env, LOYALTY_SHOPIFY_DB_POOL_MAX: bad })).toThrow(
        'LOYALTY_SHOPIFY_DB_POOL_MAX must be a whole number from 4 to 100',
      );
  });

  it('names every problem at once (the core’s public URL defaults to the core’s)', () => {
    expect(() =>
      loadConfig({ ...env, LOYALTY_CORE_URL: 'core', LOYALTY_SHOPIFY_RETRY_SCHEDULE: '5,x', LOYALTY_POINTS_IMPORT_LANES: '0' }),
    ).toThrow(
      /LOYALTY_CORE_URL must be an absolute URL\n {2}LOYALTY_CORE_PUBLIC_URL must be an absolute URL\n {2}LOYALTY_SHOPIFY_RETRY_SCHEDULE must be comma-separated non-negative seconds\n {2}LOYALTY_POINTS_IMPORT_LANES/,
    );
  });
});
