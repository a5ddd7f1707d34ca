import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { z } from 'zod';
import type { StoredTask } from '../engine/types.js';
import { conflict, type ErrorDetail, invalidInput } from '../errors.js';
import { isPublicFlow, type RequestContext, resolveText, writeLanguage } from '../records/context.js';
import { DEFAULT_NUMBER_MAX, field, type LoadArgs } from '../records/fields.js';
import { defineResource, type Row } from '../records/resource.js';
import { ADMIN, ADMIN_PUBLIC_READ, description, eudIcon, eudText, eudTitle, name, requiredDescription } from './common.js';

const AGGREGATION_METHODS = ['count', 'sum'] as const;
export const PERIODS = ['daily', 'weekly', 'monthly'] as const;
/** A streak's length in periods: a century of days is the longest a member could keep one. */
const MAX_STREAK_PERIODS = 36_500;

/** Live milestones of the loaded definitions, ascending by target. */
async function loadMilestones({ rows, db, wanted, serializeJoined }: LoadArgs): Promise<void> {
  if (!wanted.has('milestones')) return;
  const found = await db('milestone')
    .whereIn('account_id', [...new Set(rows.map((r) => r.account_id as string))])
    .whereIn('linked_schema_record_id', rows.map((r) => r.id as string))
    .where('status', 'live')
    .orderBy('milestone_target_value', 'asc');
  const serialized = await serializeJoined('milestone', found);
  for (const row of rows) {
    row.milestones = serialized.filter((_, i) => found[i]!.linked_schema_record_id === row.id);
  }
}

const milestoneList = z.array(z.record(z.string(), z.unknown()));

/** The highest live or paused milestone target of a definition (what an update must not strand). */
async function highestMilestone(trx: Knex, row: Row): Promise<number | undefined> {
  const found = await trx('milestone')
    .where({ account_id: row.account_id, linked_schema_record_id: row.id })
    .max({ max: 'milestone_target_value' })
    .first();
  return found?.max ?? undefined;
}

async function deleteMilestones(trx: Knex, row: Row): Promise<void> {
  await trx('milestone').where({ account_id: row.account_id, linked_schema_record_id: row.id }).delete();
}

const commonEud = {
  eudTitle: eudTitle(),
  eudDescription: eudText(),
  eudIcon: eudIcon(),
  eudCompletedMessage: eudText(),
};

function strandCheck(target: unknown, highest: number | undefined, what: string): void {
  if (typeof target === 'number' && highest !== undefined && highest > target) {
    throw conflict(`A milestone targets ${highest}, above the new ${what} ${target}; change the milestone first.`, [
      { field: 'completionTargetValue', code: 'strands_milestone', message: `A milestone targets ${highest}.` },
    ]);
  }
}

export const streak = defineResource({
  slug: 'streak',
  table: 'streak',
  description: 'Streaks: a behaviour repeated in consecutive periods (day, week or month).',
  access: ADMIN_PUBLIC_READ,
  publicScope: 'public',
  fields: {
    name: name(),
    description: description(),
    status: field.status({ default: 'live' }),
    aggregationPeriod: field.enum(PERIODS, { default: 'daily', public: true }),
    aggregationMethod: field.enum(AGGREGATION_METHODS, { default: 'count', public: true }),
    aggregationTargetValue: field.number({ gt: 0, default: 1, public: true, description: 'Per-period total that completes a period.' }),
    completionTargetValue: field.integer({ min: 1, max: MAX_STREAK_PERIODS, public: true, description: 'Periods to complete the streak; null is endless.' }),
    toBeBrokenWarningHours: field.number({ min: 0, max: 8760, default: 4 }),
    ...commonEud,
    eudMilestoneAchievedMessage: eudText(),
    milestones: field.virtual(milestoneList, { public: true, description: 'Live milestones, ascending target.' }),
  },
  load: loadMilestones,
  async beforeUpdate({ trx, values, existing }) {
    if ('completionTargetValue' in values) strandCheck(values.completionTargetValue, await highestMilestone(trx, existing!), 'completionTargetValue');
  },
  beforeDelete: ({ trx, row }) => deleteMilestones(trx, row),
});

