import { orderNote } from '@loyalty/view-model';
import type pg from 'pg';
import { type AccountClient, accountClient, CoreError } from '../core/client.server';
import { type LogKind, memberOf, reverseLog, type ReverseOutcome, transient, writeLog } from '../core/logs.server';
import type { AdminGraphql } from '../shopify/admin-api.server';
import { customerGid } from '../shopify/customer-ids.server';
import {
  cancelNotice,
  type CreatedCustomer,
  createdCustomer,
  type OrderCustomer,
  type PaidOrder,
  paidOrder,
  refundNotice,
} from '../shopify/order-payloads.server';
import type { EarningRulesStore } from '../storage/earning-rules.server';
import type { ShopAccount, ShopStore } from '../storage/shops.server';
import { WorkLoop } from '../storage/work-loop.server';
import { collectionsOf } from './collections.server';
import { lockCustomer } from './customer-lock.server';
import { seenOf, settleExclusion } from './exclusions.server';
import { LiveMemo, orderFeeds, signUpFeeds } from './feeds.server';
import { EARNING_CHANNEL, GUEST_ORDER_DAYS } from './inbox.server';
import {
  type EarnedLog,
  linesHolding,
  type Method,
  nothingLeft,
  ONE,
  planOrderLogs,
  refundedAfter,
  refundShare,
  storedLines,
  storedNumbers,
} from './plan';
import { type EarnedPoints, earnPoints, orderPoints, pointsTakenBack, takeBackPoints } from './points.server';
import { claimedBy, useGiftCodes } from './referral-gifts.server';
import { earnReferral } from './referrals.server';
import { takenBackText } from './taken-back';
import { inTransaction } from '../storage/transaction.server';

/**
 * The worker role's share of CONTRACT §17: the kept order and customer webhooks become logs and
 * reversals in the core. Rows under FOR UPDATE SKIP LOCKED, a few at once, each in a transaction open while
 * the core is asked, so a process that dies mid-way leaves the row to the next one, which finds the
 * logs already written (the core answers their uniqueIdentifier as a replay) and carries on. A refund
 * or a cancellation waits for its order's logs; what a paid order, a refund and a cancellation do to
 * one order is serialised on the order, so any arrival order ends in the same state.
 */
export interface EarningDeps {
  /** Where the rows' transactions are held: a pool of EARNING_LANES of the lanes' own (WorkLoopOptions.lanes says why). */
  pool: pg.Pool;
  databaseUrl: string;
  shops: ShopStore;
  rules: EarningRulesStore;
  coreUrl: string;
  /** Seconds before each further attempt; the last one repeats for failures that may heal. */
  retrySchedule: number[];
  /** The shop's Admin API client from its offline session (collections of the products). */
  adminFor(shop: string): Promise<AdminGraphql>;
}

/** A failure that heals by itself (Shopify throttling or down): the row is retried for as long as it takes. */
class Transient extends Error {}

type Outcome = { status: 'done' | 'waiting'; note?: string };

interface WebhookRow {
  id: string;
  shop: string;
  topic: string;
  subject: string;
  payload: unknown;
  attempts: number;
}

interface OrderRow {
  name: string;
  status: 'earned' | 'skipped';
  skip_reason: string | null;
  lines: unknown;
  refunded: unknown;
}

interface OrderLogRow {
  kind: LogKind;
  definition_id: string;
  activity_id: string;
  method: Method;
  value_milli: string;
  reversed_milli: string;
  line_milli: unknown;
  log_id: string;
}

/** A customer as an order's payload names them, for an order adopted by them. */
const orderCustomerOf = (c: CreatedCustomer) => ({
  id: c.id,
  email: c.email,
  first_name: c.firstName,
  last_name: c.lastName,
  created_at: c.createdAt,
  tags: c.tags?.join(', ') ?? null,
  updated_at: c.updatedAt,
});

/** Rows worked at once by one worker process, each holding a connection of the pool it is given. */
export const EARNING_LANES = 8;

/** A first-order log has its own identifier in a mission (one log per identifier), so its reversals do too. */
const suffixOf = (activityId: string) => (activityId === 'first_order' ? ':first_order' : '');

/** Why a customer's order, sign-up or newsletter earned nothing: the shop leaves them out by tag. */
const EXCLUDED = 'customer excluded by tag';

/** Why an order whose every log the core refused earned nothing. */
const REFUSED = 'refused by the loyalty service';

