import { randomBytes } from 'node:crypto';
import { verifyWebhook, WebhookVerificationError, type WebhookEnvelope } from '@loyalty/client';
import type pg from 'pg';
import { type AdminGraphql, createBasicCodeDiscount, customerGid, flowTriggerReceive } from './admin-api.server';
import { accountClient } from './core.server';
import type { ShopAccount, ShopStore } from './shops.server';
import {
  type IssuedRewardLog,
  issuedRewardLogs,
  rewardExpiry,
  rewardIssuedFields,
  shopifyCustomerId,
  SUBSCRIBED_EVENT_CODES,
  TRIGGER_HANDLES,
  triggerPayload,
  triggersFor,
} from './triggers.server';

/**
 * The Shopify loop (CONTRACT §16): the core webhook the app registers per shop, its deliveries
 * turned into rows of the app's outbox in one transaction (unique per event, so a redelivery adds
 * nothing), and the worker that sends those rows to Shopify — Flow triggers and code discounts —
 * retrying what may heal and recording what will not.
 */
export interface LoopDeps {
  pool: pg.Pool;
  /** Settles once the app's tables are migrated: a pass waits for it, as a fresh database has none yet. */
  ready: Promise<void>;
  shops: ShopStore;
  coreUrl: string;
  eventsUrl: string;
  retrySchedule: number[];
  /** The shop's Admin API client from its stored offline session. */
  adminFor(shop: string): Promise<AdminGraphql>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Makes sure the shop's account has exactly one live webhook to the app for the codes it needs, and
 * that the app holds its secret. Idempotent: it finds the stored one, else one already pointing at
 * the app (a crash between create and store), and creates only when there is none. Callers hold the
 * shop's lock, so two processes never both create.
 */
export async function ensureCoreWebhook(
  deps: Pick<LoopDeps, 'coreUrl' | 'eventsUrl'>,
  store: ShopStore,
  account: ShopAccount,
): Promise<void> {
  const api = accountClient(deps.coreUrl, account);
  const stored = await store.coreWebhook(account.shop);
  type Hook = {
    id: string;
    status?: string | null;
    endpointUrl?: string | null;
    eventCodes?: string[] | null;
    webhookSecret?: string | null;
  };
  let hook: Hook | null = null;
  if (stored) {
    const found = await api.GET('/schema/webhook/record/{id}', { params: { path: { id: stored.id } } });
    if (found.data) hook = found.data.data as Hook;
    else if (found.response.status !== 404) throw new Error(`core answered ${found.response.status} reading the app's webhook`);
  }
  if (!hook) {
    const filters = JSON.stringify({
      operator: 'and',
      conditions: [{ fieldSlug: 'endpointUrl', operator: 'equals', fieldValue: deps.eventsUrl }],
    });
    const listed = await api.GET('/schema/webhook/record', { params: { query: { filters, limit: 1 } as never } });
    if (!listed.data) throw new Error(`core answered ${listed.response.status} listing webhooks`);
    hook = ((listed.data as { data: Hook[] }).data[0] as Hook | undefined) ?? null;
  }
  const wanted = { status: 'live', endpointUrl: deps.eventsUrl, eventCodes: [...SUBSCRIBED_EVENT_CODES] };
  if (!hook) {
    const made = await api.POST('/schema/webhook/record', {
      body: { name: 'Shopify app (Flow triggers and discounts)', ...wanted } as never,
    });
    if (!made.data) throw new Error(`core answered ${made.response.status} creating the app's webhook`);
    hook = (made.data as { data: Hook }).data;
  } else {
    const codes = new Set(hook.eventCodes ?? []);
    if (
      hook.status !== 'live' ||
      hook.endpointUrl !== deps.eventsUrl ||
      codes.size !== wanted.eventCodes.length ||
      wanted.eventCodes.some((c) => !codes.has(c))
    ) {
      const patched = await api.PATCH('/schema/webhook/record/{id}', { params: { path: { id: hook.id } }, body: wanted as never });
      if (!patched.data) throw new Error(`core answered ${patched.response.status} repairing the app's webhook`);
      hook = (patched.data as { data: Hook }).data;
    }
  }
  if (!hook.webhookSecret) throw new Error("the core returned the app's webhook without its secret");
  if (stored?.id !== hook.id || stored.secret !== hook.webhookSecret)
    await store.saveCoreWebhook(account.shop, hook.id, hook.webhookSecret);
}

/** A code nobody can guess, reserved for one reward log before Shopify is asked. */
function discountCode(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  return `LOYALTY-${[...randomBytes(10)].map((b) => alphabet[b % alphabet.length]).join('')}`;
}

/** An Admin API failure that may heal: throttling (HTTP 429 or GraphQL THROTTLED), 5xx, or no answer. */
function retryable(err: unknown): boolean {
  const e = err as {
    response?: { code?: number } | Response;
    body?: { errors?: { graphQLErrors?: { extensions?: { code?: string } }[] } };
  };
  const graphql = e.body?.errors?.graphQLErrors;
  if (graphql?.length) return graphql.some((g) => g.extensions?.code === 'THROTTLED' || g.extensions?.code === 'INTERNAL_SERVER_ERROR');
  const code = (e.response as { code?: number } | undefined)?.code;
  if (typeof code === 'number') return code === 429 || code >= 500;
  return true;
}

const reasonOf = (err: unknown) => (err instanceof Error ? err.message.split('\n')[0]!.slice(0, 300) : String(err));

export class ShopifyLoop {
  private running: Promise<void> | null = null;
  private again = false;

