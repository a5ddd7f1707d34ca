import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../core/test/support/harness';
import { customerOrder } from '../app/earning/ledger.server';
import { migrate } from '../app/storage/migrate.server';

/**
 * An order's effects as the thank-you page reads them: the refund worker writes the order's
 * refunded lines and its points taken back in one transaction, so no answer may show one without
 * the other, even when that transaction commits between the reader's statements.
 */
const SHOP = 'ledger.myshopify.com';
let url: string;
let drop: () => Promise<void>;
let pool: pg.Pool;

beforeAll(async () => {
  const db = await createTestDatabase({ empty: true });
  url = db.url;
  drop = db.drop;
  pool = new pg.Pool({ connectionString: url, max: 2 });
  await migrate(pool);
  await pool.query(
    `insert into shopify_orders (shop, order_id, customer_id, name, processed_at, amount, currency, lines, status)
     values ($1, '3', '903', '#3', now(), 75, 'EUR', $2, 'earned')`,
    [
      SHOP,
      JSON.stringify([
        { id: '1', quantity: 1, milli: 45_000 },
        { id: '2', quantity: 1, milli: 30_000 },
      ]),
    ],
  );
  await pool.query(
    `insert into shopify_order_points (shop, order_id, entry_id, unit_points, order_points, points) values ($1, '3', 'e1', 1, 5, 80)`,
    [SHOP],
  );
});

afterAll(async () => {
  await pool.end();
  await drop();
});

/** A pool whose clients run `between` once, right after the first statement that reads shopify_orders. */
function interleaved(between: () => Promise<void>): pg.Pool {
  const wrapped = new pg.Pool({ connectionString: url, max: 1 });
  let pending: (() => Promise<void>) | null = between;
  wrapped.on('connect', (client) => {
    const query = client.query.bind(client) as (text: string, values?: unknown[]) => Promise<pg.QueryResult>;
    Object.assign(client, {
      query: async (text: string, values?: unknown[]) => {
        const result = await query(text, values);
        if (pending && /from shopify_orders/.test(text)) {
          const run = pending;
          pending = null;
          await run();
        }
        return result;
      },
    });
  });
  return wrapped;
}

describe('customerOrder', () => {
  it('reads the order and its points in one snapshot: a refund committed between its statements shows in neither', async () => {
    const refund = async () => {
      const client = await pool.connect();
      try {
        await client.query('begin');
        await client.query(`update shopify_order_points set reversed = 30 where shop = $1 and order_id = '3'`, [SHOP]);
        await client.query(`update shopify_orders set refunded = '{"2": 1}' where shop = $1 and order_id = '3'`, [SHOP]);
        await client.query('commit');
      } finally {
        client.release();
      }
    };
    const reader = interleaved(refund);
    try {
      const during = await customerOrder(reader, SHOP, '903', '3');
      expect(during).toMatchObject({ state: 'earned', points: { earned: 80, reversed: 0 } });
    } finally {
      await reader.end();
    }
    expect(await customerOrder(pool, SHOP, '903', '3')).toMatchObject({ state: 'partly_refunded', points: { earned: 80, reversed: 30 } });
  });
});
