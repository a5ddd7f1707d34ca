import type pg from 'pg';
import type { AccountClient } from '../core/client.server';
import { type GroupMoments, type Lift, lift } from './stats';

/**
 * What the program earns (CONTRACT §18), from the order facts the orders webhooks keep
 * (`order_facts`, each with its customer's membership: the program has earned for them since
 * `member_from`), the codes it issued (`program_codes`, copied from the core's reward logs, and
 * the app's own Shopify discounts in `reward_discounts`) and the referrals it credited (`shopify_referrals`). A period is whole days in the account's timezone; money is net of
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
  /** First orders of new customers that came through a member's referral link and earned the referral, with their net revenue. */
  referredOrders: number;
  referredRevenue: number;
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

/**
 * The code figures read the chosen period and the one before it in one pass each: $1 shop, $2 the
 * previous period's first day, $3 the chosen period's first day, $4 its last day, $5 the timezone.
 * Days are whole days in the account's timezone; the previous period ends where the chosen begins.
 */
const PREVIOUS_START = '($2::date)::timestamp at time zone $5';
const START = '($3::date)::timestamp at time zone $5';
const END = '($4::date + 1)::timestamp at time zone $5';

/**
 * §18's group of `per.customer_id` in `d.id`'s holdout: held out when the first four bytes of SHA-256
 * over `<definition>:<member id>`, an unsigned big-endian integer, times 100 are below the percent times
 * 2^32, that is when the digest sorts below `d.below` (heldOutBelow), compared as bytes. `textsend`
 * gives the string's bytes (ids are ASCII) at less cost than `convert_to`, and comparing the whole
 * digest spares a `substring` per customer and definition.
 */
const HELD_OUT = `sha256(textsend(d.id || ':gid://shopify/Customer/' || per.customer_id)) < d.below`;

/**
 * The bytes a held-out member's digest sorts below: ceil(percent × 2^32 / 100), big-endian, a prefix
 * only the digests whose first four bytes are smaller sort below; above every digest at 100 %.
 */
function heldOutBelow(percent: number): Buffer {
  if (percent >= 100) return Buffer.alloc(33, 0xff);
  const below = Buffer.alloc(4);
  below.writeUInt32BE(Number((BigInt(Math.max(0, Math.round(percent))) * 2n ** 32n + 99n) / 100n));
  return below;
}

/**
 * Whether a used code (`d->>'code'`, upper-cased) is one the program issued: a core reward log's code,
 * or one of the app's discounts not stamped on its log yet (their codes are upper-case). Each a key
 * lookup, so only the orders that used codes are looked at.
 */
const ISSUED_CODE = `(exists (select 1 from program_codes c where c.shop = $1 and c.code = d->>'code')
  or exists (select 1 from reward_discounts r where r.shop = $1 and r.code = d->>'code'))`;

const num = (value: string | number | null | undefined) => Number(value ?? 0);

type Bounds = [shop: string, previousFrom: string, from: string, to: string, timezone: string];

interface PeriodCustomers {
  /** Ordering customers who were members (the program had earned for them by the period's end), and the others. */
  groups: (member: boolean) => GroupFigures;
  /** Per definition id, its ordering customers out of (`held` false) and in its holdout. */
  holdouts: (id: string, held: boolean) => GroupMoments;
}

/**
 * A period's ordering customers, each once with their kept orders and net revenue (an order refunded
 * or cancelled in full is not kept): their groups, and for each definition its customers in and out
 * of its holdout, whatever they did in the program (the group is §18's hash of the definition and the
 * customer's member id, so the comparison is the randomised one, intention to treat). One statement
 * per period: the customers are grouped once for both figures, and the two periods' statements run
 * side by side. Sums are in double precision (the statistics are estimates, and revenue is rounded
 * to cents), which groups a period's customers in half the time of numeric.
 */
