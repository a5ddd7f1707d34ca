import type pg from 'pg';
import { type AccountClient, accountClient } from '../core/client.server';
import type { CoreErrorBody } from '../core/failure';
import { createMember, existingId, type KeptLog, keptLog, type LogKind, postLog } from '../core/logs.server';
import { whereAll } from '../core/records.server';
import { isJsonObject, type JsonObject } from '../json';
import type { ShopStore } from '../storage/shops.server';
import { type AdminGraphql, fetchCustomer } from './admin-api.server';
import { customerGid, memberOfCustomer } from './customer-ids.server';
import { isRecordId } from '../core/ids';

/**
 * Flow action execution (CONTRACT §13). Flow retries 5xx and 429 and never retries 4xx, so every
 * answer is chosen for that: bad input or unknown records are 4xx naming the property, anything
 * that may succeed later (core down, throttled, shop still provisioning) is 503 or 429.
 */

export interface FlowPayload {
  shopify_domain?: unknown;
  action_run_id?: unknown;
  properties?: unknown;
}

export interface FlowDeps {
  coreUrl: string;
  shops: ShopStore;
  /** The app's database, for actions whose replays the app deduplicates itself. */
  pool?: pg.Pool;
}

export interface FlowContext {
  session: { shop: string };
  payload: FlowPayload;
  admin: AdminGraphql;
}

/** An answer decided before or instead of the core's success. */
class FlowAnswer extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly property?: string,
    readonly details?: unknown,
    readonly retryAfter?: string,
  ) {
    super(message);
  }
}

const bad = (property: string, message: string) => new FlowAnswer(400, 'invalid_property', `${property}: ${message}`, property);
const unavailable = (message: string) => new FlowAnswer(503, 'unavailable', message);

function reply(answer: FlowAnswer): Response {
  const headers: Record<string, string> = {};
  if (answer.retryAfter) headers['retry-after'] = answer.retryAfter;
  const error = {
    code: answer.code,
    message: answer.message,
    ...(answer.property ? { property: answer.property } : {}),
    ...(answer.details ? { details: answer.details } : {}),
  };
  return Response.json({ error }, { status: answer.status, headers });
}

/** A JSON number, or a string of one in plain decimals ("12.50"); NaN for anything else ("0x10", "1e3", "12,5"). */
const decimal = (v: unknown): number =>
  typeof v === 'number' ? v : typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : Number.NaN;

/** Reads the Flow properties with the checks each field needs; absent optional fields are undefined. */
class Properties {
  constructor(private readonly values: JsonObject) {}

  static of(payload: FlowPayload): Properties {
    const p = payload.properties;
    if (!isJsonObject(p)) throw bad('properties', 'must be an object');
    return new Properties(p);
  }

  /** Flow sends unset optional fields as null or an empty string. */
  private raw(name: string): unknown {
    const v = this.values[name];
    return v === null || v === '' ? undefined : v;
  }

  text(name: string, required: true, max?: number): string;
  text(name: string, required: false, max?: number): string | undefined;
  text(name: string, required: boolean, max = 256): string | undefined {
    const v = this.raw(name);
    if (v === undefined) {
      if (required) throw bad(name, 'is required');
      return undefined;
    }
    if (typeof v !== 'string') throw bad(name, 'must be a string');
    const trimmed = v.trim();
    if (!trimmed) throw bad(name, 'must not be blank');
    if (trimmed.length > max) throw bad(name, `must be at most ${max} characters`);
    return trimmed;
  }

  uuid(name: string): string {
    const v = this.text(name, true);
    if (!isRecordId(v)) throw bad(name, 'must be a UUID');
    return v.toLowerCase();
  }

  /** A definition as a step names it: by its id, or by its name as the loyalty admin shows it. */
  reference(name: string): Reference {
    const v = this.text(name, true);
    return isRecordId(v) ? { id: v.toLowerCase() } : { name: v };
  }

