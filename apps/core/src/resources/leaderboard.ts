import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Config } from '../config.js';
import { BOARD_KINDS, type BoardKind, DISPLAY_NAMES, dropStandings, RANK_BY, RANKS_OF, startStandings } from '../engine/standings.js';
import { holdoutsSql } from '../engine/holdout.js';
import { invalidInput } from '../errors.js';
import { field } from '../records/fields.js';
import { defineResource } from '../records/resource.js';
import type { RowOf } from '../records/row-types.js';
import { ADMIN_PUBLIC_READ, description, eudText, eudTitle, name } from './common.js';

const KINDS = BOARD_KINDS;

/**
 * An end user sees no board of a definition they are held out of (CONTRACT §18: the definition is
 * 404 to them, and its board would show it and its members): the SQL of the condition, given the
 * placeholder of the member's id, which it names once.
 */
export const boardNotHeldOut = (member: string) =>
  `not exists (select 1 from (${holdoutsSql('leaderboard.account_id')}) d
     join account_user u on u.account_id = leaderboard.account_id and u.id = ${member}
    where d.id = leaderboard.linked_schema_record_id and loyalty_holdout_position(d.id, u.external_id) < d.holdout_percent / 100.0)`;

/** The definition must be one of the account's, of the kind named: any other id is the same 400. */
async function checkDefinition(trx: Knex, accountId: string, slug: BoardKind, id: string): Promise<void> {
  const found = await trx(slug).where({ account_id: accountId, id }).first('id');
  if (!found) {
    throw invalidInput('The leaderboard names no definition of this account.', [
      { field: 'linkedSchemaRecordId', code: 'not_found', message: `No ${slug} record with id ${id}.` },
    ]);
  }
}

/** Leaderboards; `config` says up to how many progress records a board's standings are built in the request. */
export const createLeaderboard = (config: Pick<Config, 'standingsInlineMax'>) =>
  defineResource({
    slug: 'leaderboard',
    table: 'leaderboard',
    description:
      "Leaderboards: a streak's, challenge's or mission's members ranked by value, or members ranked by the points they earned in a " +
      "month (linked to the account's points setting); higher first, equal values share a rank, whoever reached the value first is " +
      'listed first. Read the ranking at `/schema/leaderboard/record/{id}/standings`.',
    access: ADMIN_PUBLIC_READ,
    publicScope: 'public',
    // End users and guests see a board only while its definition is live (CONTRACT §15), a points board while points are.
    publicWhere: KINDS.map(
      (kind) =>
        `(leaderboard.linked_schema_slug = '${kind}' and exists (select 1 from ${kind} d where d.account_id = leaderboard.account_id ` +
        `and d.id = leaderboard.linked_schema_record_id and d.status = 'live'))`,
    ).join(' or '),
    memberWhere: boardNotHeldOut,
    rules: {
      description: "rankBy is one of the ranks of linkedSchemaSlug's kind (on update, the stored kind's).",
      conditional: KINDS.map((kind) => ({
        when: { field: 'linkedSchemaSlug' as const, equals: kind },
        oneOf: {
          field: 'rankBy' as const,
          values: RANKS_OF[kind],
          message: `A ${kind} leaderboard ranks by ${RANKS_OF[kind].join(' or ')}.`,
        },
      })),
    },
    fields: {
      name: name(),
      description: description(),
      status: field.status({ default: 'live' }),
      linkedSchemaSlug: field.enum(KINDS, { required: true, public: true }),
      linkedSchemaRecordId: field.uuid({
        required: true,
        public: true,
        referencesBy: {
          field: 'linkedSchemaSlug',
          slugs: { streak: 'streak', challenge: 'challenge', mission: 'mission', points_setting: 'points_setting' },
        },
        description: 'A definition of this account, of the kind linkedSchemaSlug names (points_setting: the account’s points setting).',
      }),
      rankBy: field.enum(RANK_BY, {
        alwaysSet: true,
        public: true,
        description:
          'streak: current_run (default: the in-progress run) or longest_run (the best run ever); challenge: window_progress ' +
          '(default: the value in one window); mission: completions (default: completed progresses); points_setting: points ' +
          '(earned less reversed points in a calendar month of the account’s time zone).',
      }),
      size: field.integer({
        min: 1,
        max: 100,
        default: 10,
        required: true,
        public: true,
        description: 'How many entries the standings show at most.',
      }),
      displayName: field.enum(DISPLAY_NAMES, {
        default: 'first_name_initial',
        required: true,
        public: true,
        description: 'first_name_initial ("Marie D.") or anonymous ("Member 4821", stable per member and leaderboard).',
      }),
      eudTitle: eudTitle(),
      eudDescription: eudText(),
      standingsReady: field.boolean({
        readOnly: true,
        alwaysSet: true,
        description:
          'False while the standings of a board over a large definition are built in the background (within a scheduler interval); its standings answer 503 until then.',
      }),
    },
    validate(record) {
      if (record.rankBy === null)
        return [{ field: 'rankBy', code: 'not_nullable', message: '"rankBy" cannot be null; leave it out for the default.' }];
      return [];
    },
    async beforeCreate({ trx, ctx, values, columns }) {
      const slug = values.linkedSchemaSlug;
      const rankBy = (values.rankBy ??= RANKS_OF[slug][0]!);
      await checkDefinition(trx, ctx.account!.id, slug, values.linkedSchemaRecordId);
      const id = randomUUID();
      columns.id = id;
      const board = { accountId: ctx.account!.id, slug, definitionId: values.linkedSchemaRecordId, rankBy, leaderboardId: id };
      columns.standings_ready = await startStandings(trx, board, config.standingsInlineMax);
    },
    async beforeUpdate({ trx, ctx, values, columns, existing: row }) {
      if (!row) return;
      const next = {
        slug: values.linkedSchemaSlug ?? row.linked_schema_slug,
        definitionId: values.linkedSchemaRecordId ?? row.linked_schema_record_id,
        rankBy: values.rankBy ?? row.rank_by,
      };
      if (next.definitionId === row.linked_schema_record_id && next.rankBy === row.rank_by) return;
      await checkDefinition(trx, ctx.account!.id, next.slug, next.definitionId);
      const board = {
        accountId: row.account_id,
        slug: next.slug,
        definitionId: next.definitionId,
        rankBy: next.rankBy,
        leaderboardId: row.id,
      };
      columns.standings_ready = await startStandings(trx, board, config.standingsInlineMax);
      await dropStandings(trx, row.account_id, row.linked_schema_record_id, row.rank_by, row.id);
    },
    async beforeDelete({ trx, row: board }) {
      await dropStandings(trx, board.account_id, board.linked_schema_record_id, board.rank_by, board.id);
    },
  });

export type LeaderboardRow = RowOf<ReturnType<typeof createLeaderboard>>;
