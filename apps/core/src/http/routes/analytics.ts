import type Router from '@koa/router';
import type { Knex } from 'knex';
import { DateTime } from 'luxon';
import { KeyedGate } from '../../concurrency.js';
import { type ErrorDetail, invalidQuery, rateLimited } from '../../errors.js';
import { LANGUAGE_CODES } from '../../formats.js';
import { type Status, STATUSES } from '../../records/fields.js';
import { MAX_HOLD_DAYS } from '../../schema/definitions.js';
import type { PointReason } from '../../schema/points.js';
import { dataResponse, errorResponses } from '../../records/openapi.js';
import type { Services } from '../../services.js';
import { allow, authenticate, only } from '../auth.js';
import { readNoBody } from '../body.js';
import { transaction } from '../../db/transaction.js';

/** The longest range one summary covers: a year of daily rows is what a dashboard chart can show. */
const MAX_DAYS = 366;
const DEFAULT_DAYS = 30;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
/**
 * The days a range may name: from the epoch, before which no account's data lies, to the last day
 * with a four-digit year; a range that would run past it ends there.
 */
const FIRST_DAY = '1970-01-01';
const LAST_DAY = '9999-12-31';
const KNOWN_PARAMS = new Set(['from', 'to', 'languageCode']);
/**
 * Reports of one account waiting for its turn at most; more are refused with 429. A report is the
 * heaviest read there is (a large account's takes PostgreSQL's CPU for seconds), so an account
 * runs one at a time: firing them within its rate limit it would otherwise take every core from
 * the other accounts. This turn replaces the account's share of the pool for reports, so waiting
 * ones hold nothing from its other requests; they are few all the same: enough for two admin
 * dashboards opened at once (two reports each).
 */
const REPORTS_WAITING = 3;

/**
 * `GET /analytics/summary?from=YYYY-MM-DD&to=YYYY-MM-DD` (API-key flow): the programme's numbers
 * per day of the account's time zone, both ends inclusive (default: the last 30 days) — members
 * active (distinct members with a log), logs, reward logs issued, points earned and redeemed; per
 * definition kind the progresses started in the range with how many of them completed; the range's
 * points by reason and the points members hold now. Feeds the Shopify admin dashboard.
 */
export function analyticsRoutes(router: Router, s: Services): void {
  const reports = new KeyedGate(1);
  /**
   * Runs a report's queries on one connection, in one snapshot, in its account's turn: its figures
   * agree with each other, and the report holds one pooled connection, however many queries it runs at once.
   */
  const snapshot = <T>(accountId: string, report: (db: Knex) => Promise<T>): Promise<T> => {
    if (reports.load(accountId).waiting >= REPORTS_WAITING) throw rateLimited(1);
    return reports.run(accountId, () => transaction(s.db, report, { isolationLevel: 'repeatable read', readOnly: true }));
  };
  router.all('/analytics/summary', authenticate(s, { ownTurn: true }), allow(only('GET', ['apikey'])), async (ctx) => {
    const account = ctx.state.identity.account!;
    const { from, to } = parseRange(ctx.query, account.timezone);
    await readNoBody(ctx);
    ctx.body = { data: await snapshot(account.id, (db) => summarise(db, account.id, account.timezone, from, to)) };
  });
  router.all('/analytics/programs', authenticate(s, { ownTurn: true }), allow(only('GET', ['apikey'])), async (ctx) => {
    const account = ctx.state.identity.account!;
    const { from, to } = parseRange(ctx.query, account.timezone);
    await readNoBody(ctx);
    ctx.body = { data: await snapshot(account.id, (db) => programHealth(db, account.id, account.timezone, from, to)) };
  });
}

