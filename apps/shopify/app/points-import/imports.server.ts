import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { type AccountClient, accountClient, CoreError } from '../core/client.server';
import { records, whereEquals } from '../core/records.server';
import { transient } from '../core/logs.server';
import { existingEntry, memberId } from '../earning/points.server';
import { PerKeyLimit } from '../http.server';
import type { EarningDeps } from '../earning/worker.server';
import { type CustomerInfo, fetchCustomer, fetchCustomerByEmail, throttled } from '../shopify/admin-api.server';
import { customerGid, memberOfCustomer, shopifyCustomerId } from '../shopify/customer-ids.server';
import { inTransaction } from '../storage/transaction.server';
import { WorkLoop } from '../storage/work-loop.server';
import { type ImportRow, tierKey } from './csv';

/**
 * Balances brought from another loyalty app: a parsed file is queued as one import and its rows,
 * and the worker role gives each row's customer an `adjusted` point entry (CONTRACT §19: it moves the
 * balance, not the tier) whose uniqueIdentifier is the row's, so a row worked twice (a process died
 * between the core's answer and the row's commit) gives its points once. The same file uploaded
 * again is the same import, and a customer given their balance by one import is not given another's.
 */

export const POINTS_IMPORT_CHANNEL = 'loyalty_points_import';

export type Queued = { queued: true; id: string; rows: number } | { queued: false; id: string; createdAt: string };

export async function queueImport(
  pool: pg.Pool,
  shop: string,
  file: { name: string; text: string; note: string; tierNote: string },
  rows: ImportRow[],
  tierIds: Map<string, string>,
) {
  const hash = createHash('sha256').update(file.text).digest('hex');
  return inTransaction(pool, async (client): Promise<Queued> => {
    const made = await client.query<{ id: string }>(
      `insert into points_imports (shop, file_hash, file_name, note, tier_note) values ($1, $2, $3, $4, $5)
       on conflict (shop, file_hash) do nothing returning id`,
      [shop, hash, file.name, file.note, file.tierNote],
    );
    if (!made.rows[0]) {
      const { rows: before } = await client.query<{ id: string; created_at: Date }>(
        'select id, created_at from points_imports where shop = $1 and file_hash = $2',
        [shop, hash],
      );
      return { queued: false, id: before[0]!.id, createdAt: before[0]!.created_at.toISOString() };
    }
    const id = made.rows[0].id;
    await client.query(
      `insert into points_import_rows (import_id, shop, line, email, customer_id, points, note, tier_id, birthday)
       select $1, $2, * from unnest($3::int[], $4::text[], $5::text[], $6::int[], $7::text[], $8::text[], $9::text[])`,
      [
        id,
        shop,
        rows.map((r) => r.line),
        rows.map((r) => r.email),
        rows.map((r) => r.customerId),
        rows.map((r) => r.points),
        rows.map((r) => r.note),
        rows.map((r) => (r.tier ? (tierIds.get(tierKey(r.tier)) ?? null) : null)),
        rows.map((r) => r.birthday),
      ],
    );
    await client.query('select pg_notify($1, $2)', [POINTS_IMPORT_CHANNEL, shop]);
    return { queued: true, id, rows: rows.length };
  });
}

export interface ImportState {
  id: string;
  fileName: string;
  createdAt: string;
  rows: number;
  done: number;
  failed: number;
  /** The customers given their balance so far (a customer given theirs by an earlier import may still be placed in a tier). */
  given: number;
  points: number;
  /** The customers given so far whose row placed them in a tier. */
  tiered: number;
  /** The customers given their birthday so far. */
  birthdays: number;
  /** The rows that gave nothing, by their line in the file, with who they named and why. */
  failures: { line: number; customer: string; reason: string }[];
}