  positiveNumber(name: string): number | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    const n = decimal(v);
    if (!Number.isFinite(n) || n <= 0) throw bad(name, 'must be a number greater than 0');
    return n;
  }

  integer(name: string, min: number, max: number): number {
    const v = this.raw(name);
    if (v === undefined) throw bad(name, 'is required');
    const n = decimal(v);
    if (!Number.isInteger(n) || n < min || n > max) throw bad(name, `must be a whole number from ${min} to ${max}`);
    return n;
  }

  dateTime(name: string): string | undefined {
    const v = this.text(name, false, 64);
    if (v === undefined) return undefined;
    // With its offset: without one, JavaScript would read it in the server's time zone, not the shop's.
    const parts = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/i.exec(v.trim());
    // JavaScript rolls a day past its month's end over into the next (02-30 is March 2nd): a calendar day only.
    const real = parts && new Date(Date.UTC(Number(parts[1]), Number(parts[2]) - 1, Number(parts[3]))).getUTCDate() === Number(parts[3]);
    if (!real) throw bad(name, 'must be an ISO 8601 date-time with its offset (2026-03-10T12:00:00Z or 2026-03-10T13:00:00+01:00)');
    return new Date(v.trim()).toISOString();
  }

  /**
   * A birthday as MM-DD: from a date (`1990-03-14`, what a customer's `facts.birth_date` metafield
   * holds, the year dropped) or a month and day (`03-14`); the core checks the month has the day.
   */
  birthday(name: string): string {
    const v = this.text(name, true, 64);
    const parts = /^(?:\d{4}-)?(\d{2})-(\d{2})$/.exec(v);
    if (!parts) throw bad(name, 'must be a date (1990-03-14, as a birth_date metafield holds it) or a month and day (03-14)');
    return `${parts[1]}-${parts[2]}`;
  }

  /** Flow's customer reference: a numeric id (number or string), or the customer's GID. */
  customer(name: string): string {
    const v = this.raw(name);
    if (v === undefined) throw bad(name, 'is required');
    if (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) return customerGid(v);
    if (typeof v === 'string') {
      const m = /^(?:gid:\/\/shopify\/Customer\/)?([1-9]\d{0,19})$/.exec(v.trim());
      if (m) return customerGid(m[1]!);
    }
    throw bad(name, 'must be a Shopify customer id');
  }
}

/** Turns a non-success core answer into Flow's terms. */
function coreAnswer(status: number, body: CoreErrorBody, headers: Headers, fieldToProperty: Record<string, string>): FlowAnswer {
  if (status === 429)
    return new FlowAnswer(
      429,
      'rate_limited',
      'The loyalty core is throttling; retry later.',
      undefined,
      undefined,
      headers.get('retry-after') ?? '1',
    );
  // Refused credentials and server errors can heal (re-install, restart); Flow should retry.
  if (status >= 500 || status === 401) return unavailable(`The loyalty core answered ${status}.`);
  const error = body?.error;
  const detail = error?.details?.[0];
  const field = detail?.field;
  const property = field ? (fieldToProperty[field] ?? fieldToProperty[field.split('.')[0]!]) : undefined;
  // Flow shows the message: the property and what is wrong with it, not the core's summary of the body.
  const message = property && detail?.message ? `${property}: ${detail.message}` : error?.message;
  return new FlowAnswer(status, error?.code ?? 'rejected', message ?? `The loyalty core answered ${status}.`, property, error?.details);
}

/** Calls the core; a refused connection or a time-out becomes 503. */
async function callCore<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch {
    throw unavailable('The loyalty core is unreachable.');
  }
}

async function shopClient(deps: FlowDeps, shop: string): Promise<AccountClient> {
  const account = await deps.shops.find(shop);
  // Installed but not yet provisioned (afterAuth still running or failed): retrying can succeed.
  if (!account) throw unavailable(`The shop ${shop} has no loyalty account yet.`);
  return accountClient(deps.coreUrl, account);
}

type Reference = { id: string } | { name: string };

/**
 * The id of the streak, challenge or mission a step names: an id as it is; a name (case aside) the
 * one so named, a live one before the others, so that a merchant types what the admin shows rather
 * than copies an id. No such name, or one that several share, is a 4xx saying so.
 */