async function periodCustomers(
  pool: pg.Pool,
  shop: string,
  period: { from: string; to: string; timezone: string },
  definitions: HoldoutDefinition[],
): Promise<PeriodCustomers> {
  const { rows } = await pool.query<{
    id: string | null;
    flag: boolean;
    n: string;
    repeaters: string | null;
    total: number | null;
    mean: number | null;
    variance: number | null;
  }>(
    `with bounds as materialized (
       select ($2::date)::timestamp at time zone $4 as start, ($3::date + 1)::timestamp at time zone $4 as "end"
     ),
     per as materialized (
       select customer_id, count(*) as orders, sum((amount - refunded)::float8) as net,
         coalesce(min(member_from) < min(bounds."end"), false) as member
       from order_facts, bounds
       where shop = $1 and processed_at is not null and processed_at >= bounds.start and processed_at < bounds."end" and amount > refunded
       group by 1
     ),
     defs as (select * from unnest($5::text[], $6::bytea[]) as d(id, below))
     select null as id, member as flag, count(*) as n, count(*) filter (where orders >= 2) as repeaters,
       sum(net) as total, null::float8 as mean, null::float8 as variance
     from per group by 2
     union all
     select d.id, ${HELD_OUT}, count(*), null, null, avg(per.net), var_samp(per.net)
     from per cross join defs d group by 1, 2`,
    [shop, period.from, period.to, period.timezone, definitions.map((d) => d.id), definitions.map((d) => heldOutBelow(d.percent))],
  );
  const row = (id: string | null, flag: boolean) => rows.find((r) => r.id === id && r.flag === flag);
  return {
    groups: (member) => {
      const r = row(null, member);
      return { customers: num(r?.n), repeatCustomers: num(r?.repeaters), revenue: Math.round(num(r?.total) * 100) / 100 };
    },
    holdouts: (id, held) => {
      const r = row(id, held);
      return { n: num(r?.n), mean: num(r?.mean), variance: num(r?.variance) };
    },
  };
}

/**
 * Orders of both periods that used an issued code, once each however many such codes they used,
 * per day (in the account's timezone) with their net revenue and the discount those codes gave.
 */
async function codedDays(pool: pg.Pool, bounds: Bounds) {
  const { rows } = await pool.query<{ day: string; current: boolean; orders: string; revenue: string | null; discount: string | null }>(
    `with coded as (
       select f.order_id, f.processed_at, f.amount - f.refunded as net, sum(coalesce((d->>'amount')::numeric, 0)) as discount
       from order_facts f cross join lateral jsonb_array_elements(f.discount_codes) d
       where f.shop = $1 and f.discount_codes <> '[]' and f.processed_at >= ${PREVIOUS_START} and f.processed_at < ${END}
         and f.amount > f.refunded and ${ISSUED_CODE}
       group by f.order_id, f.processed_at, f.amount, f.refunded
     )
     select to_char((processed_at at time zone $5)::date, 'YYYY-MM-DD') as day, processed_at >= ${START} as current,
       count(*) as orders, sum(net) as revenue, sum(discount) as discount
     from coded group by 1, 2`,
    bounds,
  );
  return rows.map((r) => ({ day: r.day, current: r.current, orders: num(r.orders), revenue: num(r.revenue), discount: num(r.discount) }));
}

/**
 * Codes issued in each period, and how many of them orders kept since the period began have used
 * (a code in both the core's reward logs and the app's discounts counts once, issued when first).
 */
async function codeUse(pool: pg.Pool, bounds: Bounds) {
  const { rows } = await pool.query<{ current: boolean; issued: string; used: string }>(
    `with issued as (
       select code, min(at) as at from (
         select code, issued_at as at from program_codes where shop = $1 and issued_at >= ${PREVIOUS_START} and issued_at < ${END}
         union all select code, created_at from reward_discounts where shop = $1 and created_at >= ${PREVIOUS_START} and created_at < ${END}
       ) c group by code
     ),
     used as (
       select d->>'code' as code, max(f.processed_at) as last
       from order_facts f cross join lateral jsonb_array_elements(f.discount_codes) d
       where f.shop = $1 and f.discount_codes <> '[]' and f.processed_at >= ${PREVIOUS_START} and f.amount > f.refunded
       group by 1
     )
     select i.at >= ${START} as current, count(*) as issued,
       count(*) filter (where u.last >= case when i.at >= ${START} then ${START} else ${PREVIOUS_START} end) as used
     from issued i left join used u on u.code = i.code group by 1`,
    bounds,
  );
  return (current: boolean) => {
    const row = rows.find((r) => r.current === current);
    return { issued: num(row?.issued), used: num(row?.used) };
  };
}

