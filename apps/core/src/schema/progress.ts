import { z } from 'zod';
import { EVENT_CODES } from '../events/codes.js';
import { field } from '../records/fields.js';
import { MAX_STREAK_PERIODS } from './definitions.js';
import type { RowOfFields } from '../records/row-types.js';
import { anyObject, jsonObject } from './common.js';

const objectList = z.array(jsonObject);
export const ownedBy = () => field.virtual(anyObject, { description: 'The member (joined, read-only).' });

const PROGRESS_STATUS = {
  streak: ['in_progress', 'completed', 'broken'],
  challenge: ['in_progress', 'completed', 'failed'],
  mission: ['in_progress', 'completed', 'failed'],
} as const;

export const streakProgressFields = {
  streakId: field.uuid({ readOnly: true, alwaysSet: true }),
  streak: field.virtual(anyObject),
  ownedById: field.uuid({ readOnly: true, alwaysSet: true }),
  ownedBy: ownedBy(),
  uniqueIdentifier: field.string({ readOnly: true, alwaysSet: true }),
  streakProgressStatus: field.enum(PROGRESS_STATUS.streak, { readOnly: true, alwaysSet: true }),
  currentProgressValue: field.number({ readOnly: true, alwaysSet: true, description: 'Consecutive completed periods.' }),
  streakStartedAt: field.datetime({ readOnly: true, alwaysSet: true }),
  streakCompletedAt: field.datetime({ readOnly: true }),
  streakBrokenAt: field.datetime({ readOnly: true }),
  streakToBeBrokenAt: field.datetime({ readOnly: true }),
  lastCompletedPeriodKey: field.string({ readOnly: true }),
  freezesAvailable: field.integer({ readOnly: true, alwaysSet: true, description: 'Freezes left, each covering one missed period.' }),
  freezesUsed: field.integer({ readOnly: true, alwaysSet: true }),
  frozenPeriodKeys: field.stringArray({
    readOnly: true,
    alwaysSet: true,
    maxItems: MAX_STREAK_PERIODS,
    description: 'Periods covered by a freeze, ascending.',
  }),
  taskProgress: field.virtual(anyObject, { description: 'Progress within the current period.' }),
};

export const challengeProgressFields = {
  challengeId: field.uuid({ readOnly: true, alwaysSet: true }),
  challenge: field.virtual(anyObject),
  ownedById: field.uuid({ readOnly: true, alwaysSet: true }),
  ownedBy: ownedBy(),
  periodKey: field.string({ readOnly: true, alwaysSet: true }),
  challengeProgressStatus: field.enum(PROGRESS_STATUS.challenge, { readOnly: true, alwaysSet: true }),
  currentProgressValue: field.number({ readOnly: true, alwaysSet: true }),
  challengeStartedAt: field.datetime({ readOnly: true, alwaysSet: true }),
  challengeCompletedAt: field.datetime({ readOnly: true }),
  challengeFailedAt: field.datetime({ readOnly: true }),
  challengeToBeFailedAt: field.datetime({ readOnly: true }),
};

export const missionProgressFields = {
  missionId: field.uuid({ readOnly: true, alwaysSet: true }),
  mission: field.virtual(anyObject),
  ownedById: field.uuid({ readOnly: true, alwaysSet: true }),
  ownedBy: ownedBy(),
  uniqueIdentifier: field.string({ readOnly: true, alwaysSet: true }),
  missionProgressStatus: field.enum(PROGRESS_STATUS.mission, { readOnly: true, alwaysSet: true }),
  isMissionToBeFailedProcessed: field.boolean({ readOnly: true, alwaysSet: true }),
  missionStartedAt: field.datetime({ readOnly: true, alwaysSet: true }),
  missionCompletedAt: field.datetime({ readOnly: true }),
  missionFailedAt: field.datetime({ readOnly: true }),
  missionToBeFailedAt: field.datetime({ readOnly: true }),
  taskProgresses: field.virtual(objectList),
};

export const taskProgressFields = {
  ownedById: field.uuid({ readOnly: true, alwaysSet: true }),
  linkedSchemaSlug: field.enum(['streak_progress', 'mission_progress'], { readOnly: true, alwaysSet: true }),
  linkedSchemaRecordId: field.uuid({ readOnly: true, alwaysSet: true }),
  taskId: field.uuid({ readOnly: true }),
  periodKey: field.string({ readOnly: true }),
  currentProgressValue: field.number({ readOnly: true, alwaysSet: true }),
  targetValue: field.number({ readOnly: true, alwaysSet: true }),
  taskProgressStatus: field.enum(['in_progress', 'completed'], { readOnly: true, alwaysSet: true }),
  completedAt: field.datetime({ readOnly: true, description: "The completing log's activityAt, as a run's own completion." }),
};

export const eventLogFields = {
  eventCode: field.enum(EVENT_CODES, { readOnly: true, alwaysSet: true }),
  ownedById: field.uuid({ readOnly: true }),
  linkedSchemaSlug: field.string({ readOnly: true }),
  linkedSchemaRecordId: field.uuid({ readOnly: true }),
  payload: field.json(jsonObject, { readOnly: true, alwaysSet: true }),
};

/* Columns the engine keeps for itself beside the fields (period bookkeeping, warnings, dispatch). */
export type StreakProgressRow = RowOfFields<typeof streakProgressFields> & {
  current_period_key: string | null;
  warned_to_be_broken_at: Date | null;
};
export type ChallengeProgressRow = RowOfFields<typeof challengeProgressFields> & {
  is_warned: boolean;
  /** The completion target the window was completed under (not shown: a reversal judges the window by it). */
  completed_target_value?: number | null;
};
export type MissionProgressRow = RowOfFields<typeof missionProgressFields>;
export type TaskProgressRow = RowOfFields<typeof taskProgressFields>;
export type EventLogRow = RowOfFields<typeof eventLogFields> & { dispatched_at: Date | null; trace_parent: string | null };