async function definitionId(api: AccountClient, kind: LogKind, ref: Reference, property: string): Promise<string> {
  if ('id' in ref) return ref.id;
  const filters = { operator: 'and', conditions: [{ fieldSlug: 'name', operator: 'contains', fieldValue: ref.name }] };
  const query = { filters: JSON.stringify(filters), fields: JSON.stringify(['name', 'status']), limit: 1000 };
  const result = await callCore(() => api.GET(`/schema/${kind}/record`, { params: { query } }));
  if (!result.data) throw coreAnswer(result.response.status, result.error, result.response.headers, {});
  const wanted = ref.name.toLocaleLowerCase();
  const named = result.data.data.filter((d: { name?: string | null }) => d.name?.trim().toLocaleLowerCase() === wanted);
  const live = named.filter((d: { status?: string | null }) => d.status === 'live');
  const candidates = live.length ? live : named;
  if (candidates.length === 1) return candidates[0]!.id;
  if (!candidates.length)
    throw new FlowAnswer(404, 'not_found', `${property}: no ${kind} named “${ref.name}” in this shop's program`, property);
  throw bad(
    property,
    `${candidates.length} ${live.length ? 'live ' : ''}${kind}s are named “${ref.name}”: rename all but one in the loyalty admin, or give the id`,
  );
}

interface Definition {
  aggregationMethod?: string | null;
  tasks?: { activityId?: string | null; aggregationMethod?: string | null }[] | null;
}

async function loadDefinition(api: AccountClient, kind: LogKind, id: string, property: string): Promise<Definition> {
  const path = { params: { path: { id } } };
  const result = await callCore(() => api.GET(`/schema/${kind}/record/{id}`, path));
  if (result.response.status === 404)
    throw new FlowAnswer(404, 'not_found', `${property}: no ${kind} ${id} in this shop's program`, property);
  if (!result.data) throw coreAnswer(result.response.status, result.error, result.response.headers, {});
  return result.data.data;
}

/**
 * What keys a run: the step's idempotency key when it has one, else Flow's action_run_id (the same
 * on every retry of the run), with the property it came from for the core's refusals to name.
 */
interface RunKey {
  key: string;
  property: 'idempotency_key' | 'action_run_id';
}

function runKeyOf(props: Properties, payload: FlowPayload): RunKey {
  const given = props.text('idempotency_key', false);
  const runId = payload.action_run_id;
  const run: RunKey | null = given
    ? { key: given, property: 'idempotency_key' }
    : typeof runId === 'string' && runId
      ? { key: runId, property: 'action_run_id' }
      : null;
  if (!run) throw bad('action_run_id', 'is required when no idempotency_key is given');
  // The app keeps a run's answer under its key (grant-streak-freezes), and PostgreSQL's text holds no NUL.
  if (run.key.includes('\0')) throw bad(run.property, 'must not contain a NUL character');
  return run;
}

const LOG_FIELDS: Record<string, string> = {
  activityId: 'activity_id',
  activityAt: 'activity_at',
  activityValue: 'activity_value',
  ownedBy: 'customer_id',
};

