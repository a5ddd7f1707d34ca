import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { isPublicFlow, type RequestContext, resolveText, writeLanguage } from '../records/context.js';
import { DEFAULT_NUMBER_MAX, field } from '../records/fields.js';
import type { RowOfFields, ValuesOfFields } from '../records/row-types.js';
import { description, eudIcon, eudText, eudTitle, name, requiredDescription } from './common.js';

export const AGGREGATION_METHODS = ['count', 'sum'] as const;
export const PERIODS = ['daily', 'weekly', 'monthly'] as const;
/** A streak's length in periods: a century of days is the longest a member could keep one. */
export const MAX_STREAK_PERIODS = 36_500;
/** The most freezes a streak lets a member hold (CONTRACT §14). */
export const MAX_FREEZES = 10;

const milestoneList = z.array(z.record(z.string(), z.unknown()));

/** The longest hold a definition may put on its rewards, in days (CONTRACT §17). */
export const MAX_HOLD_DAYS = 90;
/** The largest share of members a definition may hold out (CONTRACT §18). */
export const MAX_HOLDOUT_PERCENT = 50;
const holdoutPercent = () =>
  field.integer({
    min: 0,
    max: MAX_HOLDOUT_PERCENT,
    default: 0,
    description:
      "Percent of members held out of the definition to measure what it changes: a member's group is the first 4 bytes of SHA-256 of `<definition id>:<externalId>` (CONTRACT §18).",
  });
const rewardHoldDays = () =>
  field.integer({
    min: 0,
    max: MAX_HOLD_DAYS,
    default: 0,
    public: true,
    description: 'Days a reward log stays pending before its code is issued (a return window); 0 issues at once (CONTRACT §17).',
  });

const commonEud = {
  eudTitle: eudTitle(),
  eudDescription: eudText(),
  eudIcon: eudIcon(),
  eudCompletedMessage: eudText(),
};

export const streakFields = {
  name: name(),
  description: description(),
  status: field.status({ default: 'live' }),
  aggregationPeriod: field.enum(PERIODS, { default: 'daily', public: true }),
  aggregationMethod: field.enum(AGGREGATION_METHODS, { default: 'count', public: true }),
  aggregationTargetValue: field.number({ gt: 0, default: 1, public: true, description: 'Per-period total that completes a period.' }),
  completionTargetValue: field.integer({
    min: 1,
    max: MAX_STREAK_PERIODS,
    public: true,
    description: 'Periods to complete the streak; null is endless.',
  }),
  toBeBrokenWarningHours: field.number({ min: 0, max: 8760, default: 4 }),
  maxFreezes: field.integer({
    min: 0,
    max: MAX_FREEZES,
    default: 0,
    public: true,
    description: 'Freezes a member may hold, each covering one missed period; 0 turns freezes off.',
  }),
  freezeEarnEveryPeriods: field.integer({
    min: 1,
    max: MAX_STREAK_PERIODS,
    public: true,
    description: 'A progress earns a freeze each time its run reaches a multiple of this; null: freezes are only granted.',
  }),
  rewardHoldDays: rewardHoldDays(),
  holdoutPercent: holdoutPercent(),
  ...commonEud,
  eudMilestoneAchievedMessage: eudText(),
  milestones: field.virtual(milestoneList, {
    public: true,
    description:
      "Live milestones, ascending target; for guests and end users each with `reward`: its reward's public fields (discountType, discountValue, EUD texts), or null.",
  }),
};