function parseRange(query: Record<string, string | string[] | undefined>, timezone: string): { from: string; to: string } {
  const details: ErrorDetail[] = [];
  for (const name of Object.keys(query))
    if (!KNOWN_PARAMS.has(name)) details.push({ field: name, code: 'unknown', message: `Unknown query parameter "${name}".` });
  const read = (name: 'from' | 'to'): DateTime | undefined => {
    const value = query[name];
    if (value === undefined) return undefined;
    if (Array.isArray(value)) {
      details.push({ field: name, code: 'repeated', message: `"${name}" may be given once.` });
      return undefined;
    }
    const day = DAY.test(value) ? DateTime.fromISO(value, { zone: timezone }) : undefined;
    if (!day?.isValid) {
      details.push({ field: name, code: 'invalid', message: `"${name}" must be a date, YYYY-MM-DD.` });
      return undefined;
    }
    if (value < FIRST_DAY || value > LAST_DAY) {
      details.push({ field: name, code: 'out_of_range', message: `"${name}" must be a day from ${FIRST_DAY} to ${LAST_DAY}.` });
      return undefined;
    }
    return day;
  };
  const language = query.languageCode;
  if (language !== undefined && !LANGUAGE_CODES.some((code) => code === language))
    details.push({ field: 'languageCode', code: 'invalid', message: `"languageCode" must be one of ${LANGUAGE_CODES.join(', ')}.` });
  const givenFrom = read('from');
  const givenTo = read('to');
  if (details.length) throw invalidQuery('A query parameter is invalid.', details);
  const firstDay = DateTime.fromISO(FIRST_DAY, { zone: timezone });
  const lastDay = DateTime.fromISO(LAST_DAY, { zone: timezone });
  const to =
    givenTo ??
    (givenFrom ? DateTime.min(givenFrom.plus({ days: DEFAULT_DAYS - 1 }), lastDay) : DateTime.now().setZone(timezone).startOf('day'));
  const from = givenFrom ?? DateTime.max(to.minus({ days: DEFAULT_DAYS - 1 }), firstDay);
  if (from > to)
    throw invalidQuery('The range is empty.', [{ field: 'from', code: 'after_to', message: '"from" must not be after "to".' }]);
  if (to.diff(from, 'days').days + 1 > MAX_DAYS)
    throw invalidQuery('The range is too long.', [
      { field: 'to', code: 'too_long', message: `A summary covers at most ${MAX_DAYS} days.` },
    ]);
  return { from: from.toISODate()!, to: to.toISODate()! };
}

/** When a reward log was issued: a held one when its hold ended, any other when it was made. */
const ISSUED_AT = 'coalesce(confirm_at, created_at)';
/**
 * The account's reward logs issued between two instants: never one still pending or revoked while
 * pending, and one revoked after it was issued still counts. A hold lasts at most MAX_HOLD_DAYS, so
 * the account's range of `created_at` bounds the read.
 */
const issuedBetween = (from: string, to: string) =>
  `account_id = :accountId and created_at >= ${from} - interval '${MAX_HOLD_DAYS} days' and created_at < ${to}
   and ${ISSUED_AT} >= ${from} and ${ISSUED_AT} < ${to}
   and (reward_log_status = 'issued' or (reward_log_status = 'revoked' and (confirm_at is null or revoked_at >= confirm_at)))`;

interface DayRow {
  day: string;
  logs: number;
  active_members: number;
  rewards_issued: number;
}