/**
 * An activity's time as the core takes it: the core refuses one more than 5 minutes ahead of its
 * clock, and Shopify's (an order processed "in the future") may run ahead of it; such an activity
 * happened now.
 */
const notAfterNow = (at: string): string => (Date.parse(at) > Date.now() ? new Date().toISOString() : at);

/** How long the worker trusts what it last read of a shop's live definitions. */
const LIVE_FRESH_MS = 2000;

export class EarningWorker {
  private readonly loop: WorkLoop;
  private readonly live = new LiveMemo(LIVE_FRESH_MS);

  constructor(private readonly deps: EarningDeps) {
    this.loop = new WorkLoop({
      databaseUrl: deps.databaseUrl,
      channel: EARNING_CHANNEL,
      name: 'loyalty-earning',
      step: () => this.workOne(),
      // Rows are claimed with SKIP LOCKED and an order's webhooks are serialised on the order, so
      // several at once are safe; most of a row's time is the core's answers.
      lanes: EARNING_LANES,
      anyDue: async () => {
        const due = await deps.pool.query(`select 1 from shopify_webhooks where status = 'pending' and next_attempt_at <= now() limit 1`);
        return due.rowCount === 1;
      },
    });
  }

  start(intervalMs = 1000): void {
    this.loop.start(intervalMs);
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  private delay(attempts: number, forever: boolean): Date | null {
    const schedule = this.deps.retrySchedule;
    const seconds = schedule[attempts - 1] ?? (forever ? schedule[schedule.length - 1] : undefined);
    return seconds === undefined ? null : new Date(Date.now() + seconds * 1000);
  }

  /** Claims one due row and works it off; false when none is due. */
  private workOne(): Promise<boolean> {
    return inTransaction(this.deps.pool, async (client) => {
      const { rows } = await client.query<WebhookRow>(
        `select id, shop, topic, subject, payload, attempts from shopify_webhooks where status = 'pending' and next_attempt_at <= now()
         order by next_attempt_at, id limit 1 for update skip locked`,
      );
      const row = rows[0];
      if (!row) return false;
      await client.query('savepoint work');
      try {
        const outcome = await this.work(row, client);
        await client.query(
          `update shopify_webhooks set status = $2, attempts = attempts + 1, last_error = $3,
             done_at = case when $2 = 'done' then now() end where id = $1`,
          [row.id, outcome.status, outcome.note ?? null],
        );
      } catch (err) {
        // What this attempt wrote goes; the core keeps what it answered, and says so when asked again.
        await client.query('rollback to savepoint work');
        const attempts = row.attempts + 1;
        const forever = err instanceof Transient || (err instanceof CoreError && transient(err.status));
        const next = this.delay(attempts, forever);
        const message = err instanceof Error ? err.message.split('\n')[0]!.slice(0, 300) : String(err);
        if (!next) console.error(`[loyalty-earning] ${row.topic} for ${row.shop} failed after ${attempts} attempt(s): ${message}`);
        await client.query(
          `update shopify_webhooks set status = $2, attempts = $3, next_attempt_at = coalesce($4, next_attempt_at), last_error = $5 where id = $1`,
          [row.id, next ? 'pending' : 'failed', attempts, next, message],
        );
      }
      return true;
    });
  }

  private async work(row: WebhookRow, client: pg.PoolClient): Promise<Outcome> {
    const account = await this.deps.shops.findInstalled(row.shop);
    // A customer's webhook kept a second time for their newsletter subscription, or their update for their tags (inbox.server.ts).
    if (row.subject.startsWith('newsletter:')) return this.earnNewsletter(row, client, account);
    if (row.subject.startsWith('tags:')) return this.settleTags(row, client, account);
    switch (row.topic) {
      case 'orders/paid':
        return this.earnOrder(row, client, account);
      case 'refunds/create':
      case 'orders/cancelled':
        return this.reverse(row, client, account && accountClient(this.deps.coreUrl, account));
      case 'customers/create':
        return this.earnSignUp(row, client, account && accountClient(this.deps.coreUrl, account));
      case 'customers/update':
        return this.adoptOnceVerified(row, client, account !== null);
      default:
        return { status: 'done', note: `unknown topic ${row.topic}` };
    }
  }

  /** A paid order: one log per definition it feeds, then the order is earned and what waited for it is due. */
  private async earnOrder(row: WebhookRow, client: pg.PoolClient, account: ShopAccount | null): Promise<Outcome> {
    const paid = paidOrder(row.payload);
    if (!paid) return { status: 'done', note: 'no order in the payload' };
    const order = paid.customer ? paid : { ...paid, customer: await this.verifiedOwner(client, row, paid) };
    const customer = order.customer;
    if (order.test || order.giftCardsOnly || !customer || !account) {
      const skip = order.test ? 'test order' : order.giftCardsOnly ? 'gift cards only' : !customer ? 'no customer' : 'shop not installed';
      if (customer && !order.test && !order.giftCardsOnly) await this.markMembership(client, row.shop, customer.id, null);
      await this.settleOrder(client, row.shop, order, skip);
      return { status: 'done', note: skip };
    }
    const api = accountClient(this.deps.coreUrl, account);
    // A customer the shop leaves out by tag: their order earns nothing, and counts as no first order.
    if (await settleExclusion(client, api, row.shop, seenOf(customer))) {
      await this.markMembership(client, row.shop, customer.id, null);
      await this.settleOrder(client, row.shop, order, EXCLUDED);
      return { status: 'done', note: EXCLUDED };
    }
    const rules = await this.deps.rules.rules(row.shop);
    const feeds = await orderFeeds(this.live.for(row.shop, api, rules), rules);
    // Every paid order claims in turn, so one after an order that needed no claim never passes for the first.
    const firstOrder = await this.claimFirstOrder(client, row.shop, customer.id, order.id);
    let collections = new Map<string, string[]>();
    if (feeds.some((f) => f.collectionIds.length)) {
      try {
        const products = order.lines.flatMap((l) => l.productId ?? []);
        collections = await collectionsOf(row.shop, products, () => this.deps.adminFor(row.shop));
      } catch (err) {
        throw new Transient(`reading the products' collections: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    const planned = planOrderLogs(order, feeds, { firstOrder, collectionsOf: (id) => collections.get(id) ?? [] });
    // A guest's order adopted by the account made after it counts from when that account was made,
    // so the account's own logs (a mission's account_created) do not close the window before it.
    const activityAt = notAfterNow(customer.createdAt && customer.createdAt > order.processedAt ? customer.createdAt : order.processedAt);
    const ownedBy = memberOf(customerGid(customer.id), customer);
    // Each log is its own definition or task, so they are sent at once; the core orders each member's logs per definition.
    const outcomes = await Promise.all(
      planned.map(async (log) => {
        const input = {
          definitionId: log.feed.definitionId,
          ownedBy,
          activityId: log.feed.activityId,
          activityAt,
          // A count log's value is 1 (planOrderLogs), so this is the log as the core will count it.
          activityValue: log.valueMilli / ONE,
          uniqueIdentifier: log.uniqueIdentifier,
        };
        const outcome = await writeLog(api, log.feed.kind, input);
        // A Flow step given the order's key for another task of the mission holds the key: the
        // order's own task counts under a key of its own, as the first order's does.
        const otherTask = log.feed.kind === 'mission' && !outcome.written && outcome.replay && outcome.activityId !== null;
        if (!otherTask || outcome.activityId === log.feed.activityId) return outcome;
        log.uniqueIdentifier = `${log.uniqueIdentifier}:${log.feed.activityId}`;
        return writeLog(api, 'mission', { ...input, uniqueIdentifier: log.uniqueIdentifier });
      }),
    );
    for (const [i, log] of planned.entries()) {
      const outcome = outcomes[i]!;
      // What the core holds under the order's key is what its refunds can take back.
      const held =
        log.feed.method === 'sum' && !outcome.written && outcome.replay && outcome.activityValue !== null
          ? Math.round(outcome.activityValue * ONE)
          : log.valueMilli;
      await client.query(
        `insert into shopify_order_logs (shop, order_id, kind, definition_id, activity_id, definition_name, method, value_milli,
           line_milli, unique_identifier, log_id, refused, reward_log_ids)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
        [
          row.shop,
          order.id,
          log.feed.kind,
          log.feed.definitionId,
          log.feed.activityId,
          log.feed.name,
          log.feed.method,
          held,
          JSON.stringify(linesHolding(log.lineMilli, held)),
          log.uniqueIdentifier,
          outcome.written || outcome.replay ? outcome.logId : null,
          !outcome.written && !outcome.replay ? `${outcome.status}: ${outcome.message}` : null,
          JSON.stringify(outcome.written ? outcome.rewardLogIds : []),
        ],
      );
    }
    const pointsEarned = await this.earnOrderPoints(client, row.shop, order, api, ownedBy);
    // A friend's gift code names its referrer where the cart carried no link (another device, Buy it now);
    // without the code too, the gift the customer's e-mail claimed does.
    const giftOf = await useGiftCodes(client, row.shop, order.id, order.discountCodes);
    const referralCode = firstOrder
      ? (order.referralCode ?? giftOf ?? (await claimedBy(client, row.shop, customer.email ?? order.email)))
      : null;
    const referred =
      referralCode && (await this.earnReferral(row.shop, { ...order, customer, referralCode }, api, account.installedAt, ownedBy, client));
    // A customer the program earned for is one of its members (the dashboard's members against other customers).
    const earned = pointsEarned || !!referred || outcomes.some((o) => o.written || o.replay);
    await this.markMembership(client, row.shop, customer.id, earned ? order.processedAt : null);
    // An order the core refused everything of has nothing for its refunds to take back.
    const skip = planned.length > 0 && !earned ? REFUSED : null;
    await this.settleOrder(client, row.shop, order, skip);
    return skip ? { status: 'done', note: skip } : { status: 'done' };
  }

  /** The order's points (CONTRACT §19), when the shop's points are live and its rates give some; whether it earned any. */
  private async earnOrderPoints(
    client: pg.PoolClient,
    shop: string,
    order: PaidOrder,
    api: AccountClient,
    ownedBy: ReturnType<typeof memberOf>,
  ): Promise<boolean> {
    const rates = await this.live.rates(shop, api);
    if (!rates) return false;
    const { unit, order: perOrder, bonus } = orderPoints(rates, order.lines, order.processedAt);
    if (unit + perOrder <= 0) return false;
    const outcome = await earnPoints(api, ownedBy, {
      points: unit + perOrder,
      uniqueIdentifier: `order:${order.id}`,
      linkedSchemaSlug: 'shopify_order',
      linkedSchemaRecordId: `gid://shopify/Order/${order.id}`,
      note: orderNote(order.name, bonus),
    });
    await client.query(
      `insert into shopify_order_points (shop, order_id, entry_id, unit_points, order_points, points, refused, bonus)
       values ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        shop,
        order.id,
        outcome.earned ? outcome.entryId : null,
        unit,
        perOrder,
        outcome.earned ? outcome.points : 0,
        outcome.earned ? null : outcome.refused,
        bonus,
      ],
    );
    return outcome.earned;
  }

  /** The referral the first order's code names, when the shop's points reward one (referrals.server.ts); whether it earned. */
  private async earnReferral(
    shopName: string,
    order: PaidOrder & { customer: OrderCustomer; referralCode: string },
    api: AccountClient,
    installedAt: Date,
    ownedBy: ReturnType<typeof memberOf>,
    client: pg.PoolClient,
  ): Promise<boolean> {
    const rates = await this.live.rates(shopName, api);
    if (!rates || rates.onReferral + rates.onReferredOrder <= 0) return false;
    const outcome = await earnReferral(api, order, ownedBy, rates, installedAt);
    if (!outcome) return false;
    const { referrer, friend } = outcome;
    await client.query(
      `insert into shopify_referrals (shop, order_id, referrer_entry_id, referrer_points, friend_entry_id, friend_points, refused)
       values ($1, $2, $3, $4, $5, $6, $7) on conflict (shop, order_id) do nothing`,
      [shopName, order.id, referrer?.entryId ?? null, referrer?.points ?? 0, friend?.entryId ?? null, friend?.points ?? 0, outcome.refused],
    );
    return !!(referrer ?? friend);
  }

  /** An order refunded in full or cancelled takes back the points its referral earned, each entry whole, once. */
  private async takeBackReferral(client: pg.PoolClient, shop: string, orderId: string, api: AccountClient, key: string, note: string) {
    const { rows } = await client.query<{
      referrer_entry_id: string | null;
      referrer_points: number;
      friend_entry_id: string | null;
      friend_points: number;
    }>(
      `select referrer_entry_id, referrer_points, friend_entry_id, friend_points from shopify_referrals
       where shop = $1 and order_id = $2 and not taken_back`,
      [shop, orderId],
    );
    const referral = rows[0];
    if (!referral) return;
    const refused: string[] = [];
    for (const [entryId, points, who] of [
      [referral.referrer_entry_id, referral.referrer_points, 'referral'],
      [referral.friend_entry_id, referral.friend_points, 'referred'],
    ] as const) {
      if (!entryId || points <= 0) continue;
      const outcome = await takeBackPoints(api, entryId, points, `${key}:${who}`, note);
      if ('refused' in outcome) refused.push(outcome.refused);
    }
    await client.query(
      `update shopify_referrals set taken_back = true, refused = coalesce($3, refused) where shop = $1 and order_id = $2`,
      [shop, orderId, refused.length ? refused.join('; ') : null],
    );
  }

  /**
   * Whether this is the customer's first paid order the app has seen: the first to claim it keeps it,
   * so a redelivered or retried order stays first and a later one never is.
   */
  private async claimFirstOrder(client: pg.PoolClient, shop: string, customerId: string, orderId: string): Promise<boolean> {
    await client.query('insert into shopify_first_orders (shop, customer_id, order_id) values ($1, $2, $3) on conflict do nothing', [
      shop,
      customerId,
      orderId,
    ]);
    const { rows } = await client.query<{ order_id: string }>(
      'select order_id from shopify_first_orders where shop = $1 and customer_id = $2',
      [shop, customerId],
    );
    return rows[0]?.order_id === orderId;
  }

  /**
   * Makes the customer a member from `joinedAt` (when the program earned for them; the earliest such
   * order counts), and copies their membership onto each of their order facts. Under the customer's
   * lock, taken before either is read: the web role writes an order's facts with the membership it
   * sees, which may miss a member still being made, and every order of a customer comes through here
   * after its facts are written, so whichever of two orders takes the lock second finds the other's
   * facts and membership.
   */
  private async markMembership(client: pg.PoolClient, shop: string, customerId: string, joinedAt: string | null): Promise<void> {
    await lockCustomer(client, shop, customerId);
    if (joinedAt)
      await client.query(
        `insert into program_members (shop, customer_id, joined_at) values ($1, $2, $3)
         on conflict (shop, customer_id) do update set joined_at = least(program_members.joined_at, excluded.joined_at)`,
        [shop, customerId, joinedAt],
      );
    await client.query(
      `update order_facts f set member_from = m.joined_at from program_members m
       where m.shop = $1 and m.customer_id = $2 and f.shop = $1 and f.customer_id = $2 and f.member_from is distinct from m.joined_at`,
      [shop, customerId],
    );
  }

  /** Holds the order's lock to the end of the transaction: its paid order, refunds and cancellation take turns. */
  private async lockOrder(client: pg.PoolClient, shop: string, orderId: string): Promise<void> {
    await client.query('select pg_advisory_xact_lock(hashtext($1))', [`loyalty_order:${shop}:${orderId}`]);
  }

  /** Records the order as earned (or skipped, with why) and makes its waiting refunds and cancellation due. */
  private async settleOrder(client: pg.PoolClient, shop: string, order: PaidOrder, skip: string | null): Promise<void> {
    await this.lockOrder(client, shop, order.id);
    const amount = order.lines.reduce((sum, l) => sum + l.milli, 0) / ONE;
    await client.query(
      `insert into shopify_orders (shop, order_id, customer_id, name, processed_at, amount, currency, lines, status, skip_reason)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        shop,
        order.id,
        order.customer?.id ?? null,
        order.name,
        order.processedAt,
        amount,
        order.currency,
        JSON.stringify(order.lines),
        skip ? 'skipped' : 'earned',
        skip,
      ],
    );
    const woken = await client.query(
      `update shopify_webhooks set status = 'pending', next_attempt_at = now() where shop = $1 and order_id = $2 and status = 'waiting'`,
      [shop, order.id],
    );
    if (woken.rowCount) await client.query('select pg_notify($1, $2)', [EARNING_CHANNEL, shop]);
  }

  /**
   * A refund takes back its lines' share (count logs only once nothing of the order is left); a
   * cancellation takes back what remains of every log. Either waits until its order is earned.
   */
  private async reverse(row: WebhookRow, client: pg.PoolClient, api: AccountClient | null): Promise<Outcome> {
    const refund = row.topic === 'refunds/create' ? refundNotice(row.payload) : null;
    const cancel = row.topic === 'orders/cancelled' ? cancelNotice(row.payload) : null;
    const orderId = refund?.orderId ?? cancel?.orderId;
    if (!orderId) return { status: 'done', note: 'no order in the payload' };
    await this.lockOrder(client, row.shop, orderId);
    const { rows } = await client.query<OrderRow>(
      'select name, status, skip_reason, lines, refunded from shopify_orders where shop = $1 and order_id = $2',
      [row.shop, orderId],
    );
    const order = rows[0];
    if (!order) return { status: 'waiting' };
    if (order.status === 'skipped') return { status: 'done', note: `the order earned nothing (${order.skip_reason})` };
    if (!api) return { status: 'done', note: 'shop not installed' };
    const lines = storedLines(order.lines);
    const before = storedNumbers(order.refunded);
    const after = refund ? refundedAfter(lines, before, refund) : before;
    // What the reversals and the points taken back are keyed and noted by: the refund, or the cancellation.
    const key = refund ? `refund:${refund.id}` : `cancel:${orderId}`;
    const why = takenBackText(refund ? refund.id : null, order.name);
    const { rows: logs } = await client.query<OrderLogRow>(
      `select kind, definition_id, activity_id, method, value_milli, reversed_milli, line_milli, log_id
       from shopify_order_logs where shop = $1 and order_id = $2 and log_id is not null`,
      [row.shop, orderId],
    );
    for (const log of logs) {
      const earned: EarnedLog = {
        method: log.method,
        valueMilli: Number(log.value_milli),
        reversedMilli: Number(log.reversed_milli),
        lineMilli: storedNumbers(log.line_milli),
      };
      const remaining = earned.valueMilli - earned.reversedMilli;
      const milli = refund ? refundShare(earned, lines, before, after) : remaining;
      if (milli <= 0) continue;
      const uniqueIdentifier = `${key}${suffixOf(log.activity_id)}`;
      const outcome = await reverseLog(api, log.kind, log.log_id, {
        // All that remains is asked for as such, so no rounding of the core's sums can make it "more than remains".
        ...(earned.method === 'sum' && milli < remaining ? { activityValue: milli / ONE } : {}),
        uniqueIdentifier,
        reason: why,
      });
      await this.recordReversal(
        client,
        row.shop,
        orderId,
        log,
        uniqueIdentifier,
        outcome,
        'nothingLeft' in outcome && outcome.nothingLeft ? remaining : milli,
      );
    }
    await this.takeBackOrderPoints(client, row.shop, orderId, api, {
      key,
      note: why,
      taken: (earned) => (refund ? pointsTakenBack(earned, lines, after) : earned.points),
    });
    if (!refund || nothingLeft(lines, after)) await this.takeBackReferral(client, row.shop, orderId, api, key, why);
    await client.query(
      'update shopify_orders set refunded = $3, cancelled_at = coalesce(cancelled_at, $4) where shop = $1 and order_id = $2',
      [row.shop, orderId, JSON.stringify(after), cancel?.cancelledAt ?? null],
    );
    return { status: 'done' };
  }

  /** Takes back what a refund or cancellation owes of the order's points: up to `taken` of them in all. */
  private async takeBackOrderPoints(
    client: pg.PoolClient,
    shop: string,
    orderId: string,
    api: AccountClient,
    by: { key: string; note: string; taken: (earned: EarnedPoints) => number },
  ): Promise<void> {
    const { rows } = await client.query<{ entry_id: string; unit_points: number; order_points: number; points: number; reversed: number }>(
      `select entry_id, unit_points, order_points, points, reversed from shopify_order_points
       where shop = $1 and order_id = $2 and entry_id is not null`,
      [shop, orderId],
    );
    const earned = rows[0];
    if (!earned) return;
    const owed = by.taken({ points: earned.points, unit: earned.unit_points, order: earned.order_points }) - earned.reversed;
    if (owed <= 0) return;
    const uniqueIdentifier = `${by.key}:points`;
    const outcome = await takeBackPoints(api, earned.entry_id, owed, uniqueIdentifier, by.note);
    const entry = {
      uniqueIdentifier,
      points: outcome.taken,
      at: new Date().toISOString(),
      ...('refused' in outcome ? { refused: outcome.refused } : {}),
    };
    await client.query(
      `update shopify_order_points set reversed = least(points, reversed + $3), reversals = reversals || $4::jsonb where shop = $1 and order_id = $2`,
      [shop, orderId, outcome.taken, JSON.stringify([entry])],
    );
  }

  private async recordReversal(
    client: pg.PoolClient,
    shop: string,
    orderId: string,
    log: OrderLogRow,
    uniqueIdentifier: string,
    outcome: ReverseOutcome,
    milli: number,
  ): Promise<void> {
    const refused = !outcome.reversed && !outcome.replay && !outcome.nothingLeft ? `${outcome.status}: ${outcome.message}` : null;
    const entry = {
      uniqueIdentifier,
      milli: refused ? 0 : milli,
      at: new Date().toISOString(),
      revokedRewardLogIds: outcome.reversed ? outcome.revokedRewardLogIds : [],
      ...(refused ? { refused } : {}),
    };
    await client.query(
      `update shopify_order_logs set reversed_milli = least(value_milli, reversed_milli + $6), reversals = reversals || $7::jsonb
       where shop = $1 and order_id = $2 and kind = $3 and definition_id = $4 and activity_id = $5`,
      [shop, orderId, log.kind, log.definition_id, log.activity_id, entry.milli, JSON.stringify([entry])],
    );
  }

  /** customers/create: the account_created task of every live mission that has one, and the sign-up points. */
  private async earnSignUp(row: WebhookRow, client: pg.PoolClient, api: AccountClient | null): Promise<Outcome> {
    const customer = createdCustomer(row.payload);
    if (!customer) return { status: 'done', note: 'no customer in the payload' };
    if (!api) return { status: 'done', note: 'shop not installed' };
    if (customer.emailVerified) await this.adoptGuestOrders(client, row.shop, customer);
    if (await settleExclusion(client, api, row.shop, seenOf(customer))) return { status: 'done', note: EXCLUDED };
    const refused: string[] = [];
    for (const feed of await signUpFeeds(this.live.for(row.shop, api, await this.deps.rules.rules(row.shop)))) {
      const outcome = await writeLog(api, 'mission', {
        definitionId: feed.definitionId,
        ownedBy: memberOf(customerGid(customer.id), customer),
        activityId: feed.activityId,
        activityAt: notAfterNow(customer.createdAt),
        activityValue: 1,
        uniqueIdentifier: `customer:${customer.id}`,
      });
      if (!outcome.written && !outcome.replay) refused.push(`${feed.name}: ${outcome.status} ${outcome.message}`);
    }
    const rates = await this.live.rates(row.shop, api);
    if (rates && rates.onSignUp > 0) {
      const outcome = await earnPoints(api, memberOf(customerGid(customer.id), customer), {
        points: rates.onSignUp,
        uniqueIdentifier: `customer:${customer.id}:points`,
        linkedSchemaSlug: 'shopify_customer',
        linkedSchemaRecordId: customerGid(customer.id),
      });
      if (!outcome.earned) refused.push(`points: ${outcome.refused}`);
    }
    return { status: 'done', ...(refused.length ? { note: refused.join('; ') } : {}) };
  }

  /**
   * The newsletter's points, once per customer: for a subscription Shopify recorded since the app
   * was first installed, so the shop's subscribers of before do not all earn at their next update.
   * Unsubscribing takes nothing back; subscribing again earns nothing more.
   */
  private async earnNewsletter(row: WebhookRow, client: pg.PoolClient, account: ShopAccount | null): Promise<Outcome> {
    const customer = createdCustomer(row.payload);
    if (!customer?.newsletterSince) return { status: 'done', note: 'not subscribed' };
    if (!account) return { status: 'done', note: 'shop not installed' };
    if (Date.parse(customer.newsletterSince) < account.installedAt.getTime())
      return { status: 'done', note: 'subscribed before the app was installed' };
    const api = accountClient(this.deps.coreUrl, account);
    if (await settleExclusion(client, api, row.shop, seenOf(customer))) return { status: 'done', note: EXCLUDED };
    const rates = await this.live.rates(row.shop, api);
    if (!rates || rates.onNewsletter <= 0) return { status: 'done', note: 'no points for the newsletter' };
    const outcome = await earnPoints(api, memberOf(customerGid(customer.id), customer), {
      points: rates.onNewsletter,
      uniqueIdentifier: `customer:${customer.id}:newsletter`,
      linkedSchemaSlug: 'shopify_newsletter',
      linkedSchemaRecordId: customerGid(customer.id),
    });
    return { status: 'done', ...(outcome.earned ? {} : { note: `points: ${outcome.refused}` }) };
  }

  /**
   * The customer a guest's order is adopted by when it comes after their account: one whose kept
   * customers/create or customers/update shows the order's e-mail verified (adoptGuestOrders is the
   * same rule the other way round, for orders that came first). Their customer goes on the kept
   * payload, as adoption puts it, so its refunds and data requests find them.
   */
  private async verifiedOwner(client: pg.PoolClient, row: WebhookRow, order: PaidOrder): Promise<CreatedCustomer | null> {
    if (!order.email || order.test || Date.parse(order.processedAt) < Date.now() - GUEST_ORDER_DAYS * 86_400_000) return null;
    const { rows } = await client.query<{ payload: unknown }>(
      `select payload from shopify_webhooks
       where shop = $1 and topic in ('customers/create', 'customers/update') and lower(payload->>'email') = lower($2)
         and payload->>'verified_email' = 'true'
       order by created_at desc limit 1`,
      [row.shop, order.email],
    );
    const owner = rows[0] ? createdCustomer(rows[0].payload) : null;
    if (!owner) return null;
    await client.query("update shopify_webhooks set payload = jsonb_set(payload, '{customer}', $2::jsonb) where id = $1", [
      row.id,
      JSON.stringify(orderCustomerOf(owner)),
    ]);
    return owner;
  }

  /** customers/update kept for the customer's tags (inbox.server.ts): whether the shop leaves them out now. */
  private async settleTags(row: WebhookRow, client: pg.PoolClient, account: ShopAccount | null): Promise<Outcome> {
    const customer = createdCustomer(row.payload);
    if (!customer) return { status: 'done', note: 'no customer in the payload' };
    if (!account) return { status: 'done', note: 'shop not installed' };
    const excluded = await settleExclusion(client, accountClient(this.deps.coreUrl, account), row.shop, seenOf(customer));
    return { status: 'done', ...(excluded ? { note: EXCLUDED } : {}) };
  }

  /** customers/update kept for a customer whose e-mail is now proved (inbox.server.ts): the guest orders their sign-up could not adopt. */
  private async adoptOnceVerified(row: WebhookRow, client: pg.PoolClient, installed: boolean): Promise<Outcome> {
    const customer = createdCustomer(row.payload);
    if (!customer?.emailVerified) return { status: 'done', note: 'e-mail not verified' };
    if (!installed) return { status: 'done', note: 'shop not installed' };
    await this.adoptGuestOrders(client, row.shop, customer);
    return { status: 'done' };
  }

  /**
   * The shop's guest orders of the last GUEST_ORDER_DAYS paid with the new customer's e-mail become
   * theirs, as the thank-you page promises a guest who creates an account, once Shopify says the
   * e-mail is theirs (else anyone could sign up with a stranger's e-mail and take their orders): each order's kept
   * webhook gets the customer and is worked off again (so it earns like any order of theirs), and
   * its refunds and cancellation, done while it earned nothing, wait for it to take back their share.
   */
  private async adoptGuestOrders(client: pg.PoolClient, shop: string, customer: CreatedCustomer): Promise<void> {
    if (!customer.email) return;
    const { rows } = await client.query<{ order_id: string }>(
      `select o.order_id from shopify_orders o join shopify_webhooks w
         on w.shop = o.shop and w.topic = 'orders/paid' and w.subject = 'order:' || o.order_id
       where o.shop = $1 and o.customer_id is null and o.status = 'skipped' and o.skip_reason = 'no customer'
         and o.processed_at > now() - make_interval(days => $3) and lower(w.payload->>'email') = lower($2)`,
      [shop, customer.email, GUEST_ORDER_DAYS],
    );
    if (!rows.length) return;
    const ids = rows.map((r) => r.order_id);
    for (const id of ids) await this.lockOrder(client, shop, id);
    const onOrder = orderCustomerOf(customer);
    await client.query("delete from shopify_orders where shop = $1 and order_id = any($2) and status = 'skipped'", [shop, ids]);
    await client.query(
      `update shopify_webhooks set payload = jsonb_set(payload, '{customer}', $3::jsonb), status = 'pending', attempts = 0,
         next_attempt_at = now(), last_error = null, done_at = null
       where shop = $1 and topic = 'orders/paid' and subject = any($2)`,
      [shop, ids.map((id) => `order:${id}`), JSON.stringify(onOrder)],
    );
    await client.query(
      `update shopify_webhooks set status = 'waiting', done_at = null
       where shop = $1 and order_id = any($2) and topic in ('refunds/create', 'orders/cancelled')`,
      [shop, ids],
    );
    await client.query('select pg_notify($1, $2)', [EARNING_CHANNEL, shop]);
  }
}