/** Each period's orders that earned a referral (`shopify_referrals`), kept ones only, with their net revenue. */
async function referred(pool: pg.Pool, bounds: Bounds) {
  const { rows } = await pool.query<{ current: boolean; orders: string; revenue: string | null }>(
    `select f.processed_at >= ${START} as current, count(*) as orders, sum(f.amount - f.refunded) as revenue
     from shopify_referrals r join order_facts f on f.shop = r.shop and f.order_id = r.order_id
     where r.shop = $1 and f.processed_at >= ${PREVIOUS_START} and f.processed_at < ${END} and f.amount > f.refunded
     group by 1`,
    bounds,
  );
  return (current: boolean) => {
    const row = rows.find((r) => r.current === current);
    return { orders: num(row?.orders), revenue: Math.round(num(row?.revenue) * 100) / 100 };
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

/** Every day from `from` to `to`, as `YYYY-MM-DD`. */
function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000)
    days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

/** The shop's currency, as a kept order names it (any one: every amount is in the shop's currency). */
async function shopCurrency(pool: pg.Pool, shop: string): Promise<string | null> {
  const { rows } = await pool.query<{ currency: string }>(
    'select currency from shopify_orders where shop = $1 and currency is not null limit 1',
    [shop],
  );
  return rows[0]?.currency ?? null;
}

/**
 * `knownCurrency`: the shop's currency as the admin last read it from Shopify; without it, a kept
 * order's names it (none before the first order).
 */
export async function loadEarnings(
  pool: pg.Pool,
  shop: string,
  period: { from: string; to: string; timezone: string },
  definitions: HoldoutDefinition[],
  knownCurrency: string | null = null,
): Promise<Earnings> {
  const { from, to, timezone } = period;
  const before = previousPeriod(from, to);
  const bounds: Bounds = [shop, before.from, from, to, timezone];
  // Two lanes: the chosen period's customers, the longest statement (it also places them in each
  // holdout), on a connection of its own, and the rest one after another beside it, which take
  // about as long together. Side by side the five statements took longer: they shared the
  // database's cores, and the longest finished last.
  const rest = async () => {
    const previousCustomers = await periodCustomers(pool, shop, { ...before, timezone }, []);
    const coded = await codedDays(pool, bounds);
    const codes = await codeUse(pool, bounds);
    const referrals = await referred(pool, bounds);
    return { previousCustomers, coded, codes, referrals, currency: knownCurrency ?? (await shopCurrency(pool, shop)) };
  };
  const [chosenCustomers, { previousCustomers, coded, codes, referrals, currency }] = await Promise.all([
    periodCustomers(pool, shop, period, definitions),
    rest(),
  ]);
  const figures = (range: { from: string; to: string }, current: boolean): PeriodFigures => {
    const sum = (key: 'orders' | 'revenue' | 'discount') => coded.reduce((total, d) => total + (d.current === current ? d[key] : 0), 0);
    return {
      ...range,
      programOrders: sum('orders'),
      programRevenue: sum('revenue'),
      discountGiven: sum('discount'),
      codesIssued: codes(current).issued,
      codesUsed: codes(current).used,
      referredOrders: referrals(current).orders,
      referredRevenue: referrals(current).revenue,
      members: (current ? chosenCustomers : previousCustomers).groups(true),
      others: (current ? chosenCustomers : previousCustomers).groups(false),
    };
  };
  const byDay = new Map(coded.filter((d) => d.current).map((d) => [d.day, d]));
  return {
    currency,
    current: figures({ from, to }, true),
    previous: figures(before, false),
    days: daysOf(from, to).map((date) => ({
      date,
      programOrders: byDay.get(date)?.orders ?? 0,
      programRevenue: byDay.get(date)?.revenue ?? 0,
    })),
    holdouts: definitions.map((d) => {
      const inGroup = chosenCustomers.holdouts(d.id, false);
      const outGroup = chosenCustomers.holdouts(d.id, true);
      return { kind: d.kind, name: d.name, percent: d.percent, inGroup, outGroup, lift: lift(inGroup, outGroup) };
    }),
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
 * The figures of a range as the dashboard and its export show them, in the shop's `currency`: the
 * codes the core issued since the last look are copied first, best effort (the figures still show
 * without the newest).
 */
export async function currentEarnings(
  pool: pg.Pool,
  api: AccountClient,
  shop: string,
  range: { from: string; to: string; timezone: string },
  currency: string | null,
): Promise<Earnings> {
  await syncProgramCodes(pool, api, shop).catch((err: unknown) =>
    console.error(`[loyalty] could not copy the program's codes for ${shop}: ${err instanceof Error ? err.message : String(err)}`),
  );
  return loadEarnings(pool, shop, range, await holdoutDefinitions(api), currency);
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