  constructor(private readonly deps: LoopDeps) {}

  /** The lifecycle callback: whether the shop has an enabled workflow using `handle`. */
  /**
   * Flow's callbacks may arrive out of order: the newest notification wins (Shopify's docs), so an
   * older "disabled" arriving late cannot switch off a trigger a later workflow enabled.
   */
  async setTriggerUsage(shop: string, handle: string, enabled: boolean, notifiedAt: Date): Promise<void> {
    await this.deps.pool.query(
      `insert into flow_trigger_usage (shop, handle, enabled, notified_at) values ($1, $2, $3, $4)
       on conflict (shop, handle) do update set enabled = excluded.enabled, notified_at = excluded.notified_at
       where flow_trigger_usage.notified_at < excluded.notified_at`,
      [shop, handle, enabled, notifiedAt],
    );
  }

  async shopifyDiscountRewards(shop: string): Promise<Set<string>> {
    const { rows } = await this.deps.pool.query<{ reward_id: string }>('select reward_id from shopify_discount_rewards where shop = $1', [
      shop,
    ]);
    return new Set(rows.map((r) => r.reward_id));
  }

  async setShopifyDiscount(shop: string, rewardId: string, on: boolean): Promise<void> {
    if (on)
      await this.deps.pool.query('insert into shopify_discount_rewards (shop, reward_id) values ($1, $2) on conflict do nothing', [
        shop,
        rewardId,
      ]);
    else await this.deps.pool.query('delete from shopify_discount_rewards where shop = $1 and reward_id = $2', [shop, rewardId]);
  }

  /** Reward logs of a reward still without a code after the retries, for the reward's admin page. */
  async failedDiscounts(
    shop: string,
    rewardId: string,
  ): Promise<{ rewardLogId: string; customerGid: string; reason: string; attempts: number }[]> {
    const { rows } = await this.deps.pool.query<{
      reward_log_id: string;
      customer_gid: string;
      last_error: string | null;
      attempts: number;
    }>(
      `select reward_log_id, customer_gid, last_error, attempts from reward_discounts where shop = $1 and reward_id = $2 and status = 'failed' order by created_at`,
      [shop, rewardId],
    );
    return rows.map((r) => ({
      rewardLogId: r.reward_log_id,
      customerGid: r.customer_gid,
      reason: r.last_error ?? 'unknown',
      attempts: r.attempts,
    }));
  }

  /** The admin's Retry: the failed discount is due again with a fresh round of attempts. */
  async retryDiscount(shop: string, rewardLogId: string): Promise<boolean> {
    const { rowCount } = await this.deps.pool.query(
      `update reward_discounts set status = 'pending', attempts = 0, next_attempt_at = now() where shop = $1 and reward_log_id = $2 and status = 'failed'`,
      [shop, rewardLogId],
    );
    this.kick();
    return (rowCount ?? 0) > 0;
  }

