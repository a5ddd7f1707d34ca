import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/db/knex.js';
import * as channelOptOuts from '../../src/db/migrations/20261124000200_channel_opt_outs.js';
import { createTestDatabase } from '../support/harness.js';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb(database.url, 2);
});
afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

it('turns the single opt-out into one per channel: an opted-out member stays opted out of every channel, and back', async () => {
  await channelOptOuts.down(db);
  const [org] = await db('organization').insert({ name: 'Org' }).returning('id');
  const [account] = await db('account').insert({ organization_id: org.id, name: 'Account' }).returning('id');
  const accountId = account.id as string;
  const [out, still] = await db('account_user')
    .insert([
      { account_id: accountId, external_id: 'opted-out', unsubscribed_at: new Date('2026-11-01T00:00:00Z') },
      { account_id: accountId, external_id: 'subscribed' },
    ])
    .returning('id');

  await channelOptOuts.up(db);
  const channels = async (id: string) => (await db('account_user').where({ id }).first('unsubscribed_channels')).unsubscribed_channels;
  expect(await channels(out.id)).toEqual(['email', 'push', 'sms', 'chat']);
  expect(await channels(still.id)).toEqual([]);
  await expect(
    db('account_user')
      .where({ id: still.id })
      .update({ unsubscribed_channels: ['fax'] }),
  ).rejects.toThrow(/account_user_unsubscribed_channels_known/);

  await db('account_user')
    .where({ id: still.id })
    .update({ unsubscribed_channels: ['sms'] });
  await channelOptOuts.down(db);
  const rows = await db('account_user').whereIn('id', [out.id, still.id]).select('id', 'unsubscribed_at');
  expect(rows.every((r: { unsubscribed_at: Date | null }) => r.unsubscribed_at instanceof Date)).toBe(true);
  await channelOptOuts.up(db);
});
