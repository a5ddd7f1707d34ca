import type { AccountInfo } from '../auth/authenticate.js';
import { isPlainObject } from '../db/json.js';
import type { EventCode } from '../events/codes.js';
import type { LanguageCode } from '../formats.js';
import type { RowOfFields } from '../records/row-types.js';
import type { AccountUserRow } from '../schema/members.js';
import type { eventLogFields } from '../schema/progress.js';
import { SAMPLE_TEXTS, type SampleTexts } from './sample-texts.js';

/**
 * Sample data for designing email templates (the `render` action): one realistic payload per event
 * code, shaped as the engine writes them (CONTRACT §9): log-driven codes carry `streakLog` /
 * `challengeLog` / `missionLog` (a log create response with the definition joined), sweep codes carry
 * `streakProgress` / `challengeProgress` / `missionProgress` with the definition and `nextMilestone`.
 * The story: a member on a weekly workout streak (3 workouts a week, milestones at 4, 8 and 12 weeks),
 * a monthly spending challenge (200 to spend, milestones at 100 and 150) and a three-task welcome
 * mission. Ids are fixed so previews are stable; times are relative to the preview's `now`; the
 * member-facing texts are in the preview's language (sample-texts.ts), as the engine writes them.
 */

const ID = {
  member: '5a3c1f0e-0000-4000-8000-000000000001',
  event: '5a3c1f0e-0000-4000-8000-000000000002',
  streak: '5a3c1f0e-0000-4000-8000-000000000010',
  streakProgress: '5a3c1f0e-0000-4000-8000-000000000011',
  streakLog: '5a3c1f0e-0000-4000-8000-000000000012',
  challenge: '5a3c1f0e-0000-4000-8000-000000000020',
  challengeProgress: '5a3c1f0e-0000-4000-8000-000000000021',
  challengeLog: '5a3c1f0e-0000-4000-8000-000000000022',
  mission: '5a3c1f0e-0000-4000-8000-000000000030',
  missionProgress: '5a3c1f0e-0000-4000-8000-000000000031',
  missionLog: '5a3c1f0e-0000-4000-8000-000000000032',
  reward: '5a3c1f0e-0000-4000-8000-000000000040',
  rewardLog: '5a3c1f0e-0000-4000-8000-000000000041',
  reversal: '5a3c1f0e-0000-4000-8000-000000000042',
  pointEntry: '5a3c1f0e-0000-4000-8000-000000000043',
  tierSilver: '5a3c1f0e-0000-4000-8000-000000000044',
  tierGold: '5a3c1f0e-0000-4000-8000-000000000045',
  taskProgress: '5a3c1f0e-0000-4000-8000-000000000050',
};
const milestoneId = (n: number) => `5a3c1f0e-0000-4000-8000-0000000001${String(n).padStart(2, '0')}`;
const taskId = (n: number) => `5a3c1f0e-0000-4000-8000-0000000002${String(n).padStart(2, '0')}`;

type Json = Record<string, unknown>;
/** A milestone as payloads join it; its id, target and reward pick the achieved and next ones. */
type Milestone = Json & { id: string; milestoneTargetValue: number; rewardId: string | null };
const DAY = 86_400_000;
const HOUR = 3_600_000;

/** The sample member's points balance after the sample entry. */
const SAMPLE_BALANCE = 250;
const SAMPLE_REWARD_COST = 500;
const SAMPLE_REFERRAL_CODE = 'K7M3QX9P';

/** The sample member, in the preview's language and the account's time zone. */
export function sampleMember(account: AccountInfo, languageCode: LanguageCode): AccountUserRow {
  const created = new Date('2026-01-15T09:30:00.000Z');
  return {
    id: ID.member,
    account_id: account.id,
    external_id: 'customer-10452',
    first_name: 'Alex',
    last_name: 'Morgan',
    email: 'alex.morgan@example.com',
    phone_number: '+14155550123',
    timezone: account.timezone,
    language_code: languageCode,
    push_device_tokens: [],
    status: 'live',
    birthday: null,
    referral_code: SAMPLE_REFERRAL_CODE,
    referred_by_id: null,
    unsubscribed_channels: [],
    social_follows: [],
    points_balance: SAMPLE_BALANCE,
    points_earned_in_tier_window: SAMPLE_BALANCE,
    last_point_entry_at: created,
    tier_id: ID.tierGold,
    created_at: created,
    updated_at: created,
  };
}

