import { randomBytes } from 'node:crypto';
import { verifyWebhook, WebhookVerificationError } from '@loyalty/client';
import type pg from 'pg';
import { boundedBody, errorAnswer } from '../http.server';
import { config } from '../config.server';
import { accountClient } from '../core/client.server';
import { isJsonObject, type JsonObject, objectOf } from '../json';
import { customerGid, shopifyCustomerId } from '../shopify/customer-ids.server';
import {
  type CombinesWith,
  discountReach,
  type IssuingSpec,
  issuingSpecOf,
  type MinimumRequirement,
  type RewardKind,
} from '../shopify/reward-issuing';
import type { TriggerHandle } from '../shopify/flow-extensions';
import { pool } from '../storage/pool.server';
import type { ShopStore } from '../storage/shops.server';
import { inTransaction } from '../storage/transaction.server';
import { shops } from '../storage/stores.server';
import {
  type IssuedRewardLog,
  issuedRewardLogs,
  revokedRewardLogIds,
  rewardExpiry,
  rewardIssuedFields,
  triggerPayload,
  triggersFor,
} from './triggers.server';
import { isRecordId } from '../core/ids';

/**
 * The Shopify loop's outbox (CONTRACT §16), as the web role sees it: the core's deliveries turned
 * into rows in one transaction (unique per event, so a redelivery adds nothing), which Flow
 * triggers each shop's workflows use, and which rewards are issued as Shopify discounts, with the
 * ones that failed; reward logs acted on only once issued, and revoked ones recorded so their
 * discounts end (CONTRACT §17). The worker role sends the rows (sender.server.ts).
 */

/** The channel a committed row is announced on, so a sender sends it at once instead of at its next poll. */
export const OUTBOX_CHANNEL = 'loyalty_shopify_outbox';

/** Queues a Flow trigger's send in `db`, a transaction's, so it commits with what fired it; a key queued before stays as it was. */
export async function queueTrigger(
  db: pg.ClientBase,
  row: { shop: string; key: string; handle: TriggerHandle; subject: string; payload: JsonObject },
): Promise<void> {
  await db.query(
    'insert into flow_trigger_outbox (shop, event_id, handle, subject, payload) values ($1, $2, $3, $4, $5) on conflict do nothing',
    [row.shop, row.key, row.handle, row.subject, JSON.stringify(row.payload)],
  );
}

/**
 * A discount or store credit to create, as reserved with its reward log's row: the reward's
 * settings at that moment, so a later change in the editor does not alter it. Rows reserved
 * before the editor had these settings carry only `discountType` and `discountValue`.
 */
export interface DiscountSpec {
  title: string;
  discountType: 'percentage' | 'fixed_amount';
  discountValue: number;
  endsAt: string | null;
  /** The Reward issued trigger's fields, sent once the code exists. */
  triggerFields: Record<string, unknown>;
  kind?: RewardKind;
  minimum?: MinimumRequirement;
  /** Collection GIDs; none: all products. */
  collections?: string[];
  /** A free product's variant (GID). */
  variant?: string;
  combinesWith?: CombinesWith;
  currencyCode?: string;
}

/** What the app made at Shopify for one reward log, as the member page shows it. */
export interface IssuedAtShopify {
  /** A revoked reward log's discount: deactivated, used, not_found or failed; null while not revoked. */
  deactivation: string | null;
  /** The store credit the reward log stands for, credited to the customer's account; null for a discount. */
  storeCredit: { amount: number; currency: string } | null;
  /** The Reward issued fields the loop sends (they name free shipping and store credit, which the core's reward cannot). */
  triggerFields: JsonObject;
}

export interface FailedDiscount {
  rewardLogId: string;
  customerGid: string;
  reason: string;
  attempts: number;
}

export interface OutboxDeps {
  pool: () => pg.Pool;
  shops: ShopStore;
  coreUrl: string;
}

/** One event of a delivery, as the outbox reads it. */
interface DeliveredEvent {
  id: string;
  eventCode: string;
  ownedById: string | null;
  payload: JsonObject;
}

/**
 * The delivery's events, or null when the signed body is not the envelope the core sends: a
 * signature proves who sent a body, not that it has the shape the outbox reads.
 */
