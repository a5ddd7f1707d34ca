import { z } from 'zod';
import { field, type LoadArgs } from '../records/fields.js';
import { defineResource, type AnyResource } from '../records/resource.js';
import { ingestLog } from '../engine/ingest.js';
import { reverseBody, reverseLog } from '../engine/reverse.js';
import { grantFreezes } from '../engine/streak.js';
import { invalidInput } from '../errors.js';
import { bodyOrEmpty, issueDetails } from '../records/validate.js';
import { MAX_FREEZES } from '../schema/definitions.js';
import { type LogKind, NOT_AGGREGATED_REASONS } from '../engine/types.js';
import { memberFields } from '../schema/members.js';
import {
  challengeProgressFields,
  eventLogFields,
  missionProgressFields,
  streakProgressFields,
  taskProgressFields,
} from '../schema/progress.js';
import { ADMIN_READ, anyObject, OWN_READ, joinOne } from './common.js';

/** Joins the member (`ownedBy`) and a definition on rows that carry their ids. */
export function joinOwnerAnd(definition?: { slug: string; idColumn: string; as: string }) {
  return async ({ rows, db, wanted, serializeJoined, known }: LoadArgs): Promise<void> => {
    if (wanted.has('ownedBy')) {
      await joinOne(rows, 'owned_by_id', 'ownedBy', db, 'account_user', (found) => serializeJoined('account_user', found), known);
    }
    if (definition && wanted.has(definition.as)) {
      await joinOne(
        rows,
        definition.idColumn,
        definition.as,
        db,
        definition.slug,
        (found) => serializeJoined(definition.slug, found),
        known,
      );
    }
  };
}

const reversalList = z.array(z.object({ id: z.uuid(), activityValue: z.number(), reason: z.string().nullable(), createdAt: z.string() }));

/** Each log's reversals, oldest first. */
async function loadReversals({ rows, db, wanted }: LoadArgs): Promise<void> {
  if (!wanted.has('reversals') || !rows.length) return;
  const found = await db('log_reversal')
    .whereIn('account_id', [...new Set(rows.map((r) => String(r.account_id)))])
    .whereIn(
      'log_id',
      rows.map((r) => String(r.id)),
    )
    .orderBy('created_at')
    .select('log_id', 'id', 'activity_value', 'reason', 'created_at');
  for (const row of rows)
    row.reversals = found
      .filter((r) => r.log_id === row.id)
      .map((r) => ({ id: r.id, activityValue: r.activity_value, reason: r.reason, createdAt: new Date(r.created_at).toISOString() }));
}

/** The inline member of a log create: the writable member fields, `externalId` required. */
const ownedByInput = z.strictObject({
  externalId: memberFields.externalId.schema,
  ...Object.fromEntries(
    Object.entries(memberFields)
      .filter(([name]) => name !== 'externalId')
      .map(([name, f]) => [name, f.schema.nullable().optional()]),
  ),
});

function logResource(slug: 'streak_log' | 'challenge_log' | 'mission_log', parent: LogKind): AnyResource {
  const parentId = `${parent}Id`;
  return defineResource({
    slug,
    table: slug,
    description: `Activity logs of ${parent}s. Each aggregates into the member's ${parent} progress; the create response carries the progress, milestones and rewards.`,
    access: { ...ADMIN_READ, create: ['apikey'] },
    fields: {
      [parentId]: field.uuid({ required: true, references: parent }),
      ownedById: field.uuid({ references: 'account_user', description: 'The member; or send ownedBy instead (exactly one of the two).' }),
      ownedBy: {
        ...field.json(ownedByInput, {
          description:
            'Write: an inline member, created or updated by externalId in the same request; send exactly one of ownedById and ownedBy. Read: the joined member.',
        }),
        virtual: true,
        joins: 'account_user',
      },
      [parent]: field.virtual(anyObject, { description: `The ${parent} (joined, read-only).` }),
      activityId: field.string({ required: true, min: 1, max: 256 }),
      activityAt: field.datetime({ required: true }),
      uniqueIdentifier: field.string({ required: true, min: 1, max: 256 }),
      activityValue: field.number({ gt: 0, description: 'Required (> 0) for sum aggregation; count logs add 1.' }),
      status: field.status({ default: 'live' }),
      isAggregated: field.boolean({ readOnly: true }),
      notAggregatedReason: field.enum(NOT_AGGREGATED_REASONS, {
        readOnly: true,
        description: 'Why the log did not count, the first that applies (CONTRACT §18); null when it counted.',
      }),
      periodKey: field.string({ readOnly: true }),
      reversedValue: field.number({ readOnly: true, alwaysSet: true, description: 'The value taken back by reversals (CONTRACT §17).' }),
      reversals: field.virtual(reversalList, { description: 'The reversals of this log, oldest first.' }),
    },
    rules: {
      description: 'Send exactly one of ownedById and ownedBy (CONTRACT §8); activityAt at most 5 minutes in the future.',
      // Not both; "at least one" stays in the description, as a oneOf makes the typed client's body types unusable.
      create: [{ not: { required: ['ownedById', 'ownedBy'], properties: { ownedById: { type: 'string' }, ownedBy: { type: 'object' } } } }],
    },
    async load(args) {
      await joinOwnerAnd({ slug: parent, idColumn: `${parent}_id`, as: parent })(args);
      await loadReversals(args);
    },
    create: ({ ctx, values, records }) => ingestLog(records, ctx, parent, values),
    actions: {
      reverse: {
        returns: slug,
        returnsAlso: {
          [`${parent}Progress`]: { slug: `${parent}_progress` },
          taskProgress:
            parent === 'mission' ? { slug: 'task_progress', many: true } : { slug: parent === 'streak' ? 'task_progress' : null },
          nextMilestone: { slug: 'milestone' },
          revokedRewardLogs: { slug: 'reward_log', many: true },
        },
        body: reverseBody,
        // The reversal orders itself by the member's aggregation lock, taken before any row lock:
        // it re-decides other logs of the member, which a racing reversal would otherwise hold.
        locksRecord: false,
        description: `Takes back this log's value, whole (count) or in part (sum), and recomputes the member's ${parent} progress as if only what is left had been logged (CONTRACT §17). Answers the log with its reversals, \`${parent}Progress\`, \`taskProgress\`, \`nextMilestone\` and \`revokedRewardLogs\`. 409 nothing_to_reverse; 409 duplicate_unique_identifier on a replayed uniqueIdentifier.`,
        run: ({ trx, ctx, records, row, body }) => reverseLog(records, trx, ctx, parent, row, body),
      },
    },
    createReturns: {
      [parent]: { slug: parent },
      [`${parent}Progress`]: { slug: `${parent}_progress` },
      taskProgress: parent === 'mission' ? { slug: 'task_progress', many: true } : { slug: parent === 'streak' ? 'task_progress' : null },
      achievedMilestone: { slug: 'milestone' },
      achievedMilestones: { slug: 'milestone', many: true },
      nextMilestone: { slug: 'milestone' },
      achievedMilestoneRewardLog: { slug: 'reward_log' },
      achievedMilestoneRewardLogs: { slug: 'reward_log', many: true },
      rewardLog: { slug: 'reward_log' },
    },
  });
}

