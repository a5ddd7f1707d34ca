import type pg from 'pg';
import type { AccountClient } from '../core/client.server';
import { type GroupMoments, type Lift, lift } from './stats';

/**
 * What the program earns (CONTRACT §18), from the order facts the orders webhooks keep
 * (`order_facts`), the customers the program earned for (`program_members`) and the codes it
 * issued (`program_codes`, copied from the core's reward logs, and the app's own Shopify discounts
 * in `reward_discounts`). A period is whole days in the account's timezone; money is net of
 * refunds, and an order refunded or cancelled in full counts for nothing.
 */

export interface GroupFigures {
  /** Customers with at least one order the period kept. */
  customers: number;
  /** Of them, those with two or more. */
  repeatCustomers: number;
  revenue: number;
}

export interface PeriodFigures {
  from: string;
  to: string;
  /** Orders that used a code the program issued, counted once however many such codes they used. */
  programOrders: number;
  programRevenue: number;
  discountGiven: number;
  /** Codes issued in the period, and how many of them orders have used so far. */
  codesIssued: number;
  codesUsed: number;
  members: GroupFigures;
  others: GroupFigures;
}

export interface EarningsDay {
  date: string;
  programRevenue: number;
  programOrders: number;
}

export interface HoldoutComparison {
  kind: 'streak' | 'challenge' | 'mission';
  name: string;
  percent: number;
  inGroup: GroupMoments;
  outGroup: GroupMoments;
  /** Null: not enough orders yet. */
  lift: Lift | null;
}

export interface Earnings {
  currency: string | null;
  current: PeriodFigures;
  previous: PeriodFigures;
  days: EarningsDay[];
  holdouts: HoldoutComparison[];
}

export interface HoldoutDefinition {
  kind: HoldoutComparison['kind'];
  id: string;
  name: string;
  percent: number;
}

/** A period's bounds as instants: $2 and $3 are its first and last day, $4 the timezone. */
const START = '($2::date)::timestamp at time zone $4';
const END = '($3::date + 1)::timestamp at time zone $4';

/** Each ordering customer's kept orders and net revenue in the period ($1 shop). */
const PER_CUSTOMER = `select customer_id, count(*) filter (where amount > refunded) as orders, sum(amount - refunded) as net
  from order_facts where shop = $1 and processed_at is not null and processed_at >= ${START} and processed_at < ${END}
  group by customer_id`;

/**
 * Whether a used code (`d->>'code'`, upper-cased) is one the program issued: a core reward log's code,
 * or one of the app's discounts not stamped on its log yet (their codes are upper-case). Each a key
 * lookup, so only the orders that used codes are looked at.
 */
const ISSUED_CODE = `(exists (select 1 from program_codes c where c.shop = $1 and c.code = d->>'code')
  or exists (select 1 from reward_discounts r where r.shop = $1 and r.code = d->>'code'))`;

/** Orders of the period that used an issued code, once each, with the discount those codes gave. */
const CODED = `select f.order_id, f.processed_at, f.amount - f.refunded as net, sum(coalesce((d->>'amount')::numeric, 0)) as discount
  from order_facts f cross join lateral jsonb_array_elements(f.discount_codes) d
  where f.shop = $1 and f.discount_codes <> '[]' and f.processed_at >= ${START} and f.processed_at < ${END} and f.amount > f.refunded
    and ${ISSUED_CODE}
  group by f.order_id, f.processed_at, f.amount, f.refunded`;

const num = (value: string | number | null | undefined) => Number(value ?? 0);