async function summarise(db: Knex, accountId: string, timezone: string, from: string, to: string) {
  // Both ends are local dates; the bounds are the local midnights as instants.
  const bounds = { accountId, timezone, from, to };
  const start = `(:from::date)::timestamp at time zone :timezone`;
  const end = `(:to::date + 1)::timestamp at time zone :timezone`;
  const within = (column: string) => `${column} >= ${start} and ${column} < ${end}`;
  const logs = ['streak_log', 'challenge_log', 'mission_log']
    .map((table) => `select owned_by_id, activity_at from ${table} where account_id = :accountId and ${within('activity_at')}`)
    .join(' union all ');
  const days = await db.raw<{ rows: DayRow[] }>(
    `with logs as (${logs}),
     per_day_logs as (
       select (activity_at at time zone :timezone)::date as day, count(*)::int as logs, count(distinct owned_by_id)::int as active_members
       from logs group by 1),
     per_day_rewards as (
       select (${ISSUED_AT} at time zone :timezone)::date as day, count(*)::int as rewards_issued
       from reward_log where ${issuedBetween(start, end)} group by 1)
     select to_char(d.day, 'YYYY-MM-DD') as day, coalesce(l.logs, 0) as logs, coalesce(l.active_members, 0) as active_members,
            coalesce(r.rewards_issued, 0) as rewards_issued
     from generate_series(:from::date, :to::date, interval '1 day') as d(day)
     left join per_day_logs l on l.day = d.day::date
     left join per_day_rewards r on r.day = d.day::date
     order by d.day`,
    bounds,
  );
  const totals = await db.raw<{ rows: { active_members: number; logs: number }[] }>(
    `with logs as (${logs}) select count(distinct owned_by_id)::int as active_members, count(*)::int as logs from logs`,
    bounds,
  );
  const completion = async (table: string, startedAt: string, status: string) => {
    const { rows } = await db.raw<{ rows: { started: number; completed: number }[] }>(
      `select count(*)::int as started, count(*) filter (where ${status} = 'completed')::int as completed
       from ${table} where account_id = :accountId and ${within(startedAt)}`,
      bounds,
    );
    const { started, completed } = rows[0]!;
    return { started, completed, rate: started ? completed / started : null };
  };
  const entries = await db.raw<{ rows: { day: string; reason: PointReason; points: number }[] }>(
    `select to_char((created_at at time zone :timezone)::date, 'YYYY-MM-DD') as day, reason, sum(points)::float8 as points
     from point_entry where account_id = :accountId and ${within('created_at')} group by 1, 2`,
    bounds,
  );
  // What members hold now, whatever the range: the points the shop still owes them.
  const held = await db.raw<{ rows: { status: Status; outstanding: number; members: number }[] }>(
    `select (select status from points_setting where account_id = :accountId) as status,
            coalesce(sum(points_balance), 0)::float8 as outstanding, count(*)::int as members
     from account_user where account_id = :accountId and points_balance > 0`,
    bounds,
  );
  const streak = await completion('streak_progress', 'streak_started_at', 'streak_progress_status');
  const challenge = await completion('challenge_progress', 'challenge_started_at', 'challenge_progress_status');
  const mission = await completion('mission_progress', 'mission_started_at', 'mission_progress_status');
  // Points by reason as magnitudes (what was taken off for redeemed, reversed, expired), adjustments as their signed sum.
  const points = { earned: 0, redeemed: 0, reversed: 0, expired: 0, adjusted: 0 };
  const pointsPerDay = new Map<string, { earned: number; redeemed: number }>();
  for (const { day, reason, points: sum } of entries.rows) {
    const amount = reason === 'adjusted' ? sum : Math.abs(sum);
    points[reason] += amount;
    if (reason === 'earned' || reason === 'redeemed') {
      const d = pointsPerDay.get(day) ?? { earned: 0, redeemed: 0 };
      d[reason] = amount;
      pointsPerDay.set(day, d);
    }
  }
  const perDay = days.rows.map((r) => ({
    date: r.day,
    logs: r.logs,
    activeMembers: r.active_members,
    rewardsIssued: r.rewards_issued,
    pointsEarned: pointsPerDay.get(r.day)?.earned ?? 0,
    pointsRedeemed: pointsPerDay.get(r.day)?.redeemed ?? 0,
  }));
  return {
    from,
    to,
    timezone,
    totals: {
      activeMembers: totals.rows[0]!.active_members,
      logs: totals.rows[0]!.logs,
      rewardsIssued: perDay.reduce((sum, d) => sum + d.rewardsIssued, 0),
    },
    days: perDay,
    completion: { streak, challenge, mission },
    points: { status: held.rows[0]!.status, ...points, outstanding: held.rows[0]!.outstanding, membersWithPoints: held.rows[0]!.members },
  };
}

type Kind = 'streak' | 'challenge' | 'mission';
const KINDS: { kind: Kind; log: string; parent: string; progress: string; completedAt: string }[] = [
  { kind: 'streak', log: 'streak_log', parent: 'streak_id', progress: 'streak_progress', completedAt: 'streak_completed_at' },
  {
    kind: 'challenge',
    log: 'challenge_log',
    parent: 'challenge_id',
    progress: 'challenge_progress',
    completedAt: 'challenge_completed_at',
  },
  { kind: 'mission', log: 'mission_log', parent: 'mission_id', progress: 'mission_progress', completedAt: 'mission_completed_at' },
];

interface Figures {
  activeMembers: number;
  completions: number;
  rewardsIssued: number;
}

/**
 * Per live definition, the range's figures and those of the range of equal length just before it:
 * members active (distinct members with a log of it, as the summary counts them), completions (progresses
 * completed in the range) and reward logs issued for it, plus its members active per day.
 */