/** The member as payloads join it (`ownedBy`). */
function ownedBy(): Json {
  return {
    id: ID.member,
    externalId: 'customer-10452',
    firstName: 'Alex',
    lastName: 'Morgan',
    email: 'alex.morgan@example.com',
    phoneNumber: '+14155550123',
    timezone: null,
    languageCode: null,
    pushDeviceTokens: [],
    status: 'live',
    birthday: null,
    referralCode: SAMPLE_REFERRAL_CODE,
    referredById: null,
    unsubscribedChannels: [],
    socialFollows: [],
    pointsBalance: SAMPLE_BALANCE,
    pointsEarnedInTierWindow: SAMPLE_BALANCE,
    lastPointEntryAt: '2026-01-15T09:30:00.000Z',
    tierId: ID.tierGold,
    heldOutOf: [],
    createdAt: '2026-01-15T09:30:00.000Z',
    updatedAt: '2026-01-15T09:30:00.000Z',
  };
}

/** `name` (the merchant's) in English, `title` (the member's) in the preview's language. */
function milestone(
  t: SampleTexts,
  n: number,
  parent: 'streak' | 'challenge' | 'mission',
  parentId: string,
  target: number,
  name: string,
  title: string,
  rewardId: string | null,
): Milestone {
  return {
    id: milestoneId(n),
    linkedSchemaSlug: parent,
    linkedSchemaRecordId: parentId,
    name,
    description: `${name} milestone`,
    milestoneTargetValue: target,
    status: 'live',
    rewardId,
    eudTitle: title,
    eudDescription: null,
    eudIcon: null,
    eudMilestoneRewardTitle: rewardId ? t.rewardTitle : null,
    eudMilestoneRewardInstructionMessage: null,
    createdAt: '2026-01-10T08:00:00.000Z',
    updatedAt: '2026-01-10T08:00:00.000Z',
  };
}

const EN = SAMPLE_TEXTS.en;
const streakMilestones = (t: SampleTexts) => [
  milestone(t, 1, 'streak', ID.streak, 4, EN.streakMilestones[0], t.streakMilestones[0], null),
  milestone(t, 2, 'streak', ID.streak, 8, EN.streakMilestones[1], t.streakMilestones[1], ID.reward),
  milestone(t, 3, 'streak', ID.streak, 12, EN.streakMilestones[2], t.streakMilestones[2], ID.reward),
];
const challengeMilestones = (t: SampleTexts) => [
  milestone(t, 4, 'challenge', ID.challenge, 100, EN.challengeMilestones[0], t.challengeMilestones[0], ID.reward),
  milestone(t, 5, 'challenge', ID.challenge, 150, EN.challengeMilestones[1], t.challengeMilestones[1], null),
];
const missionMilestones = (t: SampleTexts) => [milestone(t, 6, 'mission', ID.mission, 2, EN.missionMilestone, t.missionMilestone, null)];

/** When the sample definitions were made. */
const DEFINED_AT = '2026-01-10T08:00:00.000Z';

function streak(t: SampleTexts): Json {
  return {
    id: ID.streak,
    createdAt: DEFINED_AT,
    updatedAt: DEFINED_AT,
    name: 'Weekly workouts',
    description: 'Work out three times a week',
    status: 'live',
    aggregationPeriod: 'weekly',
    aggregationMethod: 'count',
    aggregationTargetValue: 3,
    completionTargetValue: 12,
    toBeBrokenWarningHours: 24,
    maxFreezes: 2,
    freezeEarnEveryPeriods: 4,
    rewardHoldDays: 0,
    holdoutPercent: 0,
    eudTitle: t.streakTitle,
    eudDescription: t.streakDescription,
    eudIcon: null,
    eudMilestoneAchievedMessage: t.streakMilestoneMessage,
    eudCompletedMessage: t.streakCompleted,
    milestones: streakMilestones(t),
  };
}

