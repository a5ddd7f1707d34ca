import type { Knex } from 'knex';
import type { AccountInfo, UserData } from '../auth/authenticate.js';
import { prepared } from '../db/prepared.js';
import { transaction } from '../db/transaction.js';
import type { RequestContext } from '../records/context.js';
import type { Records } from '../records/resource.js';
import { type AccountUserRow, type InlineMember, memberHolds, memberToColumns } from '../schema/members.js';
import { changedTiers, isTransaction, type Member, type Tier } from './points.js';

/** Creates the member an end-user token names on first sight and updates the names and email it sent. */
export async function upsertMember(records: Records, account: AccountInfo, user: UserData): Promise<string> {
  const { db } = records;
  const accountId = account.id;
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
  if (!existing)
    await placeNewMember(db, records, { flow: 'apikey', account, languageCode: undefined, requestId: 'enduser:member made' }, row!.id);
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
 * erased meanwhile is created anew. `made` follows a member's creation, before the log reads them.
 */
export async function upsertInlineMember(
  trx: Knex,
  accountId: string,
  input: InlineMember,
  made: (memberId: string) => Promise<unknown>,
): Promise<AccountUserRow> {
  const sent = memberToColumns(input);
  const key = { account_id: accountId, external_id: input.externalId };
  await trx.raw(
    `select pg_advisory_xact_lock_shared(hashtextextended('member:' || id::text, 0)) from account_user where account_id = ? and external_id = ?`,
    [accountId, input.externalId],
  );
  return upsertFound(trx, accountId, input, sent, key, made);
}

async function upsertFound(
  trx: Knex,
  accountId: string,
  input: InlineMember,
  sent: ReturnType<typeof memberToColumns>,
  key: { account_id: string; external_id: string },
  made: (memberId: string) => Promise<unknown>,
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
  if (!inserted) return upsertFound(trx, accountId, input, sent, key, made);
  await made(inserted.id);
  return inserted;
}

/**
 * A member just made enters the tier a window of 0 reaches (CONTRACT §19: the highest live tier
 * whose threshold their window reaches, one of threshold 0) at once, not at their first entry or
 * the next daily pass, with what entering it sets off (`changedTiers`: `tier_changed`, the tier's
 * entry reward). Nothing while points are not live, as for entries. Shares the member's erasure
 * lock, so a member erased meanwhile is left alone; true when the member was placed.
 */
export async function placeNewMember(db: Knex, records: Records, ctx: RequestContext, memberId: string): Promise<boolean> {
  const accountId = ctx.account!.id;
  const tier: Tier | undefined = await db<Tier>('tier')
    .where({ account_id: accountId, status: 'live', points_threshold: 0 })
    .whereExists((q) => q.from('points_setting').where({ account_id: accountId, status: 'live' }))
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .first();
  if (!tier) return false;
  const place = async (trx: Knex.Transaction) => {
    await trx.raw('select pg_advisory_xact_lock_shared(hashtextextended(?, 0))', [memberLock(memberId)]);
    const [member]: Member[] = await trx<Member>('account_user')
      .where({ account_id: accountId, id: memberId })
      .whereNull('tier_id')
      .where('points_earned_in_tier_window', '<=', 0)
      .update({ tier_id: tier.id })
      .returning('*');
    if (!member) return false;
    await changedTiers(trx, records, ctx, [{ member, change: { before: null, after: tier } }]);
    return true;
  };
  return isTransaction(db) ? place(db) : transaction(db, place);
}
