import { createHmac } from 'node:crypto';
import type Router from '@koa/router';
import { loadAccount } from '../../auth/authenticate.js';
import { currentWindows, displayName, isPeriodKey, isWindowed, readBoardStandings } from '../../engine/standings.js';
import { type ErrorDetail, invalidQuery, notFound, unavailable } from '../../errors.js';
import { LANGUAGE_CODES, type LanguageCode, UUID } from '../../formats.js';
import { isPublicFlow, writeLanguage } from '../../records/context.js';
import { dataResponse, errorResponses, security } from '../../records/openapi.js';
import type { Services } from '../../services.js';
import { allow, authenticate, only, requestContext } from '../auth.js';
import { readNoBody } from '../body.js';
import { boardNotHeldOut } from '../../resources/leaderboard.js';

const PATH = '/schema/leaderboard/record/:id/standings';
const FLOWS = ['apikey', 'enduser', 'guest'] as const;
const KNOWN_PARAMS = new Set(['periodKey', 'limit', 'languageCode']);
const MAX_SIZE = 100;

interface StandingsParams {
  periodKey?: string;
  limit?: number;
  languageCode?: LanguageCode;
}

/**
 * The query's own checks; those that depend on the leaderboard (limit <= size, the periodKey's
 * period) follow its read. A periodKey of no period's shape never reaches the database.
 */
function parseParams(query: Record<string, string | string[] | undefined>): StandingsParams {
  const details: ErrorDetail[] = [];
  const params: StandingsParams = {};
  for (const [name, raw] of Object.entries(query)) {
    if (!KNOWN_PARAMS.has(name)) {
      details.push({ field: name, code: 'unknown', message: `Unknown query parameter "${name}".` });
      continue;
    }
    if (typeof raw !== 'string') {
      details.push({ field: name, code: 'repeated', message: `"${name}" may be given once.` });
      continue;
    }
    if (name === 'limit') {
      if (/^\d{1,3}$/.test(raw) && Number(raw) >= 1 && Number(raw) <= MAX_SIZE) params.limit = Number(raw);
      else
        details.push({
          field: 'limit',
          code: 'invalid',
          message: `"limit" must be an integer from 1 to the leaderboard's size (at most ${MAX_SIZE}).`,
        });
    } else if (name === 'languageCode') {
      const code = LANGUAGE_CODES.find((c) => c === raw);
      if (code) params.languageCode = code;
      else details.push({ field: 'languageCode', code: 'invalid', message: `"languageCode" must be one of ${LANGUAGE_CODES.join(', ')}.` });
    } else if (/^\d{4}-W?\d{2}(-\d{2})?$/.test(raw)) params.periodKey = raw;
    else details.push({ field: 'periodKey', code: 'invalid', message: '"periodKey" is not a period key.' });
  }
  if (details.length) throw invalidQuery('A query parameter is invalid.', details);
  return params;
}

/**
 * `GET /schema/leaderboard/record/{id}/standings` (CONTRACT §15): the leaderboard's top entries,
 * the end user's own standing and how many members are ranked. End users and guests see live
 * leaderboards of definitions that exist; API keys see every leaderboard of their account, and
 * each entry's member.
 */