function challenge(t: SampleTexts): Json {
  return {
    id: ID.challenge,
    createdAt: DEFINED_AT,
    updatedAt: DEFINED_AT,
    name: 'Spend 200 this month',
    description: 'Monthly spending challenge',
    status: 'live',
    aggregationPeriod: 'monthly',
    aggregationMethod: 'sum',
    completionTargetValue: 200,
    startAt: null,
    endAt: null,
    toBeFailedWarningHours: 24,
    rewardHoldDays: 0,
    holdoutPercent: 0,
    eudTitle: t.challengeTitle,
    eudDescription: t.challengeDescription,
    eudIcon: null,
    eudMilestoneAchievedMessage: t.challengeMilestoneMessage,
    eudCompletedMessage: t.challengeCompleted,
    milestones: challengeMilestones(t),
  };
}

const TASK_ACTIVITIES = ['profile_completed', 'order_placed', 'review_written'];
const tasks = (t: SampleTexts) =>
  TASK_ACTIVITIES.map((activityId, i) => ({
    id: taskId(i + 1),
    name: EN.tasks[i]!,
    activityId,
    aggregationMethod: 'count',
    targetValue: 1,
    eudTitle: t.tasks[i]!,
    eudDescription: null,
  }));

function mission(t: SampleTexts): Json {
  return {
    id: ID.mission,
    createdAt: DEFINED_AT,
    updatedAt: DEFINED_AT,
    name: 'Welcome mission',
    description: 'Onboarding tasks for new members',
    status: 'live',
    aggregationPeriod: 'weekly',
    rewardId: ID.reward,
    isRepeatable: false,
    rewardHoldDays: 0,
    holdoutPercent: 0,
    tasks: tasks(t),
    eudTitle: t.missionTitle,
    eudDescription: t.missionDescription,
    eudIcon: null,
    eudCompletedMessage: t.missionCompleted,
    milestones: missionMilestones(t),
  };
}