export const challengeFields = {
  name: name(),
  description: description(),
  status: field.status({ default: 'live' }),
  aggregationPeriod: field.enum(PERIODS, { default: 'daily', public: true, description: 'The window: a calendar day, week or month.' }),
  aggregationMethod: field.enum(AGGREGATION_METHODS, { default: 'count', public: true }),
  completionTargetValue: field.number({ gt: 0, required: true, public: true }),
  startAt: field.datetime({ public: true }),
  endAt: field.datetime({ public: true }),
  toBeFailedWarningHours: field.number({ min: 0, max: 8760, default: 24 }),
  rewardHoldDays: rewardHoldDays(),
  holdoutPercent: holdoutPercent(),
  ...commonEud,
  eudMilestoneAchievedMessage: eudText(),
  milestones: field.virtual(milestoneList, { public: true }),
};

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
/** A mission's task as its definition stores it (the mission resource writes it; aggregation reads it). */
export interface StoredTask {
  id: string;
  name: string;
  activityId: string;
  aggregationMethod: 'count' | 'sum';
  targetValue: number;
  eudTitle: Record<string, string>;
  eudDescription: Record<string, string>;
}

const tasksSchema = z
  .array(taskInput)
  .min(1)
  .max(20)
  .superRefine((tasks, issue) => {
    const seen = new Set<string>();
    const ids = new Set<string>();
    tasks.forEach((t, i) => {
      if (seen.has(t.activityId))
        issue.addIssue({ code: 'custom', path: [i, 'activityId'], message: 'activityId must be unique in the mission.' });
      seen.add(t.activityId);
      // An id names the one stored task it keeps: two tasks with one id would share its progress.
      if (t.id !== undefined && ids.has(t.id))
        issue.addIssue({ code: 'custom', path: [i, 'id'], message: 'id must be unique in the mission: each names one task.' });
      if (t.id !== undefined) ids.add(t.id);
    });
  })
  .meta({ description: "A mission's tasks; each task's activityId, and each id given, is distinct within the mission." });

function mergeText(stored: Record<string, string> | undefined, value: string | null | undefined, lang: string) {
  const out = { ...(stored ?? {}) };
  if (value === null) delete out[lang];
  else if (value !== undefined) out[lang] = value;
  return out;
}

/** A task as `tasksCodec` reads it: with its id, its texts in the read language, and no name for end users and guests. */
const tasksOutput = z.array(
  z.object({
    id: z.uuid(),
    name: z.string().optional().meta({ description: 'Not shown to end users and guests.' }),
    activityId: z.string(),
    aggregationMethod: z.enum(AGGREGATION_METHODS),
    targetValue: z.number(),
    eudTitle: z.string().nullable(),
    eudDescription: z.string().nullable(),
  }),
);

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

export const missionFields = {
  name: name(),
  description: description(),
  status: field.status({ default: 'live' }),
  aggregationPeriod: field.enum(PERIODS, {
    default: 'weekly',
    public: true,
    description: 'Window length from the start: 1 day, 7 days or 1 calendar month.',
  }),
  rewardId: field.uuid({ references: 'reward', description: 'Reward for completing every task.' }),
  isRepeatable: field.boolean({ default: false, public: true }),
  rewardHoldDays: rewardHoldDays(),
  holdoutPercent: holdoutPercent(),
  tasks: { ...field.json(tasksSchema, { required: true, public: true }), codec: tasksCodec, outputSchema: tasksOutput },
  ...commonEud,
  milestones: field.virtual(milestoneList, { public: true }),
};

export const PARENTS = ['streak', 'challenge', 'mission'] as const;

export const milestoneFields = {
  linkedSchemaSlug: field.enum(PARENTS, { required: true, createOnly: true }),
  linkedSchemaRecordId: field.uuid({
    required: true,
    createOnly: true,
    referencesBy: { field: 'linkedSchemaSlug', slugs: { streak: 'streak', challenge: 'challenge', mission: 'mission' } },
  }),
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
};

export type StreakRow = RowOfFields<typeof streakFields>;
export type ChallengeRow = RowOfFields<typeof challengeFields>;
export type MissionRow = RowOfFields<typeof missionFields>;
export type MilestoneRow = RowOfFields<typeof milestoneFields>;
export type StreakValues = ValuesOfFields<typeof streakFields>;
export type ChallengeValues = ValuesOfFields<typeof challengeFields>;
export type MissionValues = ValuesOfFields<typeof missionFields>;
export type MilestoneValues = ValuesOfFields<typeof milestoneFields>;