/** The shop's latest imports, newest first, with their progress and the rows that failed. */
export async function importsOf(pool: pg.Pool, shop: string, limit = 5): Promise<ImportState[]> {
  const { rows } = await pool.query<{
    id: string;
    file_name: string;
    created_at: Date;
    rows: number;
    done: number;
    failed: number;
    given: number;
    points: number;
    tiered: number;
    birthdays: number;
    failures: ImportState['failures'] | null;
  }>(
    // The points given as a double: 10,000 rows of up to 1,000,000 points pass an integer's range.
    `select i.id, i.file_name, i.created_at, count(r.*)::int rows,
       count(*) filter (where r.status = 'done')::int done, count(*) filter (where r.status = 'failed')::int failed,
       count(*) filter (where r.status = 'done' and r.gave_balance)::int given,
       coalesce(sum(r.points) filter (where r.status = 'done' and r.gave_balance), 0)::float8 points,
       count(*) filter (where r.status = 'done' and r.tier_id is not null)::int tiered,
       count(*) filter (where r.status = 'done' and r.gave_birthday)::int birthdays,
       (select json_agg(json_build_object('line', f.line, 'customer', coalesce(f.email, f.customer_id), 'reason', f.last_error) order by f.line)
          from (select * from points_import_rows where import_id = i.id and status = 'failed' order by line limit 50) f) failures
     from points_imports i left join points_import_rows r on r.import_id = i.id
     where i.shop = $1 group by i.id order by i.created_at desc, i.id desc limit $2`,
    [shop, limit],
  );
  return rows.map((r) => ({
    id: r.id,
    fileName: r.file_name,
    createdAt: r.created_at.toISOString(),
    rows: r.rows,
    done: r.done,
    failed: r.failed,
    given: r.given,
    points: r.points,
    tiered: r.tiered,
    birthdays: r.birthdays,
    failures: r.failures ?? [],
  }));
}

interface ClaimedRow {
  import_id: string;
  line: number;
  shop: string;
  email: string | null;
  customer_id: string | null;
  points: number;
  note: string | null;
  import_note: string;
  tier_note: string | null;
  tier_id: string | null;
  birthday: string | null;
  attempts: number;
}

/** Why a row gives nothing, kept on it and shown to the merchant (`not_found` named by the admin in words). */
class Lasting extends Error {}

/** What the earning worker is given, but the earning rules. */
export type PointsImportDeps = Omit<EarningDeps, 'rules'>;

/**
 * Rows of one shop given per second by a worker process at most. A row asks Shopify once and the
 * core two to six times, so this keeps an import to under half of the account's core budget (200
 * requests a second) and a sixth of a standard shop's Admin API budget, which its orders share.
 */
const ROWS_PER_SECOND = 15;

/** How long a row Shopify or the core turned away for their rate limit waits: both refill within a second or two. */
const THROTTLED_WAIT_SECONDS = 2;

/**
 * The worker role's loop over the import rows, `lanes` at once (rows are claimed with SKIP LOCKED,
 * and a customer's rows are serialised by their lock), paced per shop so that the order earning
 * beside it keeps its share of the shop's budgets.
 */
export function pointsImportLoop(deps: PointsImportDeps, lanes: number): WorkLoop {
  const worker = new PointsImportWorker(deps);
  return new WorkLoop({
    databaseUrl: deps.databaseUrl,
    channel: POINTS_IMPORT_CHANNEL,
    name: 'loyalty-points-import',
    step: () => worker.workOne(),
    lanes,
    anyDue: async () => {
      const due = await deps.pool.query(`select 1 from points_import_rows where status = 'pending' and next_attempt_at <= now() limit 1`);
      return due.rowCount === 1;
    },
  });
}

class PointsImportWorker {
  private readonly pace = new PerKeyLimit(ROWS_PER_SECOND, ROWS_PER_SECOND);

  constructor(private readonly deps: PointsImportDeps) {}