  /**
   * A core delivery: verified with the client's receiver (both signatures, timestamp tolerance),
   * mapped to triggers and discounts, and queued durably before the 2xx. 401 for a bad signature,
   * 503 when the core cannot be asked about the member (the core retries).
   */
  async receive(request: Request): Promise<Response> {
    const raw = Buffer.from(await request.arrayBuffer());
    let accountId: unknown;
    try {
      accountId = (JSON.parse(raw.toString('utf8')) as { accountId?: unknown }).accountId;
    } catch {
      return Response.json({ error: 'body is not JSON' }, { status: 400 });
    }
    const shop = typeof accountId === 'string' && UUID.test(accountId) ? await this.deps.shops.shopOfAccount(accountId) : null;
    const hook = shop ? await this.deps.shops.coreWebhook(shop) : null;
    const account = shop ? await this.deps.shops.findInstalled(shop) : null;
    if (!shop || !hook || !account) return Response.json({ error: 'unknown account' }, { status: 401 });
    let envelope: WebhookEnvelope;
    try {
      envelope = verifyWebhook({ secret: hook.secret, body: raw, headers: request.headers });
    } catch (err) {
      if (err instanceof WebhookVerificationError) return Response.json({ error: err.message }, { status: 401 });
      throw err;
    }
    const api = accountClient(this.deps.coreUrl, account);
    const discountRewards = await this.shopifyDiscountRewards(shop);
    const { rows: usage } = await this.deps.pool.query<{ handle: string }>(
      'select handle from flow_trigger_usage where shop = $1 and enabled',
      [shop],
    );
    const used = new Set(usage.map((u) => u.handle));
    const triggerRows: [string, string, string, unknown][] = [];
    const discountRows: [string, string, string, string, unknown][] = [];
    for (const event of envelope.events) {
      if (!event.ownedById) continue;
      const member = await api.GET('/schema/account_user/record/{id}', { params: { path: { id: event.ownedById } } }).catch(() => null);
      if (!member || (!member.data && member.response.status !== 404))
        return Response.json({ error: 'the core did not answer the member lookup' }, { status: 503 });
      const customerId = member.data ? shopifyCustomerId(member.data.data.externalId) : null;
      // Members that are not Shopify customers (or erased since) fire nothing.
      if (customerId === null) continue;
      for (const send of triggersFor(event.eventCode, event.payload, discountRewards)) {
        if (used.has(send.handle)) triggerRows.push([event.id, send.handle, send.subject, triggerPayload(customerId, send.fields)]);
      }
      for (const log of issuedRewardLogs(event.eventCode, event.payload)) {
        if (discountRewards.has(log.rewardId) && !log.couponCode)
          discountRows.push([log.id, log.rewardId, customerGid(customerId), discountCode(), this.discountSpec(log)]);
      }
    }
    const client = await this.deps.pool.connect();
    try {
      await client.query('begin');
      for (const [eventId, handle, subject, payload] of triggerRows) {
        await client.query(
          'insert into flow_trigger_outbox (shop, event_id, handle, subject, payload) values ($1, $2, $3, $4, $5) on conflict do nothing',
          [shop, eventId, handle, subject, JSON.stringify(payload)],
        );
      }
      for (const [rewardLogId, rewardId, gid, code, spec] of discountRows) {
        await client.query(
          'insert into reward_discounts (shop, reward_log_id, reward_id, customer_gid, code, discount) values ($1, $2, $3, $4, $5, $6) on conflict do nothing',
          [shop, rewardLogId, rewardId, gid, code, JSON.stringify(spec)],
        );
      }
      await client.query('commit');
    } catch (err) {
      await client.query('rollback');
      throw err;
    } finally {
      client.release();
    }
    this.kick();
    return Response.json({ ok: true });
  }

  private discountSpec(log: IssuedRewardLog) {
    const reward = log.reward ?? {};
    return {
      title: `Loyalty reward: ${(reward.name ?? 'reward').slice(0, 200)}`,
      discountType: reward.discountType === 'fixed_amount' ? 'fixed_amount' : 'percentage',
      discountValue: Number(reward.discountValue ?? 0),
      endsAt: rewardExpiry(log),
      triggerFields: rewardIssuedFields(log, null),
    };
  }

