import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/db/knex.js';
import * as coarseCounts from '../../src/db/migrations/20261125000100_standings_coarse_counts.js';
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

const rankOf = async (accountId: string, challengeId: string, memberId: string) => {
  const { rows } = await db.raw(
    `select ranked_count::int, caller_rank::int from loyalty_standings(?, ?, 'window_progress', '2026-11', ?, 10)`,
    [accountId, challengeId, memberId],
  );
  return rows[0] as { ranked_count: number; caller_rank: number | null };
};

it('counts the standings of boards kept before it per coarse bucket, so ranks stay exact; and undoes cleanly', async () => {
  await coarseCounts.down(db);
  const [org] = await db('organization').insert({ name: 'Org' }).returning('id');
  const [account] = await db('account').insert({ organization_id: org.id, name: 'Account' }).returning('id');
  const accountId = account.id as string;
  const [challenge] = await db('challenge')
    .insert({
      account_id: accountId,
      name: 'Spend',
      aggregation_period: 'monthly',
      aggregation_method: 'sum',
      completion_target_value: 100000,
      to_be_failed_warning_hours: 24,
    })
    .returning('id');
  await db('leaderboard').insert({
    account_id: accountId,
    name: 'Top spenders',
    linked_schema_slug: 'challenge',
    linked_schema_record_id: challenge.id,
    rank_by: 'window_progress',
  });
  // Values over several coarse buckets, below and above 1024, kept by the earlier triggers.
  const values = [1, 5, 31, 32, 33, 100, 100, 700, 1023, 1024, 1500, 5000, 5000, 70000];
  const members = await db('account_user')
    .insert(values.map((_, i) => ({ account_id: accountId, external_id: `m${i}` })))
    .returning('id');
  await db('challenge_progress').insert(
    values.map((value, i) => ({
      account_id: accountId,
      challenge_id: challenge.id,
      owned_by_id: members[i].id,
      period_key: '2026-11',
      challenge_progress_status: 'in_progress',
      current_progress_value: value,
      challenge_started_at: new Date(),
      challenge_to_be_failed_at: new Date(),
      is_warned: false,
    })),
  );

  await coarseCounts.up(db);
  const kept = await db.raw(
    `select coarse, sum(n)::int as n from leaderboard_count_coarse where account_id = ? group by 1 having sum(n) <> 0 order by 1`,
    [accountId],
  );
  const expected = await db.raw(
    `select loyalty_rank_coarse(current_progress_value) as coarse, count(*)::int as n from challenge_progress where account_id = ? group by 1 order by 1`,
    [accountId],
  );
  expect(kept.rows).toEqual(expected.rows);
  expect(kept.rows.length).toBeGreaterThan(4);
  for (const [i, value] of values.entries()) {
    const rank = 1 + values.filter((v) => v > value).length;
    expect(await rankOf(accountId, challenge.id, members[i].id)).toEqual({ ranked_count: values.length, caller_rank: rank });
  }

  await coarseCounts.down(db);
  expect(await rankOf(accountId, challenge.id, members[0].id)).toEqual({ ranked_count: values.length, caller_rank: values.length });
  await coarseCounts.up(db);
});
