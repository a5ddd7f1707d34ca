import type { Knex } from 'knex';
import { type AccountInfo, loadAccount } from '../auth/authenticate.js';
import { announceIssued } from '../engine/announce.js';
import { memberLock } from '../engine/members.js';
import { earnForRewardLog } from '../engine/points.js';
import { revokedWithItsReward } from '../engine/rewards.js';
import { issuedFields, takeCodes } from '../engine/codes.js';
import { IssueTally } from '../observability/metrics.js';
import type { RequestContext } from '../records/context.js';
import type { RecordService } from '../records/service.js';
import type { RewardLogRow, RewardRow } from '../schema/rewards.js';
import { savepoint, transaction } from '../db/transaction.js';

const BATCH = 500;

/**
 * Issues the held reward logs whose `confirmAt` has come (CONTRACT §17): each gets its code (pool
 * or generated, as at creation without a hold), `rewardIssuedAt` and `rewardExpiryAt` from now,
 * and one `reward_log_issued` event, in one transaction per batch. Rows are taken with FOR UPDATE
 * SKIP LOCKED, so workers split them and each is issued once; a reversal that revoked a log first
 * leaves it out, and one that comes after finds it issued. A log that cannot be issued stays
 * pending without holding back the others (of any account): the batch is retried one log at a
 * time, and once the others are issued the pass throws naming what failed. Answers how many were
 * issued.
 */
export async function confirmHeldRewards(records: RecordService, now: Date): Promise<number> {
  const accounts = new Map<string, AccountInfo | undefined>();
  const failed = new Map<string, unknown>();
  const skipped = new Set<string>();
  let total = 0;
  for (;;) {
    const tallies: IssueTally[] = [];
    // Each attempt in a savepoint of its own: a failing one leaves the batch's transaction usable.
    const attempt = async (trx: Knex.Transaction, logs: RewardLogRow[]) => {
      const issued = new IssueTally();
      let count: number;
      try {
        count = await savepoint(trx, () => issue(trx, records, logs, now, accounts, issued));
      } catch (err) {
        if (logs.length === 1) failed.set(logs[0]!.id, err);
        return 0;
      }
      tallies.push(issued);
      return count;
    };
    const { taken, issued } = await transaction(records.db, async (trx) => {
      const due = await trx<RewardLogRow>('reward_log')
        .where('reward_log_status', 'pending')
        .where('confirm_at', '<=', now)
        .modify((q) => {
          if (failed.size || skipped.size) q.whereNotIn('id', [...failed.keys(), ...skipped]);
        })
        .orderBy('confirm_at')
        .limit(BATCH)
        .forUpdate()
        .skipLocked();
      const ready = await notBeingErased(trx, due);
      for (const log of due) if (!ready.includes(log)) skipped.add(log.id);
      let count = await attempt(trx, ready);
      if (!count && ready.length > 1) for (const log of ready) count += await attempt(trx, [log]);
      return { taken: due.length, issued: count };
    });
    for (const tally of tallies) tally.commit();
    total += issued;
    if (taken < BATCH) break;
  }
  if (failed.size) {
    const [id, err] = failed.entries().next().value!;
    throw new Error(
      `${failed.size} held reward log(s) could not be issued, e.g. ${id}: ${err instanceof Error ? err.message : String(err)}`,
      {
        cause: err,
      },
    );
  }
  return total;
}

/**
 * The logs whose member is not being erased, each member shared against its erasure
 * (`memberLock`) without waiting: an erasure holds its member's row and deletes the member's reward
 * logs after, while issuing a points reward locks the row of the member whose logs it holds, so
 * waiting here could deadlock the two. A log left out goes with its member.
 */
async function notBeingErased(trx: Knex.Transaction, due: RewardLogRow[]): Promise<RewardLogRow[]> {
  const members = [...new Set(due.map((l) => l.owned_by_id))];
  if (!members.length) return due;
  const { rows } = await trx.raw<{ rows: { member: string; free: boolean }[] }>(
    `select m.member, pg_try_advisory_xact_lock_shared(hashtextextended(m.lock, 0)) as free
       from unnest(?::uuid[], ?::text[]) as m(member, lock)`,
    [members, members.map(memberLock)],
  );
  const free = new Set(rows.filter((r) => r.free).map((r) => r.member));
  return due.filter((l) => free.has(l.owned_by_id));
}

/** Issues held reward logs: their codes, the rows, their events and what points rewards earn. Answers how many were issued. */
async function issue(
  trx: Knex.Transaction,
  records: RecordService,
  due: RewardLogRow[],
  now: Date,
  accounts: Map<string, AccountInfo | undefined>,
  issued: IssueTally,
): Promise<number> {
  if (!due.length) return 0;
  const rewards = await rewardsOf(trx, due);
  // A reward deleted while its log was held (before its delete revoked such logs) can no longer be given.
  const gone = due.filter((l) => !rewards.has(`${l.account_id}/${l.reward_id}`));
  if (gone.length) {
    await trx('reward_log')
      .whereIn(
        ['account_id', 'id'],
        gone.map((l) => [l.account_id, l.id]),
      )
      .update(revokedWithItsReward(now));
    due = due.filter((l) => !gone.includes(l));
    if (!due.length) return 0;
  }
  const codes = new Map<string, string>();
  for (const [key, logs] of groupBy(due, (l) => `${l.account_id}/${l.reward_id}`))
    for (const [id, code] of await takeCodes(
      { trx, issued },
      rewards.get(key)!,
      logs.map((l) => l.id),
    ))
      codes.set(id, code);
  const confirmed = due.map((log): RewardLogRow => {
    const reward = rewards.get(`${log.account_id}/${log.reward_id}`)!;
    return { ...log, reward_log_status: 'issued', ...issuedFields(reward, codes.get(log.id) ?? null, now), updated_at: now };
  });
  await trx.raw(
    `update reward_log r set reward_log_status = 'issued', coupon_code = v.coupon_code, reward_issued_at = v.reward_issued_at,
            reward_expiry_at = v.reward_expiry_at, updated_at = v.updated_at
       from json_populate_recordset(null::reward_log, ?::json) v
      where r.account_id = v.account_id and r.id = v.id`,
    [JSON.stringify(confirmed)],
  );
  for (const [accountId, logs] of groupBy(confirmed, (l) => l.account_id)) {
    if (!accounts.has(accountId)) accounts.set(accountId, await loadAccount(trx, accountId));
    const ctx: RequestContext = {
      flow: 'apikey',
      account: accounts.get(accountId)!,
      languageCode: undefined,
      requestId: 'sweep:confirm',
    };
    await announceIssued(trx, records, ctx, accountId, logs);
    // A held points reward earns when it is issued, not while pending (CONTRACT §19).
    for (const log of logs) await earnForRewardLog(trx, records, ctx, rewards.get(`${log.account_id}/${log.reward_id}`)!, log);
  }
  return confirmed.length;
}

async function rewardsOf(trx: Knex, logs: RewardLogRow[]): Promise<Map<string, RewardRow>> {
  const pairs = [...new Set(logs.filter((l) => l.reward_id).map((l) => `${l.account_id}/${l.reward_id}`))].map((k) => k.split('/'));
  const rows = pairs.length ? await trx<RewardRow>('reward').whereIn(['account_id', 'id'], pairs) : [];
  return new Map(rows.map((r) => [`${r.account_id}/${r.id}`, r]));
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
