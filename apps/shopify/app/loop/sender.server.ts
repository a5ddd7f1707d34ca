import type pg from 'pg';
import { accountClient } from '../core/client.server';
import { records, whereEquals } from '../core/records.server';
import {
  type AdminGraphql,
  adminFailure,
  changeTags,
  codeDiscountByCode,
  codeTaken,
  createCodeDiscount,
  creditStoreCredit,
  deactivateCodeDiscount,
  deleteMetafields,
  flowTriggerReceive,
  recentStoreCredits,
  setMetafields,
  type UserError,
} from '../shopify/admin-api.server';
import { storeCreditStamp, takesNoAmount } from '../shopify/reward-issuing';
import { customerGid, shopifyCustomerId } from '../shopify/customer-ids.server';
import type { ShopStore } from '../storage/shops.server';
import { WorkLoop } from '../storage/work-loop.server';
import { type DiscountSpec, OUTBOX_CHANNEL, queueTrigger } from './outbox.server';
import { triggerPayload } from './triggers.server';
import { inTransaction } from '../storage/transaction.server';

/**
 * What the worker role runs (commands/worker.server.ts): sends the Shopify loop's outbox (CONTRACT
 * §16) to Shopify — Flow triggers and code discounts, and the deactivation of revoked reward logs'
 * discounts (§17) — retrying what may heal and recording what will not. It wakes on the outbox's notifications and polls besides (retries come due, a
 * notification may be missed). Any number of senders may run against one database: each row is
 * claimed with SKIP LOCKED, so no two send it.
 */
export interface SenderDeps {
  pool: pg.Pool;
  /** For the connection the sender listens on, held apart from the pool. */
  databaseUrl: string;
  shops: ShopStore;
  coreUrl: string;
  /** Seconds before each further attempt at a row that failed and may succeed later. */
  retrySchedule: number[];
  /** The shop's Admin API client from its stored offline session. */
  adminFor(shop: string): Promise<AdminGraphql>;
}

/** An Admin API failure that may heal: throttling (HTTP 429 or GraphQL THROTTLED), 5xx, or no answer. */
function retryable(err: unknown): boolean {
  const { codes, status } = adminFailure(err);
  if (codes.length) return codes.some((code) => code === 'THROTTLED' || code === 'INTERNAL_SERVER_ERROR');
  if (status !== null) return status === 429 || status >= 500;
  return true;
}

/** The due rows of a table the sender works off, oldest due first, one at a time. */
const due = (table: 'flow_trigger_outbox' | 'reward_discounts' | 'customer_tiers') =>
  `select * from ${table} where status = 'pending' and next_attempt_at <= now() order by next_attempt_at limit 1 for update skip locked`;

const REVOKED = 'select 1 from reward_log_revocations where shop = $1 and reward_log_id = $2';

const reasonOf = (err: unknown) => (err instanceof Error ? err.message.split('\n')[0]!.slice(0, 300) : String(err));

type TierRow = { shop: string; customer_id: string; synced_tag: string | null; attempts: number };

/** The customer tag of a tier (CONTRACT §19): merchants segment on it; Shopify tags hold no commas. */
export const tierTag = (name: string) => `Loyalty tier: ${name.replaceAll(',', ' ')}`.slice(0, 255);

type TriggerRow = { id: string; shop: string; handle: string; payload: Record<string, unknown>; attempts: number };

type DiscountRow = {
  shop: string;
  reward_log_id: string;
  deactivation_attempts: number;
  customer_gid: string;
  code: string;
  discount: DiscountSpec;
  attempts: number;
  discount_gid: string | null;
  credit_transaction_gid: string | null;
  created_at: Date;
};

const describe = (errors: UserError[]) => errors.map((e) => `${(e.field ?? []).join('.')}: ${e.message}`).join('; ');

/** Whether a store credit transaction is the one a row asked for: same amount, currency and expiry (to the second). */
const sameCredit = (
  credit: { amount: string; currencyCode: string; expiresAt: string | null },
  wanted: { amount: number; currencyCode: string; expiresAt: string | null },
) =>
  Number(credit.amount) === Number(wanted.amount.toFixed(2)) &&
  credit.currencyCode === wanted.currencyCode &&
  (credit.expiresAt === null || wanted.expiresAt === null
    ? credit.expiresAt === wanted.expiresAt
    : Math.floor(Date.parse(credit.expiresAt) / 1000) === Math.floor(Date.parse(wanted.expiresAt) / 1000));