function deliveredEvents(envelope: unknown): DeliveredEvent[] | null {
  const { events } = objectOf(envelope);
  if (!Array.isArray(events)) return null;
  const read: DeliveredEvent[] = [];
  for (const event of events) {
    if (!isJsonObject(event) || typeof event.id !== 'string' || typeof event.eventCode !== 'string' || !isJsonObject(event.payload))
      return null;
    const ownedById = event.ownedById ?? null;
    if (ownedById !== null && !(typeof ownedById === 'string' && isRecordId(ownedById))) return null;
    read.push({ id: event.id, eventCode: event.eventCode, ownedById, payload: event.payload });
  }
  return read;
}

/** A code nobody can guess, reserved for one reward log before Shopify is asked. */
function discountCode(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  return `LOYALTY-${[...randomBytes(10)].map((b) => alphabet[b % alphabet.length]).join('')}`;
}

function discountSpec(log: IssuedRewardLog, issuing: IssuingSpec | undefined): DiscountSpec {
  const reward = log.reward ?? {};
  const discountType = reward.discountType === 'fixed_amount' ? 'fixed_amount' : 'percentage';
  const fields = rewardIssuedFields(log, null);
  return {
    title: `Loyalty reward: ${(reward.name ?? 'reward').slice(0, 200)}`,
    discountType,
    discountValue: Number(reward.discountValue ?? 0),
    endsAt: rewardExpiry(log),
    // Flow's Reward issued names free shipping, a free product and store credit, which the core's type cannot.
    triggerFields: issuing ? { ...fields, discount_type: issuing.kind } : fields,
    ...(issuing ? { kind: issuing.kind, ...discountReach(issuing), currencyCode: issuing.currencyCode } : {}),
  };
}

/** The core's deliveries carry one event each, far below this; anything larger is refused unread. */
const MAX_DELIVERY_BYTES = 1024 * 1024;
export class Outbox {
  constructor(private readonly deps: OutboxDeps) {}

  /**
   * Flow's lifecycle callback: whether the shop has an enabled workflow using `handle`. Flow's
   * callbacks may arrive out of order: the newest notification wins (Shopify's docs), so an older
   * "disabled" arriving late cannot switch off a trigger a later workflow enabled.
   */
  async setTriggerUsage(shop: string, handle: TriggerHandle, enabled: boolean, notifiedAt: Date): Promise<void> {
    await this.deps.pool().query(
      `insert into flow_trigger_usage (shop, handle, enabled, notified_at) values ($1, $2, $3, $4)
       on conflict (shop, handle) do update set enabled = excluded.enabled, notified_at = excluded.notified_at
       where flow_trigger_usage.notified_at < excluded.notified_at`,
      [shop, handle, enabled, notifiedAt],
    );
  }

  /** Whether the shop's Flow uses the trigger, as the lifecycle callback last told (read through `db`, a transaction's, when given). */
  async usesTrigger(shop: string, handle: TriggerHandle, db: pg.Pool | pg.ClientBase = this.deps.pool()): Promise<boolean> {
    const { rowCount } = await db.query('select 1 from flow_trigger_usage where shop = $1 and handle = $2 and enabled', [shop, handle]);
    return (rowCount ?? 0) > 0;
  }

  /**
   * Queues "Referral gift claimed" in the claim's own transaction, when a workflow of the shop uses
   * it: once per gift code, however often the claim's last step runs (a claim taking over one that died).
   */
  async giftClaimed(db: pg.ClientBase, shop: string, referrerCustomerId: number, fields: JsonObject): Promise<void> {
    const handle = 'loyalty-referral-gift-claimed';
    if (!(await this.usesTrigger(shop, handle, db))) return;
    const code = String(fields.gift_code);
    await queueTrigger(db, { shop, key: `gift:${code}`, handle, subject: code, payload: triggerPayload(referrerCustomerId, fields) });
    await db.query('select pg_notify($1, $2)', [OUTBOX_CHANNEL, shop]);
  }

  async shopifyDiscountRewards(shop: string): Promise<Set<string>> {
    const { rows } = await this.deps
      .pool()
      .query<{ reward_id: string }>('select reward_id from shopify_discount_rewards where shop = $1', [shop]);
    return new Set(rows.map((r) => r.reward_id));
  }

  /** The editor's settings of the rewards the app issues, by reward. */
  async issuingSpecs(shop: string): Promise<Map<string, IssuingSpec>> {
    const { rows } = await this.deps
      .pool()
      .query<{ reward_id: string; spec: unknown }>('select reward_id, spec from reward_issuing where shop = $1', [shop]);
    return new Map(
      rows.flatMap((r) => {
        const spec = issuingSpecOf(r.spec);
        return spec ? [[r.reward_id, spec] as const] : [];
      }),
    );
  }