export const challenge = defineResource({
  slug: 'challenge',
  table: 'challenge',
  description: 'Challenges: a cumulative target within a calendar window.',
  access: ADMIN_PUBLIC_READ,
  publicScope: 'public',
  fields: {
    name: name(),
    description: description(),
    status: field.status({ default: 'live' }),
    aggregationPeriod: field.enum(PERIODS, { default: 'daily', public: true, description: 'The window: a calendar day, week or month.' }),
    aggregationMethod: field.enum(AGGREGATION_METHODS, { default: 'count', public: true }),
    completionTargetValue: field.number({ gt: 0, required: true, public: true }),
    startAt: field.datetime({ public: true }),
    endAt: field.datetime({ public: true }),
    toBeFailedWarningHours: field.number({ min: 0, max: 8760, default: 24 }),
    ...commonEud,
    eudMilestoneAchievedMessage: eudText(),
    milestones: field.virtual(milestoneList, { public: true }),
  },
  validate(record) {
    const { startAt, endAt } = record;
    if (startAt && endAt && new Date(startAt as string) >= new Date(endAt as string)) {
      return [{ field: 'endAt', code: 'invalid', message: 'endAt must be after startAt.' }];
    }
    return [];
  },
  load: loadMilestones,
  async beforeUpdate({ trx, values, existing }) {
    if ('completionTargetValue' in values) strandCheck(values.completionTargetValue, await highestMilestone(trx, existing!), 'completionTargetValue');
  },
  beforeDelete: ({ trx, row }) => deleteMilestones(trx, row),
});

const taskInput = z.strictObject({
  id: z.uuid().optional(),
  name: z.string().min(1).max(256),
  activityId: z.string().min(1).max(256),
  aggregationMethod: z.enum(AGGREGATION_METHODS).default('count'),
  targetValue: z.number().gt(0).max(DEFAULT_NUMBER_MAX),
  eudTitle: z.string().max(48).nullable().optional(),
  eudDescription: z.string().max(1024).nullable().optional(),
});
type TaskInput = z.infer<typeof taskInput>;

const tasksSchema = z
  .array(taskInput)
  .min(1)
  .max(20)
  .superRefine((tasks, issue) => {
    const seen = new Set<string>();
    tasks.forEach((t, i) => {
      if (seen.has(t.activityId)) issue.addIssue({ code: 'custom', path: [i, 'activityId'], message: 'activityId must be unique in the mission.' });
      seen.add(t.activityId);
    });
  });

function mergeText(stored: Record<string, string> | undefined, value: string | null | undefined, lang: string) {
  const out = { ...(stored ?? {}) };
  if (value === null) delete out[lang];
  else if (value !== undefined) out[lang] = value;
  return out;
}

/**
 * Tasks keep their ids across updates (task progress refers to them); texts merge per language.
 * The record service hands the stored column (null on create) and a validated body value.
 */
const tasksCodec = {
  read(stored: StoredTask[] | null, ctx: RequestContext) {
    return (stored ?? []).map((t) => ({
      id: t.id,
      ...(isPublicFlow(ctx) ? {} : { name: t.name }),
      activityId: t.activityId,
      aggregationMethod: t.aggregationMethod,
      targetValue: t.targetValue,
      eudTitle: resolveText(t.eudTitle, ctx),
      eudDescription: resolveText(t.eudDescription, ctx),
    }));
  },
  write(value: TaskInput[], ctx: RequestContext, stored: StoredTask[] | null) {
    const lang = writeLanguage(ctx);
    const previous = new Map((stored ?? []).map((t) => [t.id, t]));
    const tasks = value.map((t): StoredTask => {
      const before = t.id ? previous.get(t.id) : undefined;
      return {
        id: before ? before.id : randomUUID(),
        name: t.name,
        activityId: t.activityId,
        aggregationMethod: t.aggregationMethod,
        targetValue: t.targetValue,
        eudTitle: mergeText(before?.eudTitle, t.eudTitle, lang),
        eudDescription: mergeText(before?.eudDescription, t.eudDescription, lang),
      };
    });
    return JSON.stringify(tasks);
  },
};