async function programHealth(db: Knex, accountId: string, timezone: string, from: string, to: string) {
  const days = DateTime.fromISO(to).diff(DateTime.fromISO(from), 'days').days + 1;
  const previousFrom = DateTime.fromISO(from).minus({ days }).toISODate()!;
  const previousTo = DateTime.fromISO(from).minus({ days: 1 }).toISODate()!;
  const bounds = { accountId, timezone, from, to, previousFrom };
  // Local midnights as instants: the previous range's start, the current range's start, and its end.
  const start = `(:previousFrom::date)::timestamp at time zone :timezone`;
  const middle = `(:from::date)::timestamp at time zone :timezone`;
  const end = `(:to::date + 1)::timestamp at time zone :timezone`;
  const period = (column: string) => `case when ${column} >= ${middle} then 'current' else 'previous' end`;
  const within = (column: string) => `${column} >= ${start} and ${column} < ${end}`;

  const definitions = await db.raw<{ rows: { kind: Kind; id: string; name: string; aggregation_period: string }[] }>(
    `select kind, id, name, aggregation_period from (${KINDS.map(
      ({ kind }, i) =>
        `select '${kind}' as kind, ${i} as position, id, name, aggregation_period, created_at from ${kind} where account_id = :accountId and status = 'live'`,
    ).join(' union all ')}) d order by position, name, created_at`,
    bounds,
  );
  const logs = KINDS.map(
    ({ kind, log, parent }) =>
      `select '${kind}' as kind, ${parent} as id, owned_by_id, activity_at from ${log} where account_id = :accountId and ${within('activity_at')}`,
  ).join(' union all ');
  const active = await db.raw<{ rows: { kind: Kind; id: string; period: string; n: number }[] }>(
    `with logs as (${logs}) select kind, id, ${period('activity_at')} as period, count(distinct owned_by_id)::int as n from logs group by 1, 2, 3`,
    bounds,
  );
  const perDay = await db.raw<{ rows: { kind: Kind; id: string; day: string; n: number }[] }>(
    `with logs as (${logs})
     select kind, id, to_char((activity_at at time zone :timezone)::date, 'YYYY-MM-DD') as day, count(distinct owned_by_id)::int as n
     from logs where activity_at >= ${middle} group by 1, 2, 3`,
    bounds,
  );
  const completions = await db.raw<{ rows: { kind: Kind; id: string; period: string; n: number }[] }>(
    KINDS.map(
      ({ kind, parent, progress, completedAt }) =>
        `select '${kind}' as kind, ${parent} as id, ${period(completedAt)} as period, count(*)::int as n
         from ${progress} where account_id = :accountId and ${within(completedAt)} group by 1, 2, 3`,
    ).join(' union all '),
    bounds,
  );
  const rewards = await db.raw<{ rows: { kind: Kind; id: string; period: string; n: number }[] }>(
    `select linked_schema_slug as kind, linked_schema_record_id as id, ${period(ISSUED_AT)} as period, count(*)::int as n
     from reward_log where ${issuedBetween(start, end)} group by 1, 2, 3`,
    bounds,
  );
  const key = (kind: string, id: string) => `${kind}:${id}`;
  const figures = new Map<string, { current: Figures; previous: Figures }>();
  const figuresOf = (kind: string, id: string) => {
    let f = figures.get(key(kind, id));
    if (!f) {
      f = {
        current: { activeMembers: 0, completions: 0, rewardsIssued: 0 },
        previous: { activeMembers: 0, completions: 0, rewardsIssued: 0 },
      };
      figures.set(key(kind, id), f);
    }
    return f;
  };
  const add = (rows: { kind: string; id: string; period: string; n: number }[], field: keyof Figures) => {
    for (const r of rows) figuresOf(r.kind, r.id)[r.period === 'current' ? 'current' : 'previous'][field] = r.n;
  };
  add(active.rows, 'activeMembers');
  add(completions.rows, 'completions');
  add(rewards.rows, 'rewardsIssued');
  const daily = new Map(perDay.rows.map((r) => [`${key(r.kind, r.id)}:${r.day}`, r.n]));
  const dates = Array.from({ length: days }, (_, i) => DateTime.fromISO(from).plus({ days: i }).toISODate()!);
  return {
    from,
    to,
    previousFrom,
    previousTo,
    timezone,
    programs: definitions.rows.map((d) => ({
      kind: d.kind,
      id: d.id,
      name: d.name,
      aggregationPeriod: d.aggregation_period,
      ...figuresOf(d.kind, d.id),
      days: dates.map((date) => ({ date, activeMembers: daily.get(`${key(d.kind, d.id)}:${date}`) ?? 0 })),
    })),
  };
}

const date = { type: 'string', format: 'date' };
const dayParam = (name: string, description: string) => ({
  name,
  in: 'query',
  required: false,
  description: `${description} A day from ${FIRST_DAY} to ${LAST_DAY} (else 400 invalid_query).`,
  schema: date,
});
const count = { type: 'integer' };
const rate = {
  type: 'object',
  properties: { started: count, completed: count, rate: { type: ['number', 'null'] } },
  required: ['started', 'completed', 'rate'],
};

