import type pg from 'pg';
import type { AccountClient } from '../core/client.server';
import { CoreError } from '../core/client.server';
import { shopifyCustomerId } from '../shopify/customer-ids.server';
import type { Earnings, PeriodFigures } from './earnings.server';
import type { PointsFigures } from './points';

/**
 * The dashboard's CSV exports (CONTRACT §18): the period's figures beside the previous period's,
 * and every member with their progress, rewards, order totals, points and tier, streamed a page of the core's
 * members at a time so a large shop's export never sits in memory whole.
 */

/**
 * A text a spreadsheet would run as a formula (OWASP's CSV injection): it starts with = + - @, a
 * tab or a carriage return and is not a plain number. A shopper names themselves, so such a name
 * gets a leading apostrophe, which spreadsheets show as text.
 */
const formulaLike = (text: string) => /^[=+\-@\t\r]/.test(text) && !/^[+-]?\d+(\.\d+)?$/.test(text);

/** One CSV line (RFC 4180): fields with a comma, quote or line break quoted, quotes doubled, formulas defused. */
export function csvLine(values: (string | number | null)[]): string {
  return `${values
    .map((v) => {
      const text = v === null ? '' : typeof v === 'string' && formulaLike(v) ? `'${v}` : String(v);
      return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
    })
    .join(',')}\r\n`;
}

const ratio = (part: number, whole: number) => (whole ? (part / whole).toFixed(4) : null);
const perCustomer = (revenue: number, customers: number) => (customers ? (revenue / customers).toFixed(2) : null);

function periodRows(label: string, p: PeriodFigures): (string | number | null)[][] {
  return [
    [label, 'program_orders', p.programOrders],
    [label, 'program_revenue', p.programRevenue.toFixed(2)],
    [label, 'discount_given', p.discountGiven.toFixed(2)],
    [label, 'codes_issued', p.codesIssued],
    [label, 'codes_used', p.codesUsed],
    [label, 'redemption_rate', ratio(p.codesUsed, p.codesIssued)],
    [label, 'referred_orders', p.referredOrders],
    [label, 'referred_revenue', p.referredRevenue.toFixed(2)],
    [label, 'members_ordering', p.members.customers],
    [label, 'members_repeat_rate', ratio(p.members.repeatCustomers, p.members.customers)],
    [label, 'members_revenue_per_customer', perCustomer(p.members.revenue, p.members.customers)],
    [label, 'others_ordering', p.others.customers],
    [label, 'others_repeat_rate', ratio(p.others.repeatCustomers, p.others.customers)],
    [label, 'others_revenue_per_customer', perCustomer(p.others.revenue, p.others.customers)],
  ];
}

/** The figures as rows of period, figure, value; then the points, and each holdout's groups and lift. */
export function figuresCsv(earnings: Earnings, points: PointsFigures): string {
  const { current, previous } = earnings;
  const rows: (string | number | null)[][] = [
    ['period', 'figure', 'value'],
    ['current', 'from', current.from],
    ['current', 'to', current.to],
    ['previous', 'from', previous.from],
    ['previous', 'to', previous.to],
    ['current', 'currency', earnings.currency],
    ...periodRows('current', current),
    ...periodRows('previous', previous),
    ['current', 'points_earned', points.earned],
    ['current', 'points_redeemed', points.redeemed],
    ['current', 'points_reversed', points.reversed],
    ['current', 'points_expired', points.expired],
    ['current', 'points_adjusted', points.adjusted],
    ['now', 'points_outstanding', points.outstanding],
    ['now', 'members_with_points', points.membersWithPoints],
  ];
  for (const h of earnings.holdouts) {
    const name = `holdout ${h.kind} "${h.name}" (${h.percent}%)`;
    rows.push(
      [name, 'in_ordering_customers', h.inGroup.n],
      [name, 'in_revenue_per_customer', h.inGroup.mean.toFixed(2)],
      [name, 'out_ordering_customers', h.outGroup.n],
      [name, 'out_revenue_per_customer', h.outGroup.mean.toFixed(2)],
      [name, 'relative_lift', h.lift ? h.lift.relative.toFixed(4) : 'not enough orders yet'],
      [name, 'relative_lift_95_low', h.lift ? h.lift.relativeLow.toFixed(4) : null],
      [name, 'relative_lift_95_high', h.lift ? h.lift.relativeHigh.toFixed(4) : null],
    );
  }
  return rows.map(csvLine).join('');
}

/** Members per page: their ids go into the page's list filters, and 200 of them keep each URL well inside the core's 16 KB. */
const MEMBER_PAGE = 200;

const MEMBER_HEADER = [
  'shopify_customer_id',
  'external_id',
  'first_name',
  'last_name',
  'email',
  'joined_at',
  'programs_in_progress',
  'programs_completed',
  'rewards_issued',
  'rewards_pending',
  'rewards_revoked',
  'orders',
  'order_total',
  'refunded_total',
  'points_balance',
  'points_earned_in_tier_window',
  'tier',
  'birthday',
  'referral_code',
  'referred_by',
  'social_follows',
  // live, or paused (left out by a customer tag): last, so the columns before keep their places.
  'status',
];

type Owned = { ownedById?: string | null };

/** Every record of a list owned by the page's members, paged through (a member has a few each). */
async function ownedBy<T extends Owned>(
  list: (query: { filters: string; limit: number; offset: number }) => Promise<{ data?: { data: T[]; paging: { hasMore: boolean } } }>,
  ids: string[],
): Promise<T[]> {
  const filters = JSON.stringify({ operator: 'and', conditions: [{ fieldSlug: 'ownedById', operator: 'in', fieldValue: ids }] });
  const all: T[] = [];
  for (let offset = 0; ; offset += 1000) {
    const answer = await list({ filters, limit: 1000, offset });
    if (!answer.data) throw new Error('the core did not answer a member list');
    all.push(...answer.data.data);
    if (!answer.data.paging.hasMore) return all;
  }
}

const countBy = <T extends Owned>(rows: T[], keep: (row: T) => boolean) => {
  const counts = new Map<string, number>();
  for (const row of rows) if (row.ownedById && keep(row)) counts.set(row.ownedById, (counts.get(row.ownedById) ?? 0) + 1);
  return counts;
};

/**
 * Who referred the page's members, by the referrer's Shopify customer id (their external id when
 * they are no Shopify customer): the page's own members, and the others read in one list.
 */
async function referrersOf(
  api: AccountClient,
  members: { id: string; externalId?: string | null; referredById?: string | null }[],
): Promise<Map<string, string>> {
  const known = new Map(members.map((m) => [m.id, m.externalId ?? '']));
  const missing = [...new Set(members.flatMap((m) => (m.referredById && !known.has(m.referredById) ? [m.referredById] : [])))];
  if (missing.length) {
    const filters = JSON.stringify({ operator: 'and', conditions: [{ fieldSlug: 'id', operator: 'in', fieldValue: missing }] });
    const { data, error, response } = await api.GET('/schema/account_user/record', {
      params: { query: { filters, limit: missing.length } },
    });
    if (!data) throw new CoreError(response.status, error);
    for (const m of data.data) known.set(m.id, m.externalId ?? '');
  }
  return new Map([...known].map(([id, externalId]) => [id, String(shopifyCustomerId(externalId) ?? externalId)]));
}

/** The account's tiers by id, their names (a handful per account: read once per export). */
async function tierNames(api: AccountClient): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (let offset = 0; ; offset += 1000) {
    const { data, error, response } = await api.GET('/schema/tier/record', { params: { query: { limit: 1000, offset } } });
    if (!data) throw new CoreError(response.status, error);
    for (const tier of data.data) names.set(tier.id, tier.name ?? '');
    if (!data.paging.hasMore) return names;
  }
}

/** One page of members as CSV lines, and whether more follow. */
async function memberPage(
  api: AccountClient,
  pool: pg.Pool,
  shop: string,
  offset: number,
  tiers: Promise<Map<string, string>>,
): Promise<{ text: string; more: boolean }> {
  const { data, error, response } = await api.GET('/schema/account_user/record', {
    params: { query: { limit: MEMBER_PAGE, offset, sortBy: JSON.stringify([{ fieldSlug: 'createdAt', order: 'ASC' }]) } },
  });
  if (!data) throw new CoreError(response.status, error);
  const members = data.data;
  if (!members.length) return { text: '', more: false };
  const ids = members.map((m) => m.id);
  const [streaks, challenges, missions, rewards, tierNameOf] = await Promise.all([
    ownedBy((query) => api.GET('/schema/streak_progress/record', { params: { query } }), ids),
    ownedBy((query) => api.GET('/schema/challenge_progress/record', { params: { query } }), ids),
    ownedBy((query) => api.GET('/schema/mission_progress/record', { params: { query } }), ids),
    ownedBy((query) => api.GET('/schema/reward_log/record', { params: { query } }), ids),
    tiers,
  ]);
  const customers = members.map((m) => shopifyCustomerId(m.externalId));
  const referredBy = await referrersOf(api, members);
  const { rows: totals } = await pool.query<{ customer_id: string; orders: string; total: string; refunded: string }>(
    `select customer_id, count(*) as orders, sum(amount) as total, sum(refunded) as refunded from order_facts
     where shop = $1 and customer_id = any($2) and processed_at is not null group by customer_id`,
    [shop, customers.filter((c) => c !== null).map(String)],
  );
  const byCustomer = new Map(totals.map((t) => [t.customer_id, t]));
  const inProgress = [
    countBy(streaks, (p) => p.streakProgressStatus === 'in_progress'),
    countBy(challenges, (p) => p.challengeProgressStatus === 'in_progress'),
    countBy(missions, (p) => p.missionProgressStatus === 'in_progress'),
  ];
  const completed = [
    countBy(streaks, (p) => p.streakProgressStatus === 'completed'),
    countBy(challenges, (p) => p.challengeProgressStatus === 'completed'),
    countBy(missions, (p) => p.missionProgressStatus === 'completed'),
  ];
  const rewardCounts = (status: string) => countBy(rewards, (r) => (r.rewardLogStatus ?? 'issued') === status);
  const [issued, pending, revoked] = [rewardCounts('issued'), rewardCounts('pending'), rewardCounts('revoked')];
  const sum = (maps: Map<string, number>[], id: string) => maps.reduce((n, m) => n + (m.get(id) ?? 0), 0);
  const text = members
    .map((m, i) => {
      const customer = customers[i];
      const t = customer === null ? undefined : byCustomer.get(String(customer));
      return csvLine([
        customer ?? null,
        m.externalId ?? null,
        m.firstName ?? null,
        m.lastName ?? null,
        m.email ?? null,
        m.createdAt ?? null,
        sum(inProgress, m.id),
        sum(completed, m.id),
        issued.get(m.id) ?? 0,
        pending.get(m.id) ?? 0,
        revoked.get(m.id) ?? 0,
        t ? Number(t.orders) : 0,
        t ? Number(t.total).toFixed(2) : '0.00',
        t ? Number(t.refunded).toFixed(2) : '0.00',
        m.pointsBalance ?? 0,
        m.pointsEarnedInTierWindow ?? 0,
        m.tierId ? (tierNameOf.get(m.tierId) ?? null) : null,
        m.birthday ?? null,
        m.referralCode ?? null,
        m.referredById ? (referredBy.get(m.referredById) ?? null) : null,
        // The networks followed for points, space-separated: one cell a spreadsheet can filter on.
        (m.socialFollows ?? []).join(' ') || null,
        m.status ?? 'live',
      ]);
    })
    .join('');
  return { text, more: data.paging.hasMore };
}

/** The members export as a stream: the header, then one page of members per pull. */
export function membersCsv(api: AccountClient, pool: pg.Pool, shop: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let offset = 0;
  let more = true;
  let tiers: Promise<Map<string, string>> | undefined;
  return new ReadableStream({
    start(controller) {
      controller.enqueue(encoder.encode(csvLine(MEMBER_HEADER)));
    },
    async pull(controller) {
      if (!more) return controller.close();
      // The answer has begun: a failure can only cut the download short, so it is said here.
      tiers ??= tierNames(api);
      const page = await memberPage(api, pool, shop, offset, tiers).catch((err: unknown) => {
        console.error(`[loyalty] the members export of ${shop} failed at member ${offset}:`, err instanceof Error ? err.message : err);
        throw err;
      });
      offset += MEMBER_PAGE;
      more = page.more;
      if (page.text) controller.enqueue(encoder.encode(page.text));
      if (!more) controller.close();
    },
  });
}