async function periodFigures(pool: pg.Pool, shop: string, from: string, to: string, timezone: string): Promise<PeriodFigures> {
  const params = [shop, from, to, timezone];
  const [groups, coded, codes] = await Promise.all([
    pool.query<{ member: boolean; customers: string; repeaters: string; revenue: string | null }>(
      `with per as (${PER_CUSTOMER})
       select (m.customer_id is not null) as member, count(*) filter (where per.orders > 0) as customers,
         count(*) filter (where per.orders >= 2) as repeaters, sum(per.net) filter (where per.orders > 0) as revenue
       from per left join program_members m on m.shop = $1 and m.customer_id = per.customer_id and m.joined_at < ${END}
       group by 1`,
      params,
    ),
    pool.query<{ orders: string; revenue: string | null; discount: string | null }>(
      `with coded as (${CODED}) select count(*) as orders, sum(net) as revenue, sum(discount) as discount from coded`,
      params,
    ),
    pool.query<{ issued: string; used: string }>(
      `with period as (
         select code from program_codes where shop = $1 and issued_at >= ${START} and issued_at < ${END}
         union select code from reward_discounts where shop = $1 and created_at >= ${START} and created_at < ${END}
       )
       select (select count(*) from period) as issued,
         (select count(distinct d->>'code') from order_facts f cross join lateral jsonb_array_elements(f.discount_codes) d
          where f.shop = $1 and f.discount_codes <> '[]' and f.processed_at >= ${START} and f.amount > f.refunded
            and d->>'code' in (select code from period)) as used`,
      params,
    ),
  ]);
  const group = (member: boolean): GroupFigures => {
    const row = groups.rows.find((r) => r.member === member);
    return { customers: num(row?.customers), repeatCustomers: num(row?.repeaters), revenue: num(row?.revenue) };
  };
  return {
    from,
    to,
    programOrders: num(coded.rows[0]?.orders),
    programRevenue: num(coded.rows[0]?.revenue),
    discountGiven: num(coded.rows[0]?.discount),
    codesIssued: num(codes.rows[0]?.issued),
    codesUsed: num(codes.rows[0]?.used),
    members: group(true),
    others: group(false),
  };
}

/** The period of equal length just before `from`..`to` (whole days). */
export function previousPeriod(from: string, to: string): { from: string; to: string } {
  const day = 86_400_000;
  const start = Date.parse(`${from}T00:00:00Z`);
  const days = Math.round((Date.parse(`${to}T00:00:00Z`) - start) / day) + 1;
  const iso = (t: number) => new Date(t).toISOString().slice(0, 10);
  return { from: iso(start - days * day), to: iso(start - day) };
}

/**
 * Members in and out of each definition's holdout among the period's ordering customers, whatever
 * they did in the program: the group is §18's hash of the definition and the customer's member id,
 * so the comparison is the randomised one (intention to treat).
 */
async function holdoutComparisons(
  pool: pg.Pool,
  shop: string,
  from: string,
  to: string,
  timezone: string,
  definitions: HoldoutDefinition[],
): Promise<HoldoutComparison[]> {
  if (!definitions.length) return [];
  const { rows } = await pool.query<{ id: string; held: boolean; n: string; mean: string | null; variance: string | null }>(
    `with per as (${PER_CUSTOMER}), defs as (select * from unnest($5::text[], $6::int[]) as d(id, percent))
     select d.id,
       ('x' || encode(substring(sha256(convert_to(d.id || ':gid://shopify/Customer/' || per.customer_id, 'UTF8')) from 1 for 4), 'hex'))::bit(32)::bigint * 100
         < d.percent::bigint * 4294967296 as held,
       count(*) as n, avg(per.net) as mean, var_samp(per.net) as variance
     from per cross join defs d where per.orders > 0 group by 1, 2`,
    [shop, from, to, timezone, definitions.map((d) => d.id), definitions.map((d) => d.percent)],
  );
  const moments = (id: string, held: boolean): GroupMoments => {
    const row = rows.find((r) => r.id === id && r.held === held);
    return { n: num(row?.n), mean: num(row?.mean), variance: num(row?.variance) };
  };
  return definitions.map((d) => {
    const inGroup = moments(d.id, false);
    const outGroup = moments(d.id, true);
    return { kind: d.kind, name: d.name, percent: d.percent, inGroup, outGroup, lift: lift(inGroup, outGroup) };
  });
}

/** The shop's currency, as a kept order names it (any one: every amount is in the shop's currency). */
async function shopCurrency(pool: pg.Pool, shop: string): Promise<string | null> {
  const { rows } = await pool.query<{ currency: string }>(
    'select currency from shopify_orders where shop = $1 and currency is not null limit 1',
    [shop],
  );
  return rows[0]?.currency ?? null;
}