/** execute-streak / execute-challenge / execute-mission: one log for the Flow customer. */
export async function executeLog(kind: LogKind, ctx: FlowContext, deps: FlowDeps): Promise<Response> {
  try {
    const idProperty = `${kind}_id`;
    const props = Properties.of(ctx.payload);
    const customer = props.customer('customer_id');
    const reference = props.reference(idProperty);
    const activityId = kind === 'mission' ? props.text('activity_id', true) : (props.text('activity_id', false) ?? 'shopify_flow');
    const givenValue = props.positiveNumber('activity_value');
    const activityAt = props.dateTime('activity_at') ?? new Date().toISOString();
    const run = runKeyOf(props, ctx.payload);
    const uniqueIdentifier = run.key;

    const api = await shopClient(deps, ctx.session.shop);
    const id = await definitionId(api, kind, reference, idProperty);
    const definition = await loadDefinition(api, kind, id, idProperty);
    let method = definition.aggregationMethod;
    if (kind === 'mission') {
      const task = definition.tasks?.find((t) => t.activityId === activityId);
      if (!task) throw bad('activity_id', `matches no task of mission ${'name' in reference ? `“${reference.name}”` : id}`);
      method = task.aggregationMethod;
    }
    // Count definitions add 1 per log whatever is sent; sum definitions need the amount.
    let activityValue = 1;
    if (method === 'sum') {
      if (givenValue === undefined) throw bad('activity_value', `is required for a sum ${kind}`);
      activityValue = givenValue;
    }

    let found;
    try {
      found = await fetchCustomer(ctx.admin, customer);
    } catch {
      throw unavailable('The Shopify Admin API did not answer the customer lookup.');
    }
    if (!found) throw new FlowAnswer(404, 'not_found', `customer_id: no customer ${customer} in this shop`, 'customer_id');
    const ownedBy = memberOfCustomer(customer, found);
    const result = await callCore(() =>
      postLog(api, kind, { definitionId: id, ownedBy, activityId, activityAt, activityValue, uniqueIdentifier }),
    );
    if (result.data) {
      const log = result.data.data;
      return Response.json({ ok: true, logId: log.id, isAggregated: log.isAggregated ?? null });
    }
    const error = result.error?.error;
    if (result.response.status === 409 && error?.code === 'duplicate_unique_identifier') {
      const logId = existingId(result.error);
      const kept = logId ? await callCore(() => keptLog(api, kind, logId)) : null;
      if (kept) await refuseOtherLog(api, kind, kept, { customer, activityId, run });
      // A replay of a run already counted: done, and nothing changed. The core names the log it kept.
      return Response.json({ ok: true, replay: true, logId });
    }
    throw coreAnswer(result.response.status, result.error, result.response.headers, {
      ...LOG_FIELDS,
      uniqueIdentifier: run.property,
      [`${kind}Id`]: idProperty,
    });
  } catch (err) {
    if (err instanceof FlowAnswer) return reply(err);
    throw err;
  }
}

/**
 * A key is a replay only of the log it counted: this customer's, and in a mission this task's (the
 * core keeps one log per key and mission). A key that counted another customer's log, or another
 * task (a workflow given the order's key, which the app's orders already hold), is 409 naming the
 * key: Flow shows it, where a 200 would say done of what was never counted.
 */
async function refuseOtherLog(
  api: AccountClient,
  kind: LogKind,
  kept: KeptLog,
  step: { customer: string; activityId: string; run: RunKey },
): Promise<void> {
  if (kept.ownedById !== (await findMember(api, step.customer))) throw keyTaken(step.run, `counted another customer's log of this ${kind}`);
  if (kind === 'mission' && kept.activityId !== step.activityId)
    throw keyTaken(step.run, `counted this customer's task “${kept.activityId}” of this mission`);
}

/** 409 for a run key that did something else (`what`) before: Flow shows it, and the merchant gives the step a key of its own. */
const keyTaken = ({ key, property }: RunKey, what: string) =>
  new FlowAnswer(409, 'duplicate_unique_identifier', `${property}: “${key}” already ${what}; give this step a key of its own`, property);

/** stamp-coupon: writes the merchant's code onto a reward log; a repeat with the same values is 200. */
export async function stampCoupon(ctx: FlowContext, deps: FlowDeps): Promise<Response> {
  try {
    const props = Properties.of(ctx.payload);
    const rewardLogId = props.uuid('reward_log_id');
    const couponCode = props.text('coupon_code', true);
    const rewardIssuedAt = props.dateTime('reward_issued_at');
    const rewardExpiryAt = props.dateTime('reward_expiry_at');
    const api = await shopClient(deps, ctx.session.shop);
    const result = await callCore(() =>
      api.PATCH('/schema/reward_log/record/{id}', {
        params: { path: { id: rewardLogId } },
        body: { couponCode, ...(rewardIssuedAt ? { rewardIssuedAt } : {}), ...(rewardExpiryAt ? { rewardExpiryAt } : {}) },
      }),
    );
    if (result.data) {
      const log = result.data.data;
      return Response.json({
        ok: true,
        rewardLogId: log.id,
        couponCode: log.couponCode,
        rewardIssuedAt: log.rewardIssuedAt,
        rewardExpiryAt: log.rewardExpiryAt,
      });
    }
    if (result.response.status === 404)
      throw new FlowAnswer(404, 'not_found', `reward_log_id: no reward log ${rewardLogId} in this shop's program`, 'reward_log_id');
    throw coreAnswer(result.response.status, result.error, result.response.headers, {
      couponCode: 'coupon_code',
      rewardIssuedAt: 'reward_issued_at',
      rewardExpiryAt: 'reward_expiry_at',
    });
  } catch (err) {
    if (err instanceof FlowAnswer) return reply(err);
    throw err;
  }
}