export function standingsRoutes(router: Router, s: Services): void {
  // Anonymous names hash with a key of their own, derived from the master key: stable across restarts, secret.
  if (!s.config.masterKey) throw new Error('master key not resolved');
  const nameKey = createHmac('sha256', s.config.masterKey).update('leaderboard display names').digest();
  router.all(PATH, authenticate(s), allow(only('GET', FLOWS)), async (ctx) => {
    const params = parseParams(ctx.query);
    const identity = ctx.state.identity;
    const rc = requestContext(ctx, params.languageCode);
    const missing = () => notFound(`No leaderboard record with id ${ctx.params.id}.`);
    if (identity.flow === 'guest' && identity.guestAccount === 'unknown') throw missing();
    if (!UUID.test(ctx.params.id!)) throw missing();
    // As the database writes it: the anonymous names hash the canonical id.
    const id = ctx.params.id!.toLowerCase();
    const memberId = identity.flow === 'enduser' ? identity.memberId : undefined;
    const query = {
      leaderboardId: id,
      accountId: rc.account?.id,
      live: isPublicFlow(rc),
      memberId,
      limit: params.limit,
      periodKey: params.periodKey,
      windows: rc.account ? currentWindows(s.records.now(), rc.account.timezone) : undefined,
    };
    let found = await readBoardStandings(s.db, query);
    if (!found) throw missing();
    if (!found.period && isPublicFlow(rc)) throw missing();
    await readNoBody(ctx);
    if (!found.standings && found.period && !query.windows) {
      // A guest that named no account: the default window is the board's account's.
      const account = await loadAccount(s.db, found.board.account_id);
      found = await readBoardStandings(s.db, { ...query, windows: currentWindows(s.records.now(), account?.timezone ?? 'UTC') });
      if (!found) throw missing();
    }
    const { board, period } = found;
    // A board over a large definition answers once the background has built its standings.
    const ready = await s
      .db('leaderboard')
      .where({ account_id: board.account_id, id })
      .first<{ standings_ready: boolean; visible: boolean } | undefined>(
        'standings_ready',
        s.db.raw(`${memberId ? boardNotHeldOut('?') : 'true'} as visible`, memberId ? [memberId] : []),
      );
    if (ready && !ready.visible) throw missing();
    if (ready && !ready.standings_ready) throw unavailable("The leaderboard's standings are being built; retry shortly.", 5);

    const details: ErrorDetail[] = [];
    if (params.limit !== undefined && params.limit > board.size) {
      details.push({ field: 'limit', code: 'invalid', message: `"limit" must be at most the leaderboard's size, ${board.size}.` });
    }
    if (!isWindowed(board.rank_by)) {
      if (params.periodKey !== undefined)
        details.push({ field: 'periodKey', code: 'not_windowed', message: `A ${board.linked_schema_slug} leaderboard has no periods.` });
    } else if (params.periodKey !== undefined) {
      if (period && !isPeriodKey(params.periodKey, period)) {
        const of = board.rank_by === 'points' ? 'a points leaderboard (a calendar month, YYYY-MM)' : 'the challenge';
        details.push({ field: 'periodKey', code: 'invalid', message: `"periodKey" is not a ${period} period key of ${of}.` });
      }
    } else if (!period) {
      details.push({ field: 'periodKey', code: 'required', message: 'The challenge was deleted: name the window.' });
    }
    if (details.length) throw invalidQuery('A query parameter is invalid.', details);
    // Every check passed, so a window was chosen and the standings were read.
    const standings = found.standings!;
    const admin = identity.flow === 'apikey';
    // The anonymous label in the language the board's texts are read in (CONTRACT §7).
    const language = LANGUAGE_CODES.find((code) => code === writeLanguage(rc)) ?? 'en';
    ctx.body = {
      data: {
        leaderboardId: id,
        periodKey: isWindowed(board.rank_by) ? found.periodKey : null,
        entries: standings.entries.map((e) => ({
          rank: e.rank,
          value: e.value,
          displayName: displayName(board.display_name, nameKey, id, e, language),
          isCaller: memberId !== undefined && e.memberId === memberId,
          ...(admin ? { ownedById: e.memberId, externalId: e.externalId } : {}),
        })),
        caller: standings.caller,
        rankedCount: standings.rankedCount,
      },
    };
  });
}

const integer = { type: 'integer' };
const entry = {
  type: 'object',
  required: ['rank', 'value', 'displayName', 'isCaller'],
  properties: {
    rank: { ...integer, description: 'Equal values share a rank (1, 2, 2, 4).' },
    value: { type: 'number' },
    displayName: {
      type: 'string',
      description:
        '"Marie D." or "Member 4821" ("Mitglied 4821" read in German: languageCode, else the account default), as the leaderboard\'s displayName says.',
    },
    isCaller: { type: 'boolean' },
    ownedById: { type: 'string', format: 'uuid', description: 'API keys only.' },
    externalId: { type: 'string', description: 'API keys only.' },
  },
};

/** The route's entry in the OpenAPI document, so the typed client knows it. */
export const standingsPaths = {
  '/schema/leaderboard/record/{id}/standings': {
    get: {
      tags: ['leaderboard'],
      operationId: 'getLeaderboardStandings',
      summary: "A leaderboard's standings: top entries, the end user's own rank, how many are ranked",
      description:
        'Only live members with a value above 0 are ranked; higher values first, equal values share a rank and whoever reached ' +
        'the value first is listed first. Every log and point entry acknowledged before the request counts. End users and guests ' +
        'see live leaderboards of live definitions (points boards: while points are live; else 404).',
      security: security([...FLOWS]),
      parameters: [
        { name: 'id', in: 'path', required: true, description: 'Leaderboard id.', schema: { type: 'string', format: 'uuid' } },
        {
          name: 'periodKey',
          in: 'query',
          required: false,
          description:
            "Challenges and points boards only: the window (a challenge's 2026-11-21, 2026-W47 or 2026-11; a points board's month, " +
            "2026-11); default the window containing now in the account's time zone.",
          schema: { type: 'string' },
        },
        {
          name: 'limit',
          in: 'query',
          required: false,
          description: "Entries, 1 to the leaderboard's size (its default).",
          schema: { ...integer, minimum: 1, maximum: MAX_SIZE },
        },
        { name: 'languageCode', in: 'query', required: false, schema: { type: 'string', enum: [...LANGUAGE_CODES] } },
      ],
      responses: {
        200: dataResponse('Standings', {
          type: 'object',
          required: ['leaderboardId', 'periodKey', 'entries', 'caller', 'rankedCount'],
          properties: {
            leaderboardId: { type: 'string', format: 'uuid' },
            periodKey: { type: ['string', 'null'] },
            entries: { type: 'array', items: entry },
            caller: {
              oneOf: [
                { type: 'null' },
                { type: 'object', required: ['rank', 'value'], properties: { rank: integer, value: { type: 'number' } } },
              ],
              description: "The end user's own standing; null for guests, API keys and members not ranked.",
            },
            rankedCount: integer,
          },
        }),
        ...errorResponses(400, 401, 403, 404, 429),
      },
    },
  },
};