export class OutboxSender {
  private readonly loop: WorkLoop;

  constructor(private readonly deps: SenderDeps) {
    this.loop = new WorkLoop({
      databaseUrl: deps.databaseUrl,
      channel: OUTBOX_CHANNEL,
      name: 'loyalty-loop',
      step: async () =>
        (await this.sendOneTrigger()) ||
        (await this.issueOneDiscount()) ||
        (await this.deactivateOneDiscount()) ||
        (await this.syncOneTier()),
    });
  }

  /** Listens for the outbox's notifications and polls every `intervalMs` until stopped. */
  start(intervalMs = 1000): void {
    this.loop.start(intervalMs);
  }

  /** Stops listening and polling, and waits for the pass under way. */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Starts a pass over due work now (or right after the current one). */
  kick(): void {
    this.loop.kick();
  }

  /** Waits for the current pass. */
  idle(): Promise<void> {
    return this.loop.idle();
  }

  private nextAttempt(attempts: number): Date | null {
    const delay = this.deps.retrySchedule[attempts - 1];
    return delay === undefined ? null : new Date(Date.now() + delay * 1000);
  }

  /**
   * Claims one due row with FOR UPDATE SKIP LOCKED and keeps the transaction open while Shopify is
   * asked: another sender skips it, and if this one dies the database drops the lock and the row is
   * due again.
   */
  private claim<Row extends pg.QueryResultRow>(select: string, work: (row: Row, client: pg.PoolClient) => Promise<void>): Promise<boolean> {
    return inTransaction(this.deps.pool, async (client) => {
      const { rows } = await client.query<Row>(select);
      const row = rows[0];
      if (!row) return false;
      await work(row, client);
      return true;
    });
  }

  private sendOneTrigger(): Promise<boolean> {
    return this.claim<TriggerRow>(due('flow_trigger_outbox'), async (row, client) => {
      const attempts = row.attempts + 1;
      let failure: { message: string; retry: boolean } | null = null;
      try {
        const userErrors = await flowTriggerReceive(await this.deps.adminFor(row.shop), row.handle, row.payload);
        if (userErrors.length)
          failure = { message: userErrors.map((e) => `${(e.field ?? []).join('.')}: ${e.message}`).join('; '), retry: false };
      } catch (err) {
        failure = { message: reasonOf(err), retry: retryable(err) };
      }
      if (!failure) {
        await client.query(
          `update flow_trigger_outbox set status = 'sent', attempts = $2, sent_at = now(), last_error = null where id = $1`,
          [row.id, attempts],
        );
        return;
      }
      const next = failure.retry ? this.nextAttempt(attempts) : null;
      if (!next)
        console.error(`[loyalty-loop] Flow trigger ${row.handle} for ${row.shop} failed after ${attempts} attempt(s): ${failure.message}`);
      await client.query(
        `update flow_trigger_outbox set status = $2, attempts = $3, next_attempt_at = coalesce($4, next_attempt_at), last_error = $5 where id = $1`,
        [row.id, next ? 'pending' : 'failed', attempts, next, failure.message],
      );
    });
  }