export const mission = defineResource({
  slug: 'mission',
  table: 'mission',
  description: 'Missions: a set of tasks to finish within a window that starts with the first activity.',
  access: ADMIN_PUBLIC_READ,
  publicScope: 'public',
  fields: {
    name: name(),
    description: description(),
    status: field.status({ default: 'live' }),
    aggregationPeriod: field.enum(PERIODS, { default: 'weekly', public: true, description: 'Window length from the start: 1 day, 7 days or 1 calendar month.' }),
    rewardId: field.uuid({ references: 'reward', description: 'Reward for completing every task.' }),
    isRepeatable: field.boolean({ default: false, public: true }),
    tasks: { ...field.json(tasksSchema, { required: true, public: true }), codec: tasksCodec },
    ...commonEud,
    milestones: field.virtual(milestoneList, { public: true }),
  },
  load: loadMilestones,
  async beforeUpdate({ trx, values, existing }) {
    if (Array.isArray(values.tasks)) strandCheck(values.tasks.length, await highestMilestone(trx, existing!), 'number of tasks');
  },
  beforeDelete: ({ trx, row }) => deleteMilestones(trx, row),
});

const PARENTS = ['streak', 'challenge', 'mission'] as const;

/** A milestone must be reachable: at most the parent's completion target, or its number of tasks. */
async function checkMilestone(trx: Knex, accountId: string, record: Record<string, unknown>): Promise<ErrorDetail[]> {
  const slug = record.linkedSchemaSlug as (typeof PARENTS)[number];
  const parent = await trx(slug).where({ account_id: accountId, id: record.linkedSchemaRecordId }).first();
  if (!parent) {
    return [{ field: 'linkedSchemaRecordId', code: 'not_found', message: `No ${slug} record with id ${String(record.linkedSchemaRecordId)}.` }];
  }
  const target = record.milestoneTargetValue as number;
  const limit = slug === 'mission' ? (parent.tasks as unknown[]).length : (parent.completion_target_value as number | null);
  if (limit !== null && target > limit) {
    const what = slug === 'mission' ? 'the number of tasks' : 'the completionTargetValue';
    return [{ field: 'milestoneTargetValue', code: 'unreachable', message: `Must be at most ${limit}, ${what} of the ${slug}.` }];
  }
  return [];
}

export const milestone = defineResource({
  slug: 'milestone',
  table: 'milestone',
  description: 'Reward checkpoints on a streak, challenge or mission (for a mission the target counts completed tasks).',
  access: ADMIN,
  fields: {
    linkedSchemaSlug: field.enum(PARENTS, { required: true, createOnly: true }),
    linkedSchemaRecordId: field.uuid({ required: true, createOnly: true }),
    name: name(),
    description: requiredDescription(),
    milestoneTargetValue: field.number({ gt: 0, required: true, public: true }),
    status: field.status({ required: true }),
    rewardId: field.uuid({ references: 'reward' }),
    eudTitle: eudTitle(),
    eudDescription: eudText(),
    eudIcon: eudIcon(),
    eudMilestoneRewardTitle: eudTitle(),
    eudMilestoneRewardInstructionMessage: eudText(),
  },
  uniqueErrors: {
    milestone_target_unique: { status: 400, field: 'milestoneTargetValue', message: 'Another milestone of this parent has the same target.' },
  },
  async beforeCreate({ trx, ctx, values }) {
    const details = await checkMilestone(trx, ctx.account!.id, values);
    if (details.length) throw invalidMilestone(details);
  },
  async beforeUpdate({ trx, ctx, values, existing }) {
    if (!('milestoneTargetValue' in values)) return;
    const details = await checkMilestone(trx, ctx.account!.id, {
      linkedSchemaSlug: existing!.linked_schema_slug,
      linkedSchemaRecordId: existing!.linked_schema_record_id,
      milestoneTargetValue: values.milestoneTargetValue,
    });
    if (details.length) throw invalidMilestone(details);
  },
});

const invalidMilestone = (details: ErrorDetail[]) => invalidInput('The milestone is invalid.', details);
