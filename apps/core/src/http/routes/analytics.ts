import type Router from '@koa/router';
import { DateTime } from 'luxon';
import type { Identity } from '../../auth/authenticate.js';
import { type ErrorDetail, invalidQuery } from '../../errors.js';
import { LANGUAGE_CODES } from '../../formats.js';
import type { Services } from '../../services.js';
import { allow, authenticate, only } from '../auth.js';

/** The longest range one summary covers: a year of daily rows is what a dashboard chart can show. */
const MAX_DAYS = 366;
const DEFAULT_DAYS = 30;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const KNOWN_PARAMS = new Set(['from', 'to', 'languageCode']);

/**
 * `GET /analytics/summary?from=YYYY-MM-DD&to=YYYY-MM-DD` (API-key flow): the programme's numbers
 * per day of the account's time zone, both ends inclusive (default: the last 30 days) — members
 * active (distinct members with a log), logs, reward logs issued, and per definition kind the
 * progresses started in the range with how many of them completed. Feeds the Shopify admin dashboard.
 */
export function analyticsRoutes(router: Router, s: Services): void {
  router.all('/analytics/summary', authenticate(s), allow(only('GET', ['apikey'])), async (ctx) => {
    const account = (ctx.state.identity as Identity).account!;
    const { from, to } = parseRange(ctx.query, account.timezone);
    ctx.body = { data: await summarise(s, account.id, account.timezone, from, to) };
  });
}

function parseRange(query: Record<string, string | string[] | undefined>, timezone: string): { from: string; to: string } {
  const details: ErrorDetail[] = [];
  for (const name of Object.keys(query))
    if (!KNOWN_PARAMS.has(name)) details.push({ field: name, code: 'unknown', message: `Unknown query parameter "${name}".` });
  const read = (name: 'from' | 'to'): DateTime | undefined => {
    const raw = query[name];
    if (raw === undefined) return undefined;
    const value = Array.isArray(raw) ? raw[0] : raw;
    const day = value && DAY.test(value) ? DateTime.fromISO(value, { zone: timezone }) : undefined;
    if (!day?.isValid) {
      details.push({ field: name, code: 'invalid', message: `"${name}" must be a date, YYYY-MM-DD.` });
      return undefined;
    }
    return day;
  };
  const givenFrom = read('from');
  const givenTo = read('to');
  if (details.length) throw invalidQuery('A query parameter is invalid.', details);
  const to = givenTo ?? (givenFrom ? givenFrom.plus({ days: DEFAULT_DAYS - 1 }) : DateTime.now().setZone(timezone).startOf('day'));
  const from = givenFrom ?? to.minus({ days: DEFAULT_DAYS - 1 });
  if (from > to)
    throw invalidQuery('The range is empty.', [{ field: 'from', code: 'after_to', message: '"from" must not be after "to".' }]);
  if (to.diff(from, 'days').days + 1 > MAX_DAYS)
    throw invalidQuery('The range is too long.', [
      { field: 'to', code: 'too_long', message: `A summary covers at most ${MAX_DAYS} days.` },
    ]);
  return { from: from.toISODate()!, to: to.toISODate()! };
}

interface DayRow {
  day: string;
  logs: number;
  active_members: number;
  rewards_issued: number;
}