  /**
   * One discount: create the reserved code at Shopify (a "code taken" answer on a retry means an
   * earlier attempt created it, since the code is this reward log's alone), then stamp it on the
   * reward log, then queue the Reward issued trigger — all before the row is marked done.
   */
  private issueOneDiscount(): Promise<boolean> {
    return this.claim<DiscountRow>(due('reward_discounts'), async (row, client) => {
      const attempts = row.attempts + 1;
      // Revoked before its code exists (CONTRACT §17): no discount is ever created for it.
      if ((await client.query(REVOKED, [row.shop, row.reward_log_id])).rowCount && !row.discount_gid && !row.credit_transaction_gid) {
        await client.query(`update reward_discounts set status = 'revoked', last_error = null where shop = $1 and reward_log_id = $2`, [
          row.shop,
          row.reward_log_id,
        ]);
        return;
      }
      const fail = async (message: string, retry: boolean) => {
        const next = retry ? this.nextAttempt(attempts) : null;
        if (!next)
          console.error(
            `[loyalty-loop] discount for reward log ${row.reward_log_id} of ${row.shop} failed after ${attempts} attempt(s): ${message}`,
          );
        await client.query(
          `update reward_discounts set status = $3, attempts = $4, next_attempt_at = coalesce($5, next_attempt_at), last_error = $6 where shop = $1 and reward_log_id = $2`,
          [row.shop, row.reward_log_id, next ? 'pending' : 'failed', attempts, next, message],
        );
      };
      const spec = row.discount;
      const storeCredit = spec.kind === 'store_credit';
      if (storeCredit && !row.credit_transaction_gid) {
        try {
          const credited = await this.creditOnce(row, client);
          if (credited.userErrors.length) return fail(describe(credited.userErrors), false);
        } catch (err) {
          return fail(reasonOf(err), retryable(err));
        }
      }
      let discountGid = row.discount_gid;
      if (!storeCredit && !discountGid) {
        try {
          const created = await createCodeDiscount(await this.deps.adminFor(row.shop), {
            title: spec.title,
            code: row.code,
            customerGid: row.customer_gid,
            discountType: spec.kind && takesNoAmount(spec.kind) ? spec.kind : spec.discountType,
            discountValue: spec.discountValue,
            ...(spec.variant ? { variant: spec.variant } : {}),
            startsAt: row.created_at.toISOString(),
            endsAt: spec.endsAt,
            ...(spec.minimum !== undefined ? { minimum: spec.minimum } : {}),
            ...(spec.collections ? { collections: spec.collections } : {}),
            ...(spec.combinesWith ? { combinesWith: spec.combinesWith } : {}),
          });
          if (created.userErrors.length && !codeTaken(created.userErrors)) return fail(describe(created.userErrors), false);
          discountGid = created.id ?? 'existing';
          await client.query('update reward_discounts set discount_gid = $3 where shop = $1 and reward_log_id = $2', [
            row.shop,
            row.reward_log_id,
            discountGid,
          ]);
        } catch (err) {
          return fail(reasonOf(err), retryable(err));
        }
      }
      const stamp = storeCredit ? storeCreditStamp(spec.discountValue, spec.currencyCode ?? '') : row.code;
      const account = await this.deps.shops.findInstalled(row.shop);
      if (!account) return fail('the shop is not installed', true);
      const stamped = await accountClient(this.deps.coreUrl, account)
        .PATCH('/schema/reward_log/record/{id}', {
          params: { path: { id: row.reward_log_id } },
          body: { couponCode: stamp, ...(spec.endsAt ? { rewardExpiryAt: spec.endsAt } : {}) },
        })
        .catch(() => null);
      if (!stamped?.data) {
        const status = stamped?.response.status;
        if (status === 409 && stamped?.error?.error?.code === 'reward_log_not_issued') {
          // Revoked while its discount was being made: the discount is ended like any revoked one's.
          await client.query('insert into reward_log_revocations (shop, reward_log_id) values ($1, $2) on conflict do nothing', [
            row.shop,
            row.reward_log_id,
          ]);
          await client.query(`update reward_discounts set status = 'revoked', attempts = $3 where shop = $1 and reward_log_id = $2`, [
            row.shop,
            row.reward_log_id,
            attempts,
          ]);
          return;
        }
        return fail(
          `stamping the code on the reward log: the core answered ${status ?? 'nothing'}`,
          status === undefined || status >= 500 || status === 429 || status === 401,
        );
      }
      await client.query(
        `update reward_discounts set status = 'stamped', attempts = $3, stamped_at = now(), last_error = null where shop = $1 and reward_log_id = $2`,
        [row.shop, row.reward_log_id, attempts],
      );
      const { rows: used } = await client.query('select 1 from flow_trigger_usage where shop = $1 and handle = $2 and enabled', [
        row.shop,
        'loyalty-reward-issued',
      ]);
      const customerId = shopifyCustomerId(row.customer_gid);
      if (used.length && customerId !== null) {
        await queueTrigger(client, {
          shop: row.shop,
          key: `reward_log:${row.reward_log_id}`,
          handle: 'loyalty-reward-issued',
          subject: row.reward_log_id,
          payload: triggerPayload(customerId, { ...spec.triggerFields, coupon_code: stamp }),
        });
      }
    });
  }