function rewardLog(
  t: SampleTexts,
  now: Date,
  linked: { slug: string; id: string },
  milestoneRow: Milestone | null,
  periodKey: string | null,
): Json {
  const expiry = new Date(now.getTime() + 30 * DAY).toISOString();
  return {
    id: ID.rewardLog,
    rewardId: ID.reward,
    reward: {
      id: ID.reward,
      name: '15% off',
      description: '15% off the next order',
      status: 'live',
      rewardKind: 'code',
      discountType: 'percentage',
      discountValue: 15,
      pointsValue: null,
      pointsCost: SAMPLE_REWARD_COST,
      rewardExpiryType: 'relative',
      rewardExpiryInDays: 30,
      rewardExpiryAt: null,
      handleCoupon: true,
      handleCouponAutoGeneration: true,
      couponCodePrefix: 'FIT-',
      couponCodeLength: 8,
      eudTitle: t.rewardTitle,
      eudRedeemInstructionMessage: null,
      createdAt: '2026-01-10T08:00:00.000Z',
      updatedAt: '2026-01-10T08:00:00.000Z',
    },
    milestoneId: milestoneRow?.id ?? null,
    milestone: milestoneRow,
    linkedSchemaSlug: linked.slug,
    linkedSchemaRecordId: linked.id,
    ownedById: ID.member,
    ownedBy: ownedBy(),
    couponCode: 'FIT-7K2QX9LM',
    rewardIssuedAt: now.toISOString(),
    rewardExpiryAt: expiry,
    periodKey,
    status: 'live',
    rewardLogStatus: 'issued',
    confirmAt: null,
    revokedAt: null,
    revokedReason: null,
    eudRewardTitle: t.rewardTitle,
    eudRedeemInstructionMessage: t.redeemInstruction,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
}

/** A log create response (CONTRACT §8) around the progress and the milestones of one log. */
function logResponse(
  kind: 'streak' | 'challenge' | 'mission',
  now: Date,
  parts: {
    definition: Json;
    progress: Json;
    taskProgress: unknown;
    achieved: Json[];
    next: Json | null;
    rewardLogs: Json[];
    missionReward?: Json | null;
    activityId: string;
    activityValue: number | null;
    periodKey: string | null;
  },
): Json {
  const logId = { streak: ID.streakLog, challenge: ID.challengeLog, mission: ID.missionLog }[kind];
  return {
    id: logId,
    [`${kind}Id`]: parts.definition.id,
    ownedById: ID.member,
    activityId: parts.activityId,
    activityAt: new Date(now.getTime() - 5 * 60_000).toISOString(),
    uniqueIdentifier: `order-${kind}-88412`,
    activityValue: parts.activityValue,
    status: 'live',
    isAggregated: true,
    notAggregatedReason: null,
    periodKey: parts.periodKey,
    reversedValue: 0,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    [kind]: parts.definition,
    ownedBy: ownedBy(),
    [`${kind}Progress`]: parts.progress,
    taskProgress: parts.taskProgress,
    achievedMilestone: parts.achieved.at(-1) ?? null,
    achievedMilestones: parts.achieved,
    nextMilestone: parts.next,
    achievedMilestoneRewardLog: parts.rewardLogs.at(-1) ?? null,
    achievedMilestoneRewardLogs: parts.rewardLogs,
    rewardLog: parts.missionReward ?? null,
  };
}

function streakPayload(t: SampleTexts, code: EventCode, now: Date): Json {
  const weeks: Record<string, number> = {
    streak_progress_in_progress: 5,
    streak_progress_non_milestone_completed: 6,
    streak_progress_milestone_completed: 8,
    streak_progress_completed: 12,
    streak_progress_to_be_broken: 6,
    streak_progress_broken: 6,
    streak_progress_freeze_used: 6,
    streak_progress_freeze_earned: 8,
  };
  const value = weeks[code]!;
  const week = '2026-W47';
  const frozen = code === 'streak_progress_freeze_used';
  const status = code === 'streak_progress_completed' ? 'completed' : code === 'streak_progress_broken' ? 'broken' : 'in_progress';
  const periodDone = code !== 'streak_progress_in_progress' && code !== 'streak_progress_to_be_broken' && !frozen;
  const toBeBrokenIn = code === 'streak_progress_to_be_broken' ? 24 * HOUR : code === 'streak_progress_broken' ? -HOUR : 7 * DAY;
  // The workout streak lets a member hold 2 freezes and earns one every 4 weeks; a week missed after week 46 was frozen.
  const startedAt = new Date(now.getTime() - (value * 7 + 2) * DAY).toISOString();
  const progress: Json = {
    id: ID.streakProgress,
    streakId: ID.streak,
    ownedById: ID.member,
    uniqueIdentifier: `${ID.streak}:${ID.member}`,
    streakProgressStatus: status,
    currentProgressValue: value,
    streakStartedAt: startedAt,
    createdAt: startedAt,
    updatedAt: now.toISOString(),
    streakCompletedAt: status === 'completed' ? now.toISOString() : null,
    streakBrokenAt: status === 'broken' ? new Date(now.getTime() - HOUR).toISOString() : null,
    streakToBeBrokenAt: new Date(now.getTime() + toBeBrokenIn).toISOString(),
    lastCompletedPeriodKey: frozen ? '2026-W46' : week,
    freezesAvailable: frozen ? 0 : 1,
    freezesUsed: frozen ? 1 : 0,
    frozenPeriodKeys: frozen ? [week] : [],
  };
  const taskProgress: Json = {
    id: ID.taskProgress,
    ownedById: ID.member,
    linkedSchemaSlug: 'streak_progress',
    linkedSchemaRecordId: ID.streakProgress,
    taskId: null,
    periodKey: week,
    currentProgressValue: periodDone ? 3 : 2,
    targetValue: 3,
    taskProgressStatus: periodDone ? 'completed' : 'in_progress',
    completedAt: periodDone ? now.toISOString() : null,
    createdAt: new Date(now.getTime() - 3 * DAY).toISOString(),
    updatedAt: now.toISOString(),
  };
  const next = streakMilestones(t).find((m) => m.milestoneTargetValue > value) ?? null;
  const stored = streak(t);
  const streakProgress = {
    ...progress,
    taskProgress: code === 'streak_progress_to_be_broken' ? taskProgress : null,
    streak: stored,
    nextMilestone: next,
  };
  if (code === 'streak_progress_to_be_broken') return { streakProgress, freezesAvailable: progress.freezesAvailable };
  if (code === 'streak_progress_broken') return { streakProgress };
  if (frozen) return { streakProgress, streak: stored, frozenPeriodKey: week };
  if (code === 'streak_progress_freeze_earned') return { streakProgress, streak: stored };
  const achieved = streakMilestones(t).filter(
    (m) => m.milestoneTargetValue === value && (code === 'streak_progress_milestone_completed' || code === 'streak_progress_completed'),
  );
  const rewardLogs = achieved.filter((m) => m.rewardId).map((m) => rewardLog(t, now, { slug: 'streak', id: ID.streak }, m, week));
  return {
    streakLog: logResponse('streak', now, {
      definition: streak(t),
      progress,
      taskProgress,
      achieved,
      next,
      rewardLogs,
      activityId: 'workout',
      activityValue: null,
      periodKey: week,
    }),
  };
}

function challengePayload(t: SampleTexts, code: EventCode, now: Date): Json {
  const totals: Record<string, number> = {
    challenge_progress_in_progress: 65,
    challenge_progress_milestone_completed: 115,
    challenge_progress_completed: 210,
    challenge_progress_to_be_failed: 115,
    challenge_progress_failed: 115,
  };
  const value = totals[code]!;
  const month = '2026-11';
  const status = code === 'challenge_progress_completed' ? 'completed' : code === 'challenge_progress_failed' ? 'failed' : 'in_progress';
  const windowEnd = new Date(
    now.getTime() + (code === 'challenge_progress_failed' ? -HOUR : code === 'challenge_progress_to_be_failed' ? 24 * HOUR : 9 * DAY),
  ).toISOString();
  const startedAt = new Date(now.getTime() - 12 * DAY).toISOString();
  const progress: Json = {
    id: ID.challengeProgress,
    challengeId: ID.challenge,
    ownedById: ID.member,
    periodKey: month,
    challengeProgressStatus: status,
    currentProgressValue: value,
    challengeStartedAt: startedAt,
    createdAt: startedAt,
    updatedAt: now.toISOString(),
    challengeCompletedAt: status === 'completed' ? now.toISOString() : null,
    challengeFailedAt: status === 'failed' ? windowEnd : null,
    challengeToBeFailedAt: windowEnd,
  };
  const next = challengeMilestones(t).find((m) => m.milestoneTargetValue > value) ?? null;
  if (code === 'challenge_progress_to_be_failed' || code === 'challenge_progress_failed') {
    return {
      challengeProgress: {
        ...progress,
        challenge: challenge(t),
        nextMilestone: next,
      },
    };
  }
  const spent = code === 'challenge_progress_completed' ? 95 : 50;
  const achieved =
    code === 'challenge_progress_in_progress'
      ? []
      : challengeMilestones(t).filter((m) => value - spent < m.milestoneTargetValue && m.milestoneTargetValue <= value);
  const rewardLogs = achieved.filter((m) => m.rewardId).map((m) => rewardLog(t, now, { slug: 'challenge', id: ID.challenge }, m, month));
  return {
    challengeLog: logResponse('challenge', now, {
      definition: challenge(t),
      progress,
      taskProgress: null,
      achieved,
      next,
      rewardLogs,
      activityId: 'order_placed',
      activityValue: spent,
      periodKey: month,
    }),
  };
}

function missionPayload(t: SampleTexts, code: EventCode, now: Date): Json {
  const tasksDone: Record<string, number> = {
    mission_progress_in_progress: 1,
    mission_progress_milestone_completed: 2,
    mission_progress_completed: 3,
    mission_progress_failed: 2,
  };
  const done = tasksDone[code]!;
  const status = code === 'mission_progress_completed' ? 'completed' : code === 'mission_progress_failed' ? 'failed' : 'in_progress';
  const start = new Date(now.getTime() - 3 * DAY);
  const taskProgresses = tasks(t).map((task, i) => ({
    id: `5a3c1f0e-0000-4000-8000-0000000003${String(i).padStart(2, '0')}`,
    ownedById: ID.member,
    linkedSchemaSlug: 'mission_progress',
    linkedSchemaRecordId: ID.missionProgress,
    taskId: task.id,
    periodKey: null,
    currentProgressValue: i < done ? 1 : 0,
    targetValue: 1,
    taskProgressStatus: i < done ? 'completed' : 'in_progress',
    completedAt: i < done ? now.toISOString() : null,
    createdAt: start.toISOString(),
    updatedAt: now.toISOString(),
  }));
  const progress: Json = {
    id: ID.missionProgress,
    missionId: ID.mission,
    ownedById: ID.member,
    uniqueIdentifier: `${ID.mission}:${ID.member}`,
    missionProgressStatus: status,
    isMissionToBeFailedProcessed: status === 'failed',
    missionStartedAt: start.toISOString(),
    createdAt: start.toISOString(),
    updatedAt: now.toISOString(),
    missionCompletedAt: status === 'completed' ? now.toISOString() : null,
    missionFailedAt: status === 'failed' ? new Date(start.getTime() + 7 * DAY).toISOString() : null,
    missionToBeFailedAt: new Date(start.getTime() + 7 * DAY).toISOString(),
    taskProgresses,
  };
  const next = missionMilestones(t).find((m) => m.milestoneTargetValue > done) ?? null;
  if (code === 'mission_progress_failed') {
    return {
      missionProgress: {
        ...progress,
        mission: mission(t),
        nextMilestone: next,
      },
    };
  }
  const achieved = code === 'mission_progress_milestone_completed' ? missionMilestones(t) : [];
  return {
    missionLog: logResponse('mission', now, {
      definition: mission(t),
      progress,
      taskProgress: [taskProgresses[done - 1]],
      achieved,
      next,
      rewardLogs: [],
      missionReward: code === 'mission_progress_completed' ? rewardLog(t, now, { slug: 'mission', id: ID.mission }, null, null) : null,
      activityId: TASK_ACTIVITIES[done - 1]!,
      activityValue: null,
      periodKey: null,
    }),
  };
}

/**
 * A reversal's payload (CONTRACT §17): the log of an in-progress sample with its value taken back,
 * the progress after, and the reward log the reversal revoked.
 */
function reversedPayload(t: SampleTexts, kind: 'streak' | 'challenge' | 'mission', now: Date): Json {
  const sample = (kind === 'streak' ? streakPayload : kind === 'challenge' ? challengePayload : missionPayload)(
    t,
    `${kind}_progress_in_progress`,
    now,
  );
  const { [`${kind}Progress`]: progress, ...created } = objectOf(sample[`${kind}Log`]);
  const log = Object.fromEntries(Object.entries(created).filter(([key]) => !LOG_ADDITIONS.has(key) && key !== kind && key !== 'ownedBy'));
  const value = typeof log.activityValue === 'number' ? log.activityValue : 1;
  const reversal = { id: ID.reversal, activityValue: value, reason: 'refund', createdAt: now.toISOString() };
  const revoked = {
    ...rewardLog(t, now, { slug: kind, id: String(objectOf(created[kind]).id) }, null, null),
    rewardLogStatus: 'revoked',
    revokedAt: now.toISOString(),
    revokedReason: 'refund',
  };
  return {
    [`${kind}Log`]: { ...log, reversedValue: value, reversals: [reversal] },
    [`${kind}Progress`]: progress,
    revokedRewardLogs: [revoked],
  };
}

const objectOf = (value: unknown): Json => (isPlainObject(value) ? value : {});

/** What a log create response adds to the log itself (CONTRACT §8). */
const LOG_ADDITIONS = new Set([
  'taskProgress',
  'achievedMilestone',
  'achievedMilestones',
  'nextMilestone',
  'achievedMilestoneRewardLog',
  'achievedMilestoneRewardLogs',
  'rewardLog',
]);

/** A points event (CONTRACT §19): the entry and the member after it; a redemption's reward log too. */
function pointsPayload(t: SampleTexts, code: 'points_earned' | 'points_redeemed', now: Date): Json {
  const redeemed = code === 'points_redeemed';
  const pointEntry = {
    id: ID.pointEntry,
    ownedById: ID.member,
    points: redeemed ? -SAMPLE_REWARD_COST : 100,
    reason: redeemed ? 'redeemed' : 'earned',
    note: null,
    uniqueIdentifier: null,
    linkedSchemaSlug: 'reward_log',
    linkedSchemaRecordId: ID.rewardLog,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  const payload: Json = { pointEntry, member: ownedBy() };
  if (redeemed) payload.rewardLog = rewardLog(t, now, { slug: 'point_entry', id: ID.pointEntry }, null, null);
  return payload;
}

/** A sample tier as payloads serialise it: Silver (the one before) or Gold (the member's now). */
export function sampleTier(gold: boolean, now: Date): Json {
  return {
    id: gold ? ID.tierGold : ID.tierSilver,
    name: gold ? 'Gold' : 'Silver',
    description: null,
    status: 'live',
    pointsThreshold: gold ? SAMPLE_BALANCE : 100,
    earnMultiplier: gold ? 1.5 : 1.2,
    entryRewardId: null,
    eudTitle: gold ? 'Gold' : 'Silver',
    eudDescription: null,
    eudIcon: null,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
}

export function samplePayload(code: EventCode, now: Date, language: LanguageCode): Json {
  const t = SAMPLE_TEXTS[language];
  if (code === 'points_earned' || code === 'points_redeemed') return pointsPayload(t, code, now);
  if (code === 'tier_changed') return { member: ownedBy(), tierBefore: sampleTier(false, now), tierAfter: sampleTier(true, now) };
  if (code === 'points_to_expire')
    return { member: ownedBy(), expiringPoints: SAMPLE_BALANCE, expiresAt: new Date(now.getTime() + 14 * DAY).toISOString() };
  if (code === 'reward_log_issued') return { rewardLog: rewardLog(t, now, { slug: 'streak', id: ID.streak }, null, '2026-W03') };
  if (code === 'streak_progress_reversed') return reversedPayload(t, 'streak', now);
  if (code === 'challenge_progress_reversed') return reversedPayload(t, 'challenge', now);
  if (code === 'mission_progress_reversed') return reversedPayload(t, 'mission', now);
  if (code.startsWith('streak_')) return streakPayload(t, code, now);
  if (code.startsWith('challenge_')) return challengePayload(t, code, now);
  return missionPayload(t, code, now);
}

/** A sample event_log row for a code, about the sample member, its texts in the language. */
export function sampleEvent(
  accountId: string,
  memberId: string,
  code: EventCode,
  now: Date,
  language: LanguageCode,
): RowOfFields<typeof eventLogFields> {
  const kind = code.split('_')[0]!;
  const progressId = { streak: ID.streakProgress, challenge: ID.challengeProgress, mission: ID.missionProgress }[kind];
  const issued = code === 'reward_log_issued';
  const points = code === 'points_earned' || code === 'points_redeemed';
  // A tier change and an expiry warning are about the member.
  const member = code === 'tier_changed' || code === 'points_to_expire';
  return {
    id: ID.event,
    account_id: accountId,
    event_code: code,
    owned_by_id: memberId,
    linked_schema_slug: issued ? 'reward_log' : points ? 'point_entry' : member ? 'account_user' : `${kind}_progress`,
    linked_schema_record_id: issued ? ID.rewardLog : points ? ID.pointEntry : member ? ID.member : (progressId ?? null),
    payload: samplePayload(code, now, language),
    created_at: now,
    updated_at: now,
  };
}
