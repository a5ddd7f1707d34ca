import type { Knex } from 'knex';
import type { UserData } from '../auth/authenticate.js';
import { prepared } from '../db/prepared.js';
import { type AccountUserRow, type InlineMember, memberHolds, memberToColumns } from '../schema/members.js';

/** Creates the member an end-user token names on first sight and updates the names and email it sent. */
export async function upsertMember(db: Knex, accountId: string, user: UserData): Promise<string> {
  const { externalId, ...fields } = user;
  const given = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  const sent = memberToColumns(given);
  // Every end-user request passes here: a prepared read of just the columns it compares.
  const existing = await prepared(
    db<AccountUserRow>('account_user')
      .where({ account_id: accountId, external_id: externalId })
      .first(['id', ...Object.keys(sent)] as (keyof AccountUserRow)[]),
  );
  if (existing && memberHolds(existing as AccountUserRow, given)) return existing.id;
  const [row] = await db<AccountUserRow>('account_user')
    .insert({ account_id: accountId, external_id: externalId, ...sent })
    .onConflict(['account_id', 'external_id'])
    .merge(Object.keys(sent).length ? { ...sent, updated_at: db.fn.now() } : { updated_at: db.fn.now() })
    .returning('id');
  return row!.id;
}

/**
 * The advisory lock a member's erasure (its delete) takes alone and every write of rows for the
 * member shares, taken before any row lock: the erasure waits for the writes under way, and a write
 * after it finds the member gone, so none leaves rows behind it (CONTRACT §6, "Deleting").
 */
export const memberLock = (memberId: string) => `member:${memberId}`;

/**
 * The inline member of a log: found by externalId, created or updated with the fields sent (null
 * clears one). A member that exists is first shared against its erasure (`memberLock`); one
 * erased meanwhile is created anew.
 */
export async function upsertInlineMember(trx: Knex, accountId: string, input: InlineMember): Promise<AccountUserRow> {
  const sent = memberToColumns(input);
  const key = { account_id: accountId, external_id: input.externalId };
  await trx.raw(
    `select pg_advisory_xact_lock_shared(hashtextextended('member:' || id::text, 0)) from account_user where account_id = ? and external_id = ?`,
    [accountId, input.externalId],
  );
  return upsertFound(trx, accountId, input, sent, key);
}

async function upsertFound(
  trx: Knex,
  accountId: string,
  input: InlineMember,
  sent: ReturnType<typeof memberToColumns>,
  key: { account_id: string; external_id: string },
): Promise<AccountUserRow> {
  const existing = await trx<AccountUserRow>('account_user').where(key).first();
  if (existing) {
    if (memberHolds(existing, input)) return existing;
    const [row] = await trx<AccountUserRow>('account_user')
      .where({ account_id: accountId, id: existing.id })
      .update({ ...sent, updated_at: trx.fn.now() })
      .returning('*');
    return row!;
  }
  const [inserted] = await trx<AccountUserRow>('account_user')
    .insert({ ...sent, account_id: accountId })
    .onConflict(['account_id', 'external_id'])
    .ignore()
    .returning('*');
  return inserted ?? (await upsertFound(trx, accountId, input, sent, key));
}