  /**
   * Credits the row's store credit exactly once. The 2025-10 Admin API has no idempotency key for
   * `storeCreditAccountCredit` (Shopify's `@idempotent` directive covers inventory and refund
   * mutations only, from 2026-01), so an attempt is recorded and committed on its own before the
   * mutation is sent, and a row with an earlier attempt first reconciles: the customer's credits
   * made since the row was reserved with the same amount, currency and expiry, not already taken
   * by another row, are this row's credit. The window that remains: a credit Shopify makes after
   * the reconciling read (an interrupted request Shopify is still working on when the retry reads)
   * is missed and credited again; and a credit of the same amount, currency and expiry that the
   * merchant gives the same customer by hand between the interrupted attempt and the retry is
   * taken for this one, so the reward is not credited. The transaction is recorded on the row,
   * which the claim's transaction commits with the stamp.
   */
  private async creditOnce(row: DiscountRow, client: pg.PoolClient): Promise<{ userErrors: UserError[] }> {
    const spec = row.discount;
    const wanted = { amount: spec.discountValue, currencyCode: spec.currencyCode ?? '', expiresAt: spec.endsAt };
    const admin = await this.deps.adminFor(row.shop);
    const record = (id: string) =>
      client.query('update reward_discounts set credit_transaction_gid = $3 where shop = $1 and reward_log_id = $2', [
        row.shop,
        row.reward_log_id,
        id,
      ]);
    const { rowCount: tried } = await this.deps.pool.query('select 1 from store_credit_attempts where shop = $1 and reward_log_id = $2', [
      row.shop,
      row.reward_log_id,
    ]);
    if (tried) {
      const { rows: taken } = await client.query<{ credit_transaction_gid: string }>(
        'select credit_transaction_gid from reward_discounts where shop = $1 and customer_gid = $2 and credit_transaction_gid is not null',
        [row.shop, row.customer_gid],
      );
      const claimed = new Set(taken.map((t) => t.credit_transaction_gid));
      const since = row.created_at.getTime() - 60_000;
      const found = (await recentStoreCredits(admin, row.customer_gid)).find(
        (c) => !claimed.has(c.id) && Date.parse(c.createdAt) >= since && sameCredit(c, wanted),
      );
      if (found) {
        await record(found.id);
        return { userErrors: [] };
      }
    }
    // Committed at once (outside the claim's transaction): it must survive this process.
    await this.deps.pool.query('insert into store_credit_attempts (shop, reward_log_id) values ($1, $2)', [row.shop, row.reward_log_id]);
    const credited = await creditStoreCredit(admin, { customerGid: row.customer_gid, ...wanted });
    if (credited.id) await record(credited.id);
    return { userErrors: credited.userErrors };
  }

