import knexFactory, { type Knex } from 'knex';
import pg from 'pg';

// numeric and bigint arrive as strings by default; every value we store fits a double.
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export type Db = Knex;

export function createDb(connectionString: string, poolMax = 10): Db {
  return knexFactory({
    client: 'pg',
    // A query on a connection the server dropped without a word (a restart) fails instead of hanging.
    connection: { connectionString, application_name: 'loyalty', query_timeout: 60_000, keepAlive: true },
    pool: { min: 0, max: poolMax },
    acquireConnectionTimeout: 10_000,
  });
}