async function summarise(s: Services, accountId: string, timezone: string, from: string, to: string) {
  // Both ends are local dates; the bounds are the local midnights as instants.
  const bounds = { accountId, timezone, from, to };
  const window = `(:from::date)::timestamp at time zone :timezone and (:to::date + 1)::timestamp at time zone :timezone`;
  const logs = ['streak_log', 'challenge_log', 'mission_log']
    .map(
      (table) =>
        `select owned_by_id, activity_at from ${table} where account_id = :accountId and activity_at >= ${window.replace(' and ', ' and activity_at < ')}`,
    )
    .join(' union all ');
  const days = await s.db.raw<{ rows: DayRow[] }>(
    `with logs as (${logs}),
     per_day_logs as (
       select (activity_at at time zone :timezone)::date as day, count(*)::int as logs, count(distinct owned_by_id)::int as active_members
       from logs group by 1),
     per_day_rewards as (
       select (created_at at time zone :timezone)::date as day, count(*)::int as rewards_issued
       from reward_log where account_id = :accountId and created_at >= ${window.replace(' and ', ' and created_at < ')} group by 1)
     select to_char(d.day, 'YYYY-MM-DD') as day, coalesce(l.logs, 0) as logs, coalesce(l.active_members, 0) as active_members,
            coalesce(r.rewards_issued, 0) as rewards_issued
     from generate_series(:from::date, :to::date, interval '1 day') as d(day)
     left join per_day_logs l on l.day = d.day::date
     left join per_day_rewards r on r.day = d.day::date
     order by d.day`,
    bounds,
  );
  const totals = await s.db.raw<{ rows: { active_members: number; logs: number }[] }>(
    `with logs as (${logs}) select count(distinct owned_by_id)::int as active_members, count(*)::int as logs from logs`,
    bounds,
  );
  const completion = async (table: string, startedAt: string, status: string) => {
    const { rows } = await s.db.raw<{ rows: { started: number; completed: number }[] }>(
      `select count(*)::int as started, count(*) filter (where ${status} = 'completed')::int as completed
       from ${table} where account_id = :accountId and ${startedAt} >= ${window.replace(' and ', ` and ${startedAt} < `)}`,
      bounds,
    );
    const { started, completed } = rows[0]!;
    return { started, completed, rate: started ? completed / started : null };
  };
  const [streak, challenge, mission] = await Promise.all([
    completion('streak_progress', 'streak_started_at', 'streak_progress_status'),
    completion('challenge_progress', 'challenge_started_at', 'challenge_progress_status'),
    completion('mission_progress', 'mission_started_at', 'mission_progress_status'),
  ]);
  const perDay = days.rows.map((r) => ({ date: r.day, logs: r.logs, activeMembers: r.active_members, rewardsIssued: r.rewards_issued }));
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
  };
}

const dayParam = (name: string, description: string) => ({
  name,
  in: 'query',
  required: false,
  description,
  schema: { type: 'string', format: 'date' },
});
const count = { type: 'integer' };
const rate = {
  type: 'object',
  properties: { started: count, completed: count, rate: { type: ['number', 'null'] } },
  required: ['started', 'completed', 'rate'],
};

/** The route's entry in the OpenAPI document, so the typed client knows it. */
export const analyticsPaths = {
  '/analytics/summary': {
    get: {
      tags: ['analytics'],
      operationId: 'getAnalyticsSummary',
      summary: "The programme's daily numbers and completion rates over a date range (account time zone)",
      description: `\`from\` must not be after \`to\`, and the range covers at most ${MAX_DAYS} days (else 400 invalid_query).`,
      security: [{ apiKey: [], apiSecret: [] }],
      parameters: [
        dayParam('from', 'First day, inclusive (default: 29 days before `to`); not after `to`.'),
        dayParam('to', 'Last day, inclusive (default: today, or 29 days after `from`).'),
        {
          name: 'languageCode',
          in: 'query',
          required: false,
          description: 'Accepted on every route; nothing here is localised.',
          schema: { type: 'string', enum: [...LANGUAGE_CODES] },
        },
      ],
      responses: {
        200: {
          description: 'Summary',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['data'],
                properties: {
                  data: {
                    type: 'object',
                    required: ['from', 'to', 'timezone', 'totals', 'days', 'completion'],
                    properties: {
                      from: { type: 'string', format: 'date' },
                      to: { type: 'string', format: 'date' },
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
                          properties: { date: { type: 'string', format: 'date' }, logs: count, activeMembers: count, rewardsIssued: count },
                          required: ['date', 'logs', 'activeMembers', 'rewardsIssued'],
                        },
                      },
                      completion: {
                        type: 'object',
                        properties: { streak: rate, challenge: rate, mission: rate },
                        required: ['streak', 'challenge', 'mission'],
                      },
                    },
                  },
                },
              },
            },
          },
        },
        400: { $ref: '#/components/responses/Error400' },
        401: { $ref: '#/components/responses/Error401' },
        403: { $ref: '#/components/responses/Error403' },
        429: { $ref: '#/components/responses/Error429' },
      },
    },
  },
};