  /**
   * One revoked reward log's discount (CONTRACT §17): found by its code; left as it is when it was
   * used, else deactivated with `discountCodeDeactivate`. The row is locked while Shopify is asked,
   * and one found already ended counts as deactivated, so a discount is deactivated once.
   */
  private deactivateOneDiscount(): Promise<boolean> {
    return this.claim<DiscountRow>(
      `select d.* from reward_log_revocations v
         join reward_discounts d on d.shop = v.shop and d.reward_log_id = v.reward_log_id
        where d.discount_gid is not null and d.deactivation is null and coalesce(d.discount->>'kind', '') <> 'store_credit' and d.status <> 'pending' and d.next_attempt_at <= now()
        order by v.created_at limit 1 for update of d skip locked`,
      async (row, client) => {
        const attempts = row.deactivation_attempts + 1;
        const record = (deactivation: string, error: string | null = null) =>
          client.query(
            `update reward_discounts set deactivation = $3, deactivation_attempts = $4, deactivated_at = now(), last_error = coalesce($5, last_error)
             where shop = $1 and reward_log_id = $2`,
            [row.shop, row.reward_log_id, deactivation, attempts, error],
          );
        try {
          const admin = await this.deps.adminFor(row.shop);
          const found = await codeDiscountByCode(admin, row.code);
          if (!found) return void (await record('not_found'));
          if (found.usageCount > 0) return void (await record('used'));
          if (found.status !== 'ACTIVE' && found.status !== 'SCHEDULED') return void (await record('deactivated'));
          const userErrors = await deactivateCodeDiscount(admin, found.id);
          if (userErrors.length) return void (await record('failed', userErrors.map((e) => e.message).join('; ')));
          await record('deactivated');
        } catch (err) {
          const next = retryable(err) ? this.nextAttempt(attempts) : null;
          if (!next) {
            console.error(
              `[loyalty-loop] deactivating the discount of revoked reward log ${row.reward_log_id} of ${row.shop}: ${reasonOf(err)}`,
            );
            return void (await record('failed', reasonOf(err)));
          }
          await client.query(
            `update reward_discounts set deactivation_attempts = $3, next_attempt_at = $4, last_error = $5 where shop = $1 and reward_log_id = $2`,
            [row.shop, row.reward_log_id, attempts, next, reasonOf(err)],
          );
        }
      },
    );
  }

  /**
   * One customer's tier onto their Shopify record, as the core has it now: the tag of the tier (the
   * one set before removed) and the metafield `$app:loyalty.tier` (deleted when they are in no
   * tier). Each call is idempotent, so a retry after a crash between them ends the same.
   */
  private syncOneTier(): Promise<boolean> {
    return this.claim<TierRow>(due('customer_tiers'), async (row, client) => {
      const attempts = row.attempts + 1;
      const owner = customerGid(row.customer_id);
      try {
        const name = await this.tierName(row.shop, owner);
        const tag = name ? tierTag(name) : null;
        const admin = await this.deps.adminFor(row.shop);
        await changeTags(admin, owner, tag ? [tag] : [], row.synced_tag && row.synced_tag !== tag ? [row.synced_tag] : []);
        if (name)
          await setMetafields(admin, [
            { ownerId: owner, namespace: '$app:loyalty', key: 'tier', type: 'single_line_text_field', value: name },
          ]);
        else await deleteMetafields(admin, owner, '$app:loyalty', ['tier']);
        await client.query(
          `update customer_tiers set status = 'synced', attempts = $3, synced_tag = $4, last_error = null where shop = $1 and customer_id = $2`,
          [row.shop, row.customer_id, attempts, tag],
        );
      } catch (err) {
        const next = retryable(err) ? this.nextAttempt(attempts) : null;
        if (!next) console.error(`[loyalty-loop] the tier of customer ${row.customer_id} of ${row.shop}: ${reasonOf(err)}`);
        await client.query(
          `update customer_tiers set status = $3, attempts = $4, next_attempt_at = coalesce($5, next_attempt_at), last_error = $6
           where shop = $1 and customer_id = $2`,
          [row.shop, row.customer_id, next ? 'pending' : 'failed', attempts, next, reasonOf(err)],
        );
      }
    });
  }

  /** The name of the customer's tier in the core now; null when they are in none (or no member). */
  private async tierName(shop: string, externalId: string): Promise<string | null> {
    const account = await this.deps.shops.findInstalled(shop);
    if (!account) throw new Error('the shop is not installed');
    const api = accountClient(this.deps.coreUrl, account);
    const members = await records(api, 'account_user').list({ filters: whereEquals('externalId', externalId), limit: 1 });
    if (!members.ok) throw new Error(`the core answered ${members.failure.status} for the member`);
    const tierId = members.data[0]?.tierId;
    if (!tierId) return null;
    const tier = await api.GET('/schema/tier/record/{id}', { params: { path: { id: tierId } } });
    if (tier.response.status === 404) return null;
    if (!tier.data) throw new Error(`the core answered ${tier.response.status} for the tier`);
    return tier.data.data.name ?? null;
  }
}