export async function loadEarnings(
  pool: pg.Pool,
  shop: string,
  period: { from: string; to: string; timezone: string },
  definitions: HoldoutDefinition[],
): Promise<Earnings> {
  const { from, to, timezone } = period;
  const before = previousPeriod(from, to);
  const [currency, current, previous, days, holdouts] = await Promise.all([
    shopCurrency(pool, shop),
    periodFigures(pool, shop, from, to, timezone),
    periodFigures(pool, shop, before.from, before.to, timezone),
    pool.query<{ day: string; orders: string; revenue: string }>(
      `with coded as (${CODED}),
         per_day as (select (processed_at at time zone $4)::date as day, count(*) as orders, sum(net) as revenue from coded group by 1)
       select to_char(g.day, 'YYYY-MM-DD') as day, coalesce(p.orders, 0) as orders, coalesce(p.revenue, 0) as revenue
       from generate_series($2::date, $3::date, interval '1 day') g(day) left join per_day p on p.day = g.day::date
       order by g.day`,
      [shop, from, to, timezone],
    ),
    holdoutComparisons(pool, shop, from, to, timezone, definitions),
  ]);
  return {
    currency,
    current,
    previous,
    days: days.rows.map((r) => ({ date: r.day, programOrders: num(r.orders), programRevenue: num(r.revenue) })),
    holdouts,
  };
}

/** The live and draft definitions that hold members out, from the core. */
export async function holdoutDefinitions(api: AccountClient): Promise<HoldoutDefinition[]> {
  const query = {
    filters: JSON.stringify({ operator: 'and', conditions: [{ fieldSlug: 'holdoutPercent', operator: 'gt', fieldValue: 0 }] }),
    limit: 100,
  };
  const [streaks, challenges, missions] = await Promise.all([
    api.GET('/schema/streak/record', { params: { query } }),
    api.GET('/schema/challenge/record', { params: { query } }),
    api.GET('/schema/mission/record', { params: { query } }),
  ]);
  const of = (kind: HoldoutDefinition['kind'], rows: { id: string; name?: string | null; holdoutPercent?: number | null }[] | undefined) =>
    (rows ?? []).map((d) => ({ kind, id: d.id, name: d.name ?? '', percent: d.holdoutPercent ?? 0 }));
  return [...of('streak', streaks.data?.data), ...of('challenge', challenges.data?.data), ...of('mission', missions.data?.data)];
}

/**
 * The figures of a range as the dashboard and its export show them: the codes the core issued since
 * the last look are copied first, best effort (the figures still show without the newest).
 */
export async function currentEarnings(
  pool: pg.Pool,
  api: AccountClient,
  shop: string,
  range: { from: string; to: string; timezone: string },
): Promise<Earnings> {
  await syncProgramCodes(pool, api, shop).catch((err: unknown) =>
    console.error(`[loyalty] could not copy the program's codes for ${shop}: ${err instanceof Error ? err.message : String(err)}`),
  );
  return loadEarnings(pool, shop, range, await holdoutDefinitions(api));
}

/** Pages of the core's reward logs copied per dashboard load, so a shop's first load stays quick; the rest follow on the next. */
const CODE_PAGES = 10;
const PAGE = 1000;

/**
 * Copies the codes of reward logs issued since the latest copied one into `program_codes` (the
 * latest instant is asked again, so logs issued in the same millisecond are not missed).
 */
export async function syncProgramCodes(pool: pg.Pool, api: AccountClient, shop: string): Promise<void> {
  const { rows } = await pool.query<{ since: Date | null }>('select max(issued_at) as since from program_codes where shop = $1', [shop]);
  const since = rows[0]?.since ?? null;
  const conditions: object[] = [{ fieldSlug: 'couponCode', operator: 'is_not_null', fieldValue: null }];
  if (since) conditions.push({ fieldSlug: 'rewardIssuedAt', operator: 'gte', fieldValue: since.toISOString() });
  for (let page = 0; page < CODE_PAGES; page++) {
    const { data } = await api.GET('/schema/reward_log/record', {
      params: {
        query: {
          filters: JSON.stringify({ operator: 'and', conditions }),
          sortBy: JSON.stringify([{ fieldSlug: 'rewardIssuedAt', order: 'ASC' }]),
          fields: JSON.stringify(['couponCode', 'rewardIssuedAt', 'createdAt']),
          limit: PAGE,
          offset: page * PAGE,
        },
      },
    });
    if (!data) return;
    const codes = data.data.flatMap((r) =>
      r.couponCode ? [{ code: r.couponCode.trim().toUpperCase(), at: r.rewardIssuedAt ?? r.createdAt }] : [],
    );
    if (codes.length)
      await pool.query(
        `insert into program_codes (shop, code, issued_at) select $1, code, at from unnest($2::text[], $3::timestamptz[]) as c(code, at)
         on conflict do nothing`,
        [shop, codes.map((c) => c.code), codes.map((c) => c.at)],
      );
    if (!data.paging.hasMore) return;
  }
}