  /** Starts a pass over due work now (or right after the current one). */
  kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await this.deps.ready;
          while ((await this.sendOneTrigger()) || (await this.issueOneDiscount()));
        } catch (err) {
          console.error(`[loyalty-loop] pass failed: ${reasonOf(err)}`);
        }
      } while (this.again);
    })().finally(() => (this.running = null));
  }

  /** Polls for due work (retries, and rows left by a process that stopped); returns a stop function. */
  start(intervalMs = 1000): () => void {
    const timer = setInterval(() => this.kick(), intervalMs);
    timer.unref();
    this.kick();
    return () => clearInterval(timer);
  }

  /** Waits for the current pass, for tests and shutdown. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private nextAttempt(attempts: number): Date | null {
    const delay = this.deps.retrySchedule[attempts - 1];
    return delay === undefined ? null : new Date(Date.now() + delay * 1000);
  }

  /**
   * Claims one due row with FOR UPDATE SKIP LOCKED and keeps the transaction open while Shopify is
   * asked: another process skips it, and if this process dies the database drops the lock and the
   * row is due again.
   */
  private async claim<Row>(
    table: 'flow_trigger_outbox' | 'reward_discounts',
    work: (row: Row, client: pg.PoolClient) => Promise<void>,
  ): Promise<boolean> {
    const client = await this.deps.pool.connect();
    try {
      await client.query('begin');
      const { rows } = await client.query(
        `select * from ${table} where status = 'pending' and next_attempt_at <= now() order by next_attempt_at limit 1 for update skip locked`,
      );
      const row = rows[0] as Row | undefined;
      if (!row) {
        await client.query('commit');
        return false;
      }
      await work(row, client);
      await client.query('commit');
      return true;
    } catch (err) {
      await client.query('rollback').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  private sendOneTrigger(): Promise<boolean> {
    type Row = { id: string; shop: string; handle: string; payload: Record<string, unknown>; attempts: number };
    return this.claim<Row>('flow_trigger_outbox', async (row, client) => {
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
    type Spec = {
      title: string;
      discountType: 'percentage' | 'fixed_amount';
      discountValue: number;
      endsAt: string | null;
      triggerFields: Record<string, unknown>;
    };
    type Row = {
      shop: string;
      reward_log_id: string;
      customer_gid: string;
      code: string;
      discount: Spec;
      attempts: number;
      discount_gid: string | null;
      created_at: Date;
    };
    return this.claim<Row>('reward_discounts', async (row, client) => {
      const attempts = row.attempts + 1;
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
      let discountGid = row.discount_gid;
      if (!discountGid) {
        try {
          const created = await createBasicCodeDiscount(await this.deps.adminFor(row.shop), {
            title: row.discount.title,
            code: row.code,
            customerGid: row.customer_gid,
            discountType: row.discount.discountType,
            discountValue: row.discount.discountValue,
            startsAt: row.created_at.toISOString(),
            endsAt: row.discount.endsAt,
          });
          const taken = created.userErrors.some((e) => e.code === 'TAKEN' || /already (been )?taken|must be unique/i.test(e.message));
          if (created.userErrors.length && !taken)
            return fail(created.userErrors.map((e) => `${(e.field ?? []).join('.')}: ${e.message}`).join('; '), false);
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
      const account = await this.deps.shops.findInstalled(row.shop);
      if (!account) return fail('the shop is not installed', true);
      const stamped = await accountClient(this.deps.coreUrl, account)
        .PATCH('/schema/reward_log/record/{id}', {
          params: { path: { id: row.reward_log_id } },
          body: { couponCode: row.code, ...(row.discount.endsAt ? { rewardExpiryAt: row.discount.endsAt } : {}) },
        })
        .catch(() => null);
      if (!stamped?.data) {
        const status = stamped?.response.status;
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
        await client.query(
          `insert into flow_trigger_outbox (shop, event_id, handle, subject, payload) values ($1, $2, 'loyalty-reward-issued', $3, $4) on conflict do nothing`,
          [
            row.shop,
            `reward_log:${row.reward_log_id}`,
            row.reward_log_id,
            JSON.stringify(triggerPayload(customerId, { ...row.discount.triggerFields, coupon_code: row.code })),
          ],
        );
        this.again = true;
      }
    });
  }
}

export const KNOWN_TRIGGERS: ReadonlySet<string> = new Set(TRIGGER_HANDLES);