const rangeParameters = [
  dayParam('from', 'First day, inclusive (default: 29 days before `to`); not after `to`.'),
  dayParam('to', 'Last day, inclusive (default: today, or 29 days after `from`).'),
  {
    name: 'languageCode',
    in: 'query',
    required: false,
    description: 'Accepted on every route; nothing here is localised.',
    schema: { type: 'string', enum: [...LANGUAGE_CODES] },
  },
];
const figures = {
  type: 'object',
  properties: { activeMembers: count, completions: count, rewardsIssued: count },
  required: ['activeMembers', 'completions', 'rewardsIssued'],
};

/** The routes' entries in the OpenAPI document, so the typed client knows them. */
export const analyticsPaths = {
  '/analytics/summary': {
    get: {
      tags: ['analytics'],
      operationId: 'getAnalyticsSummary',
      summary: "The program's daily numbers and completion rates over a date range (account time zone)",
      description: `\`from\` must not be after \`to\`, and the range covers at most ${MAX_DAYS} days (else 400 invalid_query).`,
      security: [{ apiKey: [], apiSecret: [] }],
      parameters: rangeParameters,
      responses: {
        200: dataResponse('Summary', {
          type: 'object',
          required: ['from', 'to', 'timezone', 'totals', 'days', 'completion', 'points'],
          properties: {
            from: date,
            to: date,
            timezone: { type: 'string' },
            totals: {
              type: 'object',
              properties: { activeMembers: count, logs: count, rewardsIssued: count },
              required: ['activeMembers', 'logs', 'rewardsIssued'],
            },
            days: {
              type: 'array',
              items: {
                type: 'object',
                properties: { date, logs: count, activeMembers: count, rewardsIssued: count, pointsEarned: count, pointsRedeemed: count },
                required: ['date', 'logs', 'activeMembers', 'rewardsIssued', 'pointsEarned', 'pointsRedeemed'],
              },
            },
            completion: {
              type: 'object',
              properties: { streak: rate, challenge: rate, mission: rate },
              required: ['streak', 'challenge', 'mission'],
            },
            points: {
              type: 'object',
              description:
                'Points entries created in the range by reason: earned, then redeemed, reversed and expired as the points they took off, and adjusted as their signed sum. `outstanding`: the positive balances members hold now, whatever the range, and `membersWithPoints` how many members hold them.',
              properties: {
                status: { type: 'string', enum: [...STATUSES], description: "The points setting's status." },
                earned: count,
                redeemed: count,
                reversed: count,
                expired: count,
                adjusted: count,
                outstanding: count,
                membersWithPoints: count,
              },
              required: ['status', 'earned', 'redeemed', 'reversed', 'expired', 'adjusted', 'outstanding', 'membersWithPoints'],
            },
          },
        }),
        ...errorResponses(400, 401, 403, 429),
      },
    },
  },
  '/analytics/programs': {
    get: {
      tags: ['analytics'],
      operationId: 'getAnalyticsPrograms',
      summary: 'Per live streak, challenge and mission: members active, completions and rewards issued, against the previous range',
      description: `The previous range has the same number of days and ends the day before \`from\`. Members active: distinct members with a log of the definition; completions: its progresses completed in the range; rewards issued: its reward logs issued in the range (a held one when its hold ended; not one still held or revoked while held); days: members active per day of the range. \`from\` must not be after \`to\`, and the range covers at most ${MAX_DAYS} days (else 400 invalid_query).`,
      security: [{ apiKey: [], apiSecret: [] }],
      parameters: rangeParameters,
      responses: {
        200: dataResponse('Program health', {
          type: 'object',
          required: ['from', 'to', 'previousFrom', 'previousTo', 'timezone', 'programs'],
          properties: {
            from: date,
            to: date,
            previousFrom: date,
            previousTo: date,
            timezone: { type: 'string' },
            programs: {
              type: 'array',
              items: {
                type: 'object',
                required: ['kind', 'id', 'name', 'aggregationPeriod', 'current', 'previous', 'days'],
                properties: {
                  kind: { type: 'string', enum: ['streak', 'challenge', 'mission'] },
                  id: { type: 'string', format: 'uuid' },
                  name: { type: 'string' },
                  aggregationPeriod: { type: 'string', enum: ['daily', 'weekly', 'monthly'] },
                  current: figures,
                  previous: figures,
                  days: {
                    type: 'array',
                    items: {
                      type: 'object',
                      properties: { date, activeMembers: count },
                      required: ['date', 'activeMembers'],
                    },
                  },
                },
              },
            },
          },
        }),
        ...errorResponses(400, 401, 403, 429),
      },
    },
  },
};
