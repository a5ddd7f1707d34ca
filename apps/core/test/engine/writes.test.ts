import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowFromJson } from '../../src/db/json.js';
import type { LogRow } from '../../src/engine/types.js';
import { isChangedSinceRead, type Versioned, versioned, WriteSet } from '../../src/engine/writes.js';
import type { Row } from '../../src/records/resource.js';
import type { StreakProgressRow } from '../../src/schema/progress.js';
import { startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

/** The engine's single write statement: everything or nothing, refused when a row read has changed. */
let app: TestApp;
let acct: TestAccount;
let streakId: string;
let memberId: string;
beforeAll(async () => {
  app = await startTestApp();
  acct = await app.createAccount({ timezone: 'UTC' });
  streakId = (await acct.api.post('/schema/streak/record', { name: 'Daily' })).body.data.id;
  const first = await acct.api.post('/schema/streak_log/record', {
    streakId,
    ownedBy: { externalId: 'w' },
    activityId: 'visit',
    activityAt: new Date().toISOString(),
    uniqueIdentifier: 'first',
  });
  memberId = first.body.data.ownedById;
});
afterAll(() => app.close());

async function readProgress(): Promise<Versioned<StreakProgressRow>> {
  const found = await app.db.raw(
    `select ${versioned('sp')} as row from streak_progress sp where sp.account_id = ? and sp.owned_by_id = ?`,
    [acct.accountId, memberId],
  );
  return rowFromJson<Versioned<StreakProgressRow>>(found.rows[0].row)!;
}

function plannedWrites(progress: Versioned<StreakProgressRow>, uniqueIdentifier: string): WriteSet {
  const writes = new WriteSet(acct.accountId);
  writes.update('streak_progress', progress, { current_progress_value: progress.current_progress_value + 10, updated_at: new Date() });
  writes.insert<LogRow>('streak_log', [
    {
      streak_id: streakId,
      owned_by_id: memberId,
      activity_id: 'visit',
      activity_at: new Date(),
      unique_identifier: uniqueIdentifier,
      status: 'live',
      is_aggregated: true,
    },
  ]);
  writes.emit([
    {
      code: 'streak_progress_in_progress',
      ownedById: memberId,
      linkedSchemaSlug: 'streak_progress',
      linkedSchemaRecordId: progress.id,
      payload: { n: 1 },
    },
  ]);
  return writes;
}

const count = async (table: string, where: Row) => Number((await app.db(table).where(where).count({ n: '*' }))[0]!.n);

describe('the write set', () => {
  it('writes the update, the insert and the events together when nothing changed since the read', async () => {
    const progress = await readProgress();
    await plannedWrites(progress, 'planned-ok').write(app.db);
    expect((await readProgress()).current_progress_value).toBe(progress.current_progress_value + 10);
    expect(await count('streak_log', { account_id: acct.accountId, unique_identifier: 'planned-ok' })).toBe(1);
    expect(await count('event_log', { account_id: acct.accountId, linked_schema_record_id: progress.id })).toBe(2);
  });

  it('writes nothing, and says so, when a row it read changed before it ran', async () => {
    const progress = await readProgress();
    const events = await count('event_log', { account_id: acct.accountId });
    const writes = plannedWrites(progress, 'planned-stale');
    await app.db('streak_progress').where({ account_id: acct.accountId, id: progress.id }).update({ updated_at: new Date() });
    const failure = await writes.write(app.db).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(isChangedSinceRead(failure)).toBe(true);
    expect((await readProgress()).current_progress_value).toBe(progress.current_progress_value);
    expect(await count('streak_log', { account_id: acct.accountId, unique_identifier: 'planned-stale' })).toBe(0);
    expect(await count('event_log', { account_id: acct.accountId })).toBe(events);
  });

  it('refuses a row read without its version', () => {
    const writes = new WriteSet(acct.accountId);
    expect(() =>
      writes.update<{ id: string; account_id: string; updated_at?: Date }>(
        'streak_progress',
        { id: 'x', account_id: acct.accountId },
        { updated_at: new Date() },
      ),
    ).toThrow(/version/);
  });
});