  /** Stores (or, with null, forgets) how the app issues the reward. */
  async setIssuingSpec(shop: string, rewardId: string, spec: IssuingSpec | null): Promise<void> {
    if (spec)
      await this.deps.pool().query(
        `insert into reward_issuing (shop, reward_id, spec) values ($1, $2, $3)
         on conflict (shop, reward_id) do update set spec = excluded.spec, updated_at = now()`,
        [shop, rewardId, JSON.stringify(spec)],
      );
    else await this.deps.pool().query('delete from reward_issuing where shop = $1 and reward_id = $2', [shop, rewardId]);
  }

  async setShopifyDiscount(shop: string, rewardId: string, on: boolean): Promise<void> {
    if (on)
      await this.deps
        .pool()
        .query('insert into shopify_discount_rewards (shop, reward_id) values ($1, $2) on conflict do nothing', [shop, rewardId]);
    else await this.deps.pool().query('delete from shopify_discount_rewards where shop = $1 and reward_id = $2', [shop, rewardId]);
  }

  /** Reward logs of a reward still without a code after the retries, for the reward's admin page. */
  async failedDiscounts(shop: string, rewardId: string): Promise<FailedDiscount[]> {
    const { rows } = await this.deps.pool().query<{
      reward_log_id: string;
      customer_gid: string;
      last_error: string | null;
      attempts: number;
    }>(`select reward_log_id, customer_gid, last_error, attempts from reward_discounts where shop = $1 and reward_id = $2 and status = 'failed' order by created_at`, [shop, rewardId]);
    return rows.map((r) => ({
      rewardLogId: r.reward_log_id,
      customerGid: r.customer_gid,
      reason: r.last_error ?? 'unknown',
      attempts: r.attempts,
    }));
  }

  /**
   * What the app makes at Shopify for reward logs, by reward log: a store credit's amount and
   * currency, what became of a revoked one's discount, and the fields of its Reward issued.
   */
  async issuedAtShopify(shop: string, rewardLogIds: readonly string[]): Promise<Map<string, IssuedAtShopify>> {
    if (!rewardLogIds.length) return new Map();
    const { rows } = await this.deps
      .pool()
      .query<{ reward_log_id: string; deactivation: string | null; discount: DiscountSpec }>(
        'select reward_log_id, deactivation, discount from reward_discounts where shop = $1 and reward_log_id = any($2)',
        [shop, rewardLogIds],
      );
    return new Map(
      rows.map((r) => [
        r.reward_log_id,
        {
          deactivation: r.deactivation,
          storeCredit:
            r.discount.kind === 'store_credit' ? { amount: r.discount.discountValue, currency: r.discount.currencyCode ?? '' } : null,
          triggerFields: r.discount.triggerFields,
        },
      ]),
    );
  }

  /** The admin's Retry: the failed discount is due again with a fresh round of attempts. */
  retryDiscount(shop: string, rewardLogId: string): Promise<boolean> {
    return inTransaction(this.deps.pool(), async (client) => {
      const { rowCount } = await client.query(
        `update reward_discounts set status = 'pending', attempts = 0, next_attempt_at = now() where shop = $1 and reward_log_id = $2 and status = 'failed'`,
        [shop, rewardLogId],
      );
      await client.query('select pg_notify($1, $2)', [OUTBOX_CHANNEL, shop]);
      return (rowCount ?? 0) > 0;
    });
  }