/**
 * grant-streak-freezes: CONTRACT §14's grant_freezes on the customer's in-progress run of the
 * streak. The run's key goes to the core as the grant's uniqueIdentifier, so two deliveries of one
 * run, at once or after a lost answer, grant once; the app keeps each run's first answer (by
 * idempotency key or action_run_id), so a retried run is answered as it was, even after the streak
 * was renamed. No connection of the app's is held while the core is asked: a slow core holds this
 * action only, not the routes that share the pool.
 */
export async function grantStreakFreezes(ctx: FlowContext, deps: FlowDeps & { pool: pg.Pool }): Promise<Response> {
  try {
    const props = Properties.of(ctx.payload);
    const customer = props.customer('customer_id');
    const streak = props.reference('streak_id');
    const count = props.integer('count', 1, 10);
    const runKey = runKeyOf(props, ctx.payload).key;
    const run = [ctx.session.shop, `grant-streak-freezes:${runKey}`];
    const { rows } = await deps.pool.query<{ answer: unknown }>(
      'select answer from flow_action_runs where shop = $1 and run_key = $2',
      run,
    );
    if (isJsonObject(rows[0]?.answer)) return Response.json({ ...rows[0].answer, replay: true });
    const api = await shopClient(deps, ctx.session.shop);
    const streakId = await definitionId(api, 'streak', streak, 'streak_id');
    const memberId = await findMember(api, customer);
    if (!memberId) throw new FlowAnswer(404, 'not_found', `customer_id: customer ${customer} has no loyalty record yet`, 'customer_id');
    const runs = await callCore(() =>
      api.GET('/schema/streak_progress/record', {
        params: {
          query: {
            filters: JSON.stringify(whereAll({ streakId, ownedById: memberId, streakProgressStatus: 'in_progress' })),
            limit: 1,
          },
        },
      }),
    );
    if (!runs.data) throw coreAnswer(runs.response.status, runs.error, runs.response.headers, {});
    const progress = runs.data.data[0];
    if (!progress)
      throw new FlowAnswer(
        404,
        'not_found',
        `streak_id: customer ${customer} has no streak ${'name' in streak ? `“${streak.name}”` : streakId} in progress`,
        'streak_id',
      );
    const granted = await callCore(() =>
      api.POST('/schema/streak_progress/record/{id}/action/grant_freezes', {
        params: { path: { id: progress.id } },
        body: { count, uniqueIdentifier: `flow:grant-streak-freezes:${runKey}` },
      }),
    );
    let data = granted.data?.data;
    if (!data && granted.error?.error.code === 'duplicate_unique_identifier') {
      const done = await callCore(() => api.GET('/schema/streak_progress/record/{id}', { params: { path: { id: progress.id } } }));
      data = done.data?.data;
    }
    if (!data) throw coreAnswer(granted.response.status, granted.error, granted.response.headers, { count: 'count' });
    // The first delivery's answer is kept; one racing it answers the same.
    const { rows: kept } = await deps.pool.query<{ answer: JsonObject }>(
      `insert into flow_action_runs (shop, run_key, answer) values ($1, $2, $3)
       on conflict (shop, run_key) do update set answer = coalesce(flow_action_runs.answer, excluded.answer)
       returning answer`,
      [...run, JSON.stringify({ ok: true, streakProgressId: data.id, freezesAvailable: data.freezesAvailable ?? null })],
    );
    return Response.json(kept[0]!.answer);
  } catch (err) {
    if (err instanceof FlowAnswer) return reply(err);
    throw err;
  }
}