  /** Claims one due row and gives its points; false when none is due. */
  workOne(): Promise<boolean> {
    return inTransaction(this.deps.pool, async (client) => {
      const { rows } = await client.query<ClaimedRow>(
        `select r.import_id, r.line, r.shop, r.email, r.customer_id, r.points, r.note, i.note import_note, i.tier_note, r.tier_id, r.birthday, r.attempts
         from points_import_rows r join points_imports i on i.id = r.import_id
         where r.status = 'pending' and r.next_attempt_at <= now()
         order by r.next_attempt_at, r.import_id, r.line limit 1 for update of r skip locked`,
      );
      const row = rows[0];
      if (!row) return false;
      for (let wait = this.pace.take(row.shop); wait > 0; wait = this.pace.take(row.shop)) await sleep(wait * 1000);
      const key = [row.import_id, row.line];
      try {
        const { customerId, entryId, tierEntryId, gaveBalance, gaveBirthday } = await this.give(row, client);
        await client.query(
          // The customer's id stays, which customers/redact finds them by; their e-mail is no longer needed.
          `update points_import_rows set status = 'done', attempts = attempts + 1, customer_id = $3, email = null, entry_id = $4,
             tier_entry_id = $5, gave_balance = $6, gave_birthday = $7, last_error = null, done_at = now() where import_id = $1 and line = $2`,
          [...key, customerId, entryId, tierEntryId, gaveBalance, gaveBirthday],
        );
      } catch (err) {
        const message = err instanceof Error ? err.message.split('\n')[0]!.slice(0, 300) : String(err);
        // Shopify's or the core's rate limit says nothing of the row: it waits its turn again, as
        // often as it takes, without spending an attempt.
        if (throttled(err) || (err instanceof CoreError && err.status === 429)) {
          await client.query(
            `update points_import_rows set last_error = $3, next_attempt_at = now() + make_interval(secs => $4)
             where import_id = $1 and line = $2`,
            [...key, message, THROTTLED_WAIT_SECONDS],
          );
          return true;
        }
        const attempts = row.attempts + 1;
        // A customer the shop does not have, or a refusal of the core's that asking again would not
        // change, ends the row; anything else (Shopify or the core unreachable) is asked again on the
        // retry schedule, and ends the row once that is spent, so an import always finishes.
        const lasting = err instanceof Lasting || (err instanceof CoreError && !transient(err.status));
        const seconds = lasting ? undefined : this.deps.retrySchedule[attempts - 1];
        await client.query(
          `update points_import_rows set status = $3, attempts = $4, last_error = $5,
             next_attempt_at = now() + make_interval(secs => $6) where import_id = $1 and line = $2`,
          [...key, seconds === undefined ? 'failed' : 'pending', attempts, message, seconds ?? 0],
        );
      }
      return true;
    });
  }

  private async give(
    row: ClaimedRow,
    client: pg.PoolClient,
  ): Promise<{ customerId: string; entryId: string | null; tierEntryId: string | null; gaveBalance: boolean; gaveBirthday: boolean }> {
    const account = await this.deps.shops.findInstalled(row.shop);
    if (!account) throw new Lasting('not_installed');
    const admin = await this.deps.adminFor(row.shop);
    const found: CustomerInfo | null = row.customer_id
      ? await fetchCustomer(admin, customerGid(row.customer_id))
      : await fetchCustomerByEmail(admin, row.email!);
    if (!found) throw new Lasting('not_found');
    const customerId = String(shopifyCustomerId(found.id));
    // A customer is given an imported balance once, whichever import names them: a merchant who
    // uploads a corrected file again gets its corrected rows, not every other customer's twice.
    // Held to the row's commit, so two workers never give one customer two imports' rows.
    await client.query('select pg_advisory_xact_lock(hashtext($1))', [`points-import:${row.shop}:${customerId}`]);
    const earlier = await client.query(
      "select 1 from points_import_rows where shop = $1 and customer_id = $2 and status = 'done' and gave_balance and import_id <> $3 limit 1",
      [row.shop, customerId, row.import_id],
    );
    // Given their balance already, a customer the file gives a tier or a birthday is still placed in
    // it or given it (a file of tiers after one of balances): their balance is left as it is.
    const gaveBalance = !earlier.rowCount;
    if (!gaveBalance && !row.tier_id && !row.birthday) throw new Lasting('already_imported');
    const api = accountClient(this.deps.coreUrl, account);
    const ownedById = await memberId(api, memberOfCustomer(found.id, found));
    const uniqueIdentifier = `import:${row.import_id}:${row.line}`;
    const tierNote = row.tier_note ?? row.note ?? row.import_note;
    const placed = row.tier_id
      ? await placeInTier(api, ownedById, row.tier_id, { uniqueIdentifier: `${uniqueIdentifier}:tier`, note: tierNote })
      : null;
    // The tier's entry is part of the balance the file gives: the rest, or what the tier gave beyond it taken off, is an adjustment.
    const rest = (gaveBalance ? row.points : 0) - (placed?.points ?? 0);
    const note = gaveBalance ? (row.note ?? row.import_note) : tierNote;
    const entry = rest ? await giveEntry(api, { ownedById, points: rest, reason: 'adjusted', note, uniqueIdentifier }) : null;
    const gaveBirthday = row.birthday ? await giveBirthday(api, ownedById, row.birthday) : false;
    return { customerId, entryId: entry?.id ?? null, tierEntryId: placed?.id ?? null, gaveBalance, gaveBirthday };
  }
}