  /**
   * A core delivery: verified with the client's receiver (both signatures, timestamp tolerance),
   * mapped to triggers and discounts, and queued durably before the 2xx. 401 for a bad signature,
   * 400 for a signed body that is no delivery of events (nothing queued), 503 when the core cannot
   * be asked about the member (the core retries).
   */
  async receive(request: Request): Promise<Response> {
    const raw = await boundedBody(request, MAX_DELIVERY_BYTES);
    if (!raw) return errorAnswer(413, 'body_too_large', `The body is over ${MAX_DELIVERY_BYTES} bytes.`);
    let accountId: unknown;
    try {
      accountId = objectOf(JSON.parse(raw.toString('utf8'))).accountId;
    } catch {
      return errorAnswer(400, 'invalid_body', 'The body is not JSON.');
    }
    const { shops } = this.deps;
    const shop = typeof accountId === 'string' && isRecordId(accountId) ? await shops.shopOfAccount(accountId) : null;
    const hook = shop ? await shops.coreWebhook(shop) : null;
    const account = shop ? await shops.findInstalled(shop) : null;
    // One answer whether the account is unknown or the signature wrong: a caller learns nothing of which shops are installed.
    const refused = () => errorAnswer(401, 'bad_signature', 'The delivery is not signed by the loyalty service for an installed shop.');
    if (!shop || !hook || !account) return refused();
    let events: DeliveredEvent[] | null;
    try {
      events = deliveredEvents(verifyWebhook({ secret: hook.secret, body: raw, headers: request.headers }));
    } catch (err) {
      if (err instanceof WebhookVerificationError) return refused();
      throw err;
    }
    if (!events) return errorAnswer(400, 'invalid_body', 'The body is not a delivery of events.');
    const api = accountClient(this.deps.coreUrl, account);
    const [discountRewards, issuing] = await Promise.all([this.shopifyDiscountRewards(shop), this.issuingSpecs(shop)]);
    const { rows: usage } = await this.deps
      .pool()
      .query<{ handle: string }>('select handle from flow_trigger_usage where shop = $1 and enabled', [shop]);
    const used = new Set(usage.map((u) => u.handle));
    const triggerRows: [string, TriggerHandle, string, JsonObject][] = [];
    const discountRows: [string, string, string, string, DiscountSpec][] = [];
    const tierCustomers = new Set<string>();
    const revoked = events.flatMap((event) => revokedRewardLogIds(event.eventCode, event.payload));
    for (const event of events) {
      if (!event.ownedById) continue;
      const member = await api.GET('/schema/account_user/record/{id}', { params: { path: { id: event.ownedById } } }).catch(() => null);
      if (!member || (!member.data && member.response.status !== 404))
        return errorAnswer(503, 'unavailable', 'The loyalty core did not answer the member lookup.');
      const customerId = member.data ? shopifyCustomerId(member.data.data.externalId) : null;
      // Members that are not Shopify customers (or erased since) fire nothing.
      if (customerId === null) continue;
      for (const send of triggersFor(event.eventCode, event.payload, discountRewards)) {
        // A reward log is issued once, whichever events of its log name it (a milestone reached and
        // the program completed by one log both do); the discount sender keys it alike.
        const key = send.handle === 'loyalty-reward-issued' ? `reward_log:${send.subject}` : event.id;
        if (used.has(send.handle)) triggerRows.push([key, send.handle, send.subject, triggerPayload(customerId, send.fields)]);
      }
      if (event.eventCode === 'tier_changed') tierCustomers.add(String(customerId));
      for (const log of issuedRewardLogs(event.eventCode, event.payload)) {
        if (discountRewards.has(log.rewardId) && !log.couponCode)
          discountRows.push([log.id, log.rewardId, customerGid(customerId), discountCode(), discountSpec(log, issuing.get(log.rewardId))]);
      }
    }
    const client = await this.deps.pool().connect();
    try {
      await client.query('begin');
      for (const [key, handle, subject, payload] of triggerRows) await queueTrigger(client, { shop, key, handle, subject, payload });
      for (const [rewardLogId, rewardId, gid, code, spec] of discountRows) {
        await client.query(
          'insert into reward_discounts (shop, reward_log_id, reward_id, customer_gid, code, discount) values ($1, $2, $3, $4, $5, $6) on conflict do nothing',
          [shop, rewardLogId, rewardId, gid, code, JSON.stringify(spec)],
        );
      }
      // Synced again from the member's tier as the core has it then.
      for (const customerId of tierCustomers) {
        await client.query(
          `insert into customer_tiers (shop, customer_id) values ($1, $2)
           on conflict (shop, customer_id) do update set status = 'pending', attempts = 0, next_attempt_at = now(), last_error = null`,
          [shop, customerId],
        );
      }
      // The sender ends their discounts (and creates none for one not created yet).
      for (const rewardLogId of revoked) {
        await client.query('insert into reward_log_revocations (shop, reward_log_id) values ($1, $2) on conflict do nothing', [
          shop,
          rewardLogId,
        ]);
      }
      // Delivered with the commit, to whichever sender listens.
      if (triggerRows.length || discountRows.length || revoked.length || tierCustomers.size)
        await client.query('select pg_notify($1, $2)', [OUTBOX_CHANNEL, shop]);
      await client.query('commit');
    } catch (err) {
      await client.query('rollback');
      throw err;
    } finally {
      client.release();
    }
    return Response.json({ ok: true });
  }
}

/** The outbox on the process's pool, for the routes. */
export const outbox = new Outbox({ pool, shops, coreUrl: config.coreUrl });