/** The id of the customer's member (externalId the customer's GID), if the program has one. */
async function findMember(api: AccountClient, customer: string): Promise<string | undefined> {
  const members = await callCore(() =>
    api.GET('/schema/account_user/record', {
      params: { query: { filters: JSON.stringify(whereAll({ externalId: customer })), limit: 1 } },
    }),
  );
  if (!members.data) throw coreAnswer(members.response.status, members.error, members.response.headers, {});
  return members.data.data[0]?.id;
}

/**
 * The customer's member, made from their Shopify record when the program has none yet (points can be
 * the first thing a customer gets). A member made meanwhile by another run is read again.
 */
async function memberFor(api: AccountClient, admin: AdminGraphql, customer: string): Promise<string> {
  const existing = await findMember(api, customer);
  if (existing) return existing;
  let found;
  try {
    found = await fetchCustomer(admin, customer);
  } catch {
    throw unavailable('The Shopify Admin API did not answer the customer lookup.');
  }
  if (!found) throw new FlowAnswer(404, 'not_found', `customer_id: no customer ${customer} in this shop`, 'customer_id');
  const made = await callCore(() => createMember(api, memberOfCustomer(customer, found)));
  if (made.data) return made.data.data.id;
  const raced = made.response.status === 409 ? await findMember(api, customer) : undefined;
  if (raced) return raced;
  throw coreAnswer(made.response.status, made.error, made.response.headers, {});
}

/**
 * adjust-points: an `adjusted` point entry (CONTRACT §19) for the customer, once per run: the run's
 * key is the entry's uniqueIdentifier, so a retried run finds its entry and changes nothing. Taking
 * off more than the balance is refused (409 insufficient_points), which Flow does not retry.
 */
export async function adjustPoints(ctx: FlowContext, deps: FlowDeps): Promise<Response> {
  try {
    const props = Properties.of(ctx.payload);
    const customer = props.customer('customer_id');
    const points = props.integer('points', -1_000_000, 1_000_000);
    if (points === 0) throw bad('points', 'must not be 0');
    const note = props.text('note', false);
    const run = runKeyOf(props, ctx.payload);
    const api = await shopClient(deps, ctx.session.shop);
    const ownedById = await memberFor(api, ctx.admin, customer);
    const result = await callCore(() =>
      api.POST('/schema/point_entry/record', {
        body: { ownedById, points, reason: 'adjusted', ...(note ? { note } : {}), uniqueIdentifier: `flow:${run.key}` },
      }),
    );
    if (result.data) return Response.json({ ok: true, pointEntryId: result.data.data.id });
    const error = result.error?.error;
    if (result.response.status === 409 && error?.code === 'duplicate_unique_identifier') {
      // The core names the entry holding the key only to the member it belongs to.
      const pointEntryId = existingId(result.error);
      if (!pointEntryId) throw keyTaken(run, "adjusted another customer's points");
      return Response.json({ ok: true, replay: true, pointEntryId });
    }
    throw coreAnswer(result.response.status, result.error, result.response.headers, { points: 'points', note: 'note' });
  } catch (err) {
    if (err instanceof FlowAnswer) return reply(err);
    throw err;
  }
}

/**
 * Flow action "Set birthday": the customer's birthday for birthday points (from a birth_date
 * metafield a form filled, say), set as the shop sets it, over one the customer gave. The same
 * birthday again changes nothing, so a retried run answers as the first.
 */
export async function setBirthday(ctx: FlowContext, deps: FlowDeps): Promise<Response> {
  try {
    const props = Properties.of(ctx.payload);
    const customer = props.customer('customer_id');
    const birthday = props.birthday('birthday');
    const api = await shopClient(deps, ctx.session.shop);
    const id = await memberFor(api, ctx.admin, customer);
    const result = await callCore(() => api.PATCH('/schema/account_user/record/{id}', { params: { path: { id } }, body: { birthday } }));
    if (result.data) return Response.json({ ok: true, memberId: id, birthday: result.data.data.birthday });
    throw coreAnswer(result.response.status, result.error, result.response.headers, { birthday: 'birthday' });
  } catch (err) {
    if (err instanceof FlowAnswer) return reply(err);
    throw err;
  }
}