/**
 * The file's birthday for a member who has none (one they or the shop set since is theirs and
 * stays); whether the member now has it (a retry finds the one its earlier attempt gave).
 */
async function giveBirthday(api: AccountClient, ownedById: string, birthday: string): Promise<boolean> {
  const member = await records(api, 'account_user').get(ownedById);
  if (!member.ok) throw new CoreError(member.failure.status);
  if (member.data.birthday) return member.data.birthday === birthday;
  const patched = await api
    .PATCH('/schema/account_user/record/{id}', { params: { path: { id: ownedById } }, body: { birthday } })
    .catch(() => {
      throw new CoreError(0);
    });
  if (!patched.data) throw new CoreError(patched.response.status, patched.error);
  return true;
}

type EntryBody = { ownedById: string; points: number; reason: 'earned' | 'adjusted'; note: string; uniqueIdentifier: string };

/** Writes the entry once: a row's earlier attempt that wrote it (the core names it on the replay) finds it with its points. */
async function giveEntry(api: AccountClient, body: EntryBody): Promise<{ id: string; points: number }> {
  const made = await api.POST('/schema/point_entry/record', { body }).catch(() => {
    throw new CoreError(0);
  });
  if (made.data) return { id: made.data.data.id, points: made.data.data.points ?? 0 };
  const given =
    made.response.status === 409 && made.error?.error?.code === 'duplicate_unique_identifier' ? await existingEntry(api, made.error) : null;
  if (!given) throw new CoreError(made.response.status, made.error);
  return given;
}

/**
 * Places the member in the tier as if they had earned its threshold today (CONTRACT §19: only
 * `earned` entries count towards tiers), so they keep it for the tier window: an `earned` entry of
 * what their window lacks, divided by the multiplier of the tier they are in (which the core
 * applies, rounding down), none when they reach it already. A retry finds the entry an earlier
 * attempt wrote under the key, whose points the member's window then already holds.
 */
async function placeInTier(
  api: AccountClient,
  ownedById: string,
  tierId: string,
  entry: { uniqueIdentifier: string; note: string },
): Promise<{ id: string; points: number } | null> {
  const [written, tier, member] = await Promise.all([
    records(api, 'point_entry').list({ filters: whereEquals('uniqueIdentifier', entry.uniqueIdentifier), limit: 1 }),
    records(api, 'tier').get(tierId),
    records(api, 'account_user').get(ownedById),
  ]);
  if (!written.ok) throw new CoreError(written.failure.status);
  if (written.data[0]) return { id: written.data[0].id, points: written.data[0].points ?? 0 };
  if (!tier.ok && tier.failure.status === 404) throw new Lasting('tier_gone');
  if (!tier.ok) throw new CoreError(tier.failure.status);
  if (!member.ok) throw new CoreError(member.failure.status);
  const lacking = (tier.data.pointsThreshold ?? 0) - (member.data.pointsEarnedInTierWindow ?? 0);
  if (lacking <= 0) return null;
  const current = member.data.tierId ? await records(api, 'tier').get(member.data.tierId) : null;
  if (current && !current.ok && current.failure.status !== 404) throw new CoreError(current.failure.status);
  const multiplier = current?.ok && current.data.status === 'live' ? Number(current.data.earnMultiplier ?? 1) : 1;
  let points = Math.ceil(lacking / multiplier);
  // As the core multiplies: what a float's division left one short is made up.
  if (Math.floor(points * multiplier + 1e-9) < lacking) points += 1;
  return giveEntry(api, { ownedById, points, reason: 'earned', note: entry.note, uniqueIdentifier: entry.uniqueIdentifier });
}