export const streakLog = logResource('streak_log', 'streak');
export const challengeLog = logResource('challenge_log', 'challenge');
export const missionLog = logResource('mission_log', 'mission');

/** Task progress rows of the loaded progress records, serialised for the caller. */
async function loadTaskProgress(args: LoadArgs, as: 'taskProgress' | 'taskProgresses'): Promise<void> {
  const { rows, db, wanted, serializeJoined } = args;
  if (!wanted.has(as)) return;
  const found = await db('task_progress')
    .whereIn('account_id', [...new Set(rows.map((r) => r.account_id as string))])
    .whereIn(
      'linked_schema_record_id',
      rows.map((r) => r.id as string),
    )
    .orderBy('created_at', 'asc');
  const serialized = await serializeJoined('task_progress', found);
  for (const row of rows) {
    const mine = serialized.filter((_, i) => found[i]!.linked_schema_record_id === row.id);
    // A streak shows the task of its current period only; a mission shows every task.
    row[as] = as === 'taskProgress' ? (mine.find((t) => t.periodKey === row.current_period_key) ?? null) : mine;
  }
}

const grantBody = z.strictObject({
  count: z.number().int().min(1).max(MAX_FREEZES),
  uniqueIdentifier: z
    .string()
    .min(1)
    .max(256)
    .optional()
    .meta({ description: 'Unique per account among grants: a replay is 409 duplicate_unique_identifier, nothing granted again.' }),
});

export const streakProgress = defineResource({
  slug: 'streak_progress',
  table: 'streak_progress',
  description: "A member's run of consecutive completed periods on a streak.",
  access: OWN_READ,
  publicScope: 'own',
  fields: streakProgressFields,
  async load(args) {
    await joinOwnerAnd({ slug: 'streak', idColumn: 'streak_id', as: 'streak' })(args);
    await loadTaskProgress(args, 'taskProgress');
  },
  actions: {
    grant_freezes: {
      returns: 'streak_progress',
      body: grantBody,
      description: `Grants {"count": 1..${MAX_FREEZES}, "uniqueIdentifier"?} freezes to an in-progress progress, up to its streak's maxFreezes (CONTRACT §14). A progress past its deadline's grace is first settled as the scheduler settles it (a freeze spent on the missed period, with its event, or the run broken). 409 when the progress is not in progress (or that settling breaks it) or the streak's maxFreezes is 0, or duplicate_unique_identifier on a replay.`,
      async run({ trx, ctx, records, row, body, serialize }) {
        const parsed = grantBody.safeParse(bodyOrEmpty(body));
        if (!parsed.success) throw invalidInput(`The body must be {"count": 1..${MAX_FREEZES}}.`, issueDetails('', parsed.error));
        const { count, uniqueIdentifier } = parsed.data;
        return serialize(await grantFreezes({ trx, records, ctx }, String(row.id), count, new Date(), records.now(), uniqueIdentifier));
      },
    },
  },
});

export const challengeProgress = defineResource({
  slug: 'challenge_progress',
  table: 'challenge_progress',
  description: "A member's accumulated value on a challenge within one window.",
  access: OWN_READ,
  publicScope: 'own',
  fields: challengeProgressFields,
  load: joinOwnerAnd({ slug: 'challenge', idColumn: 'challenge_id', as: 'challenge' }),
});

export const missionProgress = defineResource({
  slug: 'mission_progress',
  table: 'mission_progress',
  description: "A member's progress through a mission's tasks within its window.",
  access: OWN_READ,
  publicScope: 'own',
  fields: missionProgressFields,
  async load(args) {
    await joinOwnerAnd({ slug: 'mission', idColumn: 'mission_id', as: 'mission' })(args);
    await loadTaskProgress(args, 'taskProgresses');
  },
});

export const taskProgress = defineResource({
  slug: 'task_progress',
  table: 'task_progress',
  description: 'Progress on one mission task, or within one streak period.',
  access: OWN_READ,
  publicScope: 'own',
  fields: taskProgressFields,
});

export const eventLog = defineResource({
  slug: 'event_log',
  table: 'event_log',
  description: 'Events, written in the same transaction as the change that caused them, then delivered.',
  access: ADMIN_READ,
  fields: eventLogFields,
});
