import type { EventCode } from '../events/codes.js';
import type { AccountInfo } from '../records/context.js';
import type { Row } from '../records/resource.js';

/**
 * Sample data for designing email templates (the `render` action): one realistic payload per event
 * code, shaped as the engine writes them (CONTRACT §9): log-driven codes carry `streakLog` /
 * `challengeLog` / `missionLog` (a log create response with the definition joined), sweep codes carry
 * `streakProgress` / `challengeProgress` / `missionProgress` with the definition and `nextMilestone`.
 * The story: a member on a weekly workout streak (3 workouts a week, milestones at 4, 8 and 12 weeks),
 * a monthly spending challenge (200 to spend, milestones at 100 and 150) and a three-task welcome
 * mission. Ids are fixed so previews are stable; times are relative to the preview's `now`.
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
  taskProgress: '5a3c1f0e-0000-4000-8000-000000000050',
};
const milestoneId = (n: number) => `5a3c1f0e-0000-4000-8000-0000000001${String(n).padStart(2, '0')}`;
const taskId = (n: number) => `5a3c1f0e-0000-4000-8000-0000000002${String(n).padStart(2, '0')}`;

type Json = Record<string, unknown>;
const DAY = 86_400_000;
const HOUR = 3_600_000;

/** The sample member, in the preview's language and the account's time zone. */
export function sampleMember(account: AccountInfo, languageCode: string): Row {
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
    created_at: created,
    updated_at: created,
  };
}

/** The member as payloads join it (`ownedBy`). */
function ownedBy(): Json {
  return {
    id: ID.member, externalId: 'customer-10452', firstName: 'Alex', lastName: 'Morgan', email: 'alex.morgan@example.com',
    phoneNumber: '+14155550123', timezone: null, languageCode: null, pushDeviceTokens: [], status: 'live',
    createdAt: '2026-01-15T09:30:00.000Z', updatedAt: '2026-01-15T09:30:00.000Z',
  };
}

function milestone(n: number, parent: 'streak' | 'challenge' | 'mission', parentId: string, target: number, title: string, rewardId: string | null): Json {
  return {
    id: milestoneId(n), linkedSchemaSlug: parent, linkedSchemaRecordId: parentId, name: title, description: `${title} milestone`,
    milestoneTargetValue: target, status: 'live', rewardId, eudTitle: title, eudDescription: null, eudIcon: null,
    eudMilestoneRewardTitle: rewardId ? '15% off your next order' : null, eudMilestoneRewardInstructionMessage: null,
    createdAt: '2026-01-10T08:00:00.000Z', updatedAt: '2026-01-10T08:00:00.000Z',
  };
}

const STREAK_MILESTONES = [
  milestone(1, 'streak', ID.streak, 4, '4-week streak', null),
  milestone(2, 'streak', ID.streak, 8, '8-week streak', ID.reward),
  milestone(3, 'streak', ID.streak, 12, '12-week streak', ID.reward),
];
const CHALLENGE_MILESTONES = [
  milestone(4, 'challenge', ID.challenge, 100, 'Halfway there', ID.reward),
  milestone(5, 'challenge', ID.challenge, 150, 'Almost there', null),
];
const MISSION_MILESTONES = [milestone(6, 'mission', ID.mission, 2, 'Two down', null)];

function streak(): Json {
  return {
    id: ID.streak, name: 'Weekly workouts', description: 'Work out three times a week', status: 'live',
    aggregationPeriod: 'weekly', aggregationMethod: 'count', aggregationTargetValue: 3, completionTargetValue: 12,
    toBeBrokenWarningHours: 24, eudTitle: 'Weekly workout streak', eudDescription: 'Work out three times every week.',
    eudIcon: null, eudMilestoneAchievedMessage: 'You reached a new streak milestone!', eudCompletedMessage: 'Twelve weeks in a row: streak complete!',
    milestones: STREAK_MILESTONES,
  };
}

function challenge(): Json {
  return {
    id: ID.challenge, name: 'Spend 200 this month', description: 'Monthly spending challenge', status: 'live',
    aggregationPeriod: 'monthly', aggregationMethod: 'sum', completionTargetValue: 200, startAt: null, endAt: null,
    toBeFailedWarningHours: 24, eudTitle: 'Spend 200 this month', eudDescription: 'Spend 200 in our store this month.',
    eudIcon: null, eudMilestoneAchievedMessage: 'You passed a challenge milestone!', eudCompletedMessage: 'Challenge complete!',
    milestones: CHALLENGE_MILESTONES,
  };
}

const TASKS = [
  { id: taskId(1), name: 'Complete your profile', activityId: 'profile_completed', aggregationMethod: 'count', targetValue: 1, eudTitle: 'Complete your profile', eudDescription: null },
  { id: taskId(2), name: 'Place your first order', activityId: 'order_placed', aggregationMethod: 'count', targetValue: 1, eudTitle: 'Place your first order', eudDescription: null },
  { id: taskId(3), name: 'Write a review', activityId: 'review_written', aggregationMethod: 'count', targetValue: 1, eudTitle: 'Write a review', eudDescription: null },
];

function mission(): Json {
  return {
    id: ID.mission, name: 'Welcome mission', description: 'Onboarding tasks for new members', status: 'live',
    aggregationPeriod: 'weekly', rewardId: ID.reward, isRepeatable: false, tasks: TASKS,
    eudTitle: 'Welcome mission', eudDescription: 'Three steps to get started.', eudIcon: null, eudCompletedMessage: 'Welcome aboard!',
    milestones: MISSION_MILESTONES,
  };
}

function rewardLog(now: Date, linked: { slug: string; id: string }, milestoneRow: Json | null, periodKey: string | null): Json {
  const expiry = new Date(now.getTime() + 30 * DAY).toISOString();
  return {
    id: ID.rewardLog, rewardId: ID.reward,
    reward: {
      id: ID.reward, name: '15% off', description: '15% off the next order', discountType: 'percentage', discountValue: 15,
      rewardExpiryType: 'relative', rewardExpiryInDays: 30, rewardExpiryAt: null, handleCoupon: true, handleCouponAutoGeneration: true,
      couponCodePrefix: 'FIT-', couponCodeLength: 8, eudTitle: '15% off your next order', eudRedeemInstructionMessage: null,
      createdAt: '2026-01-10T08:00:00.000Z', updatedAt: '2026-01-10T08:00:00.000Z',
    },
    milestoneId: (milestoneRow?.id as string | undefined) ?? null, milestone: milestoneRow,
    linkedSchemaSlug: linked.slug, linkedSchemaRecordId: linked.id, ownedById: ID.member, ownedBy: ownedBy(),
    couponCode: 'FIT-7K2QX9LM', rewardIssuedAt: now.toISOString(), rewardExpiryAt: expiry, periodKey, status: 'live',
    eudRewardTitle: '15% off your next order', eudRedeemInstructionMessage: 'Use the offer code at checkout.',
    createdAt: now.toISOString(), updatedAt: now.toISOString(),
  };
}

/** A log create response (CONTRACT §8) around the progress and the milestones of one log. */
function logResponse(kind: 'streak' | 'challenge' | 'mission', now: Date, parts: {
  definition: Json; progress: Json; taskProgress: unknown; achieved: Json[]; next: Json | null; rewardLogs: Json[]; missionReward?: Json | null;
  activityId: string; activityValue: number | null; periodKey: string | null;
}): Json {
  const logId = { streak: ID.streakLog, challenge: ID.challengeLog, mission: ID.missionLog }[kind];
  return {
    id: logId, [`${kind}Id`]: parts.definition.id, ownedById: ID.member, activityId: parts.activityId,
    activityAt: new Date(now.getTime() - 5 * 60_000).toISOString(), uniqueIdentifier: `order-${kind}-88412`,
    activityValue: parts.activityValue, status: 'live', isAggregated: true, periodKey: parts.periodKey,
    [kind]: parts.definition, ownedBy: ownedBy(), [`${kind}Progress`]: parts.progress, taskProgress: parts.taskProgress,
    achievedMilestone: parts.achieved.at(-1) ?? null, achievedMilestones: parts.achieved, nextMilestone: parts.next,
    achievedMilestoneRewardLog: parts.rewardLogs.at(-1) ?? null, achievedMilestoneRewardLogs: parts.rewardLogs,
    rewardLog: parts.missionReward ?? null,
  };
}

function streakPayload(code: EventCode, now: Date): Json {
  const weeks: Record<string, number> = {
    streak_progress_in_progress: 5, streak_progress_non_milestone_completed: 6, streak_progress_milestone_completed: 8,
    streak_progress_completed: 12, streak_progress_to_be_broken: 6, streak_progress_broken: 6,
  };
  const value = weeks[code]!;
  const week = '2026-W47';
  const status = code === 'streak_progress_completed' ? 'completed' : code === 'streak_progress_broken' ? 'broken' : 'in_progress';
  const periodDone = code !== 'streak_progress_in_progress' && code !== 'streak_progress_to_be_broken';
  const progress: Json = {
    id: ID.streakProgress, streakId: ID.streak, ownedById: ID.member, uniqueIdentifier: `${ID.streak}:${ID.member}`,
    streakProgressStatus: status, currentProgressValue: value,
    streakStartedAt: new Date(now.getTime() - (value * 7 + 2) * DAY).toISOString(),
    streakCompletedAt: status === 'completed' ? now.toISOString() : null,
    streakBrokenAt: status === 'broken' ? new Date(now.getTime() - HOUR).toISOString() : null,
    streakToBeBrokenAt: new Date(now.getTime() + (code === 'streak_progress_to_be_broken' ? 24 * HOUR : code === 'streak_progress_broken' ? -HOUR : 7 * DAY)).toISOString(),
    lastCompletedPeriodKey: week,
  };
  const taskProgress: Json = {
    id: ID.taskProgress, ownedById: ID.member, linkedSchemaSlug: 'streak_progress', linkedSchemaRecordId: ID.streakProgress,
    taskId: null, periodKey: week, currentProgressValue: periodDone ? 3 : 2, targetValue: 3,
    taskProgressStatus: periodDone ? 'completed' : 'in_progress', completedAt: periodDone ? now.toISOString() : null,
    createdAt: new Date(now.getTime() - 3 * DAY).toISOString(), updatedAt: now.toISOString(),
  };
  const next = STREAK_MILESTONES.find((m) => (m.milestoneTargetValue as number) > value) ?? null;
  if (code === 'streak_progress_to_be_broken' || code === 'streak_progress_broken') {
    return { streakProgress: { ...progress, taskProgress: code === 'streak_progress_to_be_broken' ? taskProgress : null, streak: { ...streak(), createdAt: '2026-01-10T08:00:00.000Z', updatedAt: '2026-01-10T08:00:00.000Z' }, nextMilestone: next } };
  }
  const achieved = STREAK_MILESTONES.filter((m) => m.milestoneTargetValue === value && (code === 'streak_progress_milestone_completed' || code === 'streak_progress_completed'));
  const rewardLogs = achieved.filter((m) => m.rewardId).map((m) => rewardLog(now, { slug: 'streak', id: ID.streak }, m, week));
  return {
    streakLog: logResponse('streak', now, {
      definition: streak(), progress, taskProgress, achieved, next, rewardLogs, activityId: 'workout', activityValue: null, periodKey: week,
    }),
  };
}

function challengePayload(code: EventCode, now: Date): Json {
  const totals: Record<string, number> = {
    challenge_progress_in_progress: 65, challenge_progress_milestone_completed: 115, challenge_progress_completed: 210,
    challenge_progress_to_be_failed: 115, challenge_progress_failed: 115,
  };
  const value = totals[code]!;
  const month = '2026-11';
  const status = code === 'challenge_progress_completed' ? 'completed' : code === 'challenge_progress_failed' ? 'failed' : 'in_progress';
  const windowEnd = new Date(now.getTime() + (code === 'challenge_progress_failed' ? -HOUR : code === 'challenge_progress_to_be_failed' ? 24 * HOUR : 9 * DAY)).toISOString();
  const progress: Json = {
    id: ID.challengeProgress, challengeId: ID.challenge, ownedById: ID.member, periodKey: month,
    challengeProgressStatus: status, currentProgressValue: value,
    challengeStartedAt: new Date(now.getTime() - 12 * DAY).toISOString(),
    challengeCompletedAt: status === 'completed' ? now.toISOString() : null,
    challengeFailedAt: status === 'failed' ? windowEnd : null,
    challengeToBeFailedAt: windowEnd,
  };
  const next = CHALLENGE_MILESTONES.find((m) => (m.milestoneTargetValue as number) > value) ?? null;
  if (code === 'challenge_progress_to_be_failed' || code === 'challenge_progress_failed') {
    return { challengeProgress: { ...progress, challenge: { ...challenge(), createdAt: '2026-01-10T08:00:00.000Z', updatedAt: '2026-01-10T08:00:00.000Z' }, nextMilestone: next } };
  }
  const spent = code === 'challenge_progress_completed' ? 95 : 50;
  const achieved = code === 'challenge_progress_in_progress' ? [] : CHALLENGE_MILESTONES.filter((m) => value - spent < (m.milestoneTargetValue as number) && (m.milestoneTargetValue as number) <= value);
  const rewardLogs = achieved.filter((m) => m.rewardId).map((m) => rewardLog(now, { slug: 'challenge', id: ID.challenge }, m, month));
  return {
    challengeLog: logResponse('challenge', now, {
      definition: challenge(), progress, taskProgress: null, achieved, next, rewardLogs, activityId: 'order_placed', activityValue: spent, periodKey: month,
    }),
  };
}

function missionPayload(code: EventCode, now: Date): Json {
  const tasksDone: Record<string, number> = {
    mission_progress_in_progress: 1, mission_progress_milestone_completed: 2, mission_progress_completed: 3, mission_progress_failed: 2,
  };
  const done = tasksDone[code]!;
  const status = code === 'mission_progress_completed' ? 'completed' : code === 'mission_progress_failed' ? 'failed' : 'in_progress';
  const start = new Date(now.getTime() - 3 * DAY);
  const taskProgresses = TASKS.map((t, i) => ({
    id: `5a3c1f0e-0000-4000-8000-0000000003${String(i).padStart(2, '0')}`, ownedById: ID.member, linkedSchemaSlug: 'mission_progress',
    linkedSchemaRecordId: ID.missionProgress, taskId: t.id, periodKey: null, currentProgressValue: i < done ? 1 : 0, targetValue: 1,
    taskProgressStatus: i < done ? 'completed' : 'in_progress', completedAt: i < done ? now.toISOString() : null,
    createdAt: start.toISOString(), updatedAt: now.toISOString(),
  }));
  const progress: Json = {
    id: ID.missionProgress, missionId: ID.mission, ownedById: ID.member, uniqueIdentifier: `${ID.mission}:${ID.member}`,
    missionProgressStatus: status, isMissionToBeFailedProcessed: status === 'failed', missionStartedAt: start.toISOString(),
    missionCompletedAt: status === 'completed' ? now.toISOString() : null,
    missionFailedAt: status === 'failed' ? new Date(start.getTime() + 7 * DAY).toISOString() : null,
    missionToBeFailedAt: new Date(start.getTime() + 7 * DAY).toISOString(), taskProgresses,
  };
  const next = MISSION_MILESTONES.find((m) => (m.milestoneTargetValue as number) > done) ?? null;
  if (code === 'mission_progress_failed') {
    return { missionProgress: { ...progress, mission: { ...mission(), createdAt: '2026-01-10T08:00:00.000Z', updatedAt: '2026-01-10T08:00:00.000Z' }, nextMilestone: next } };
  }
  const achieved = code === 'mission_progress_milestone_completed' ? MISSION_MILESTONES : [];
  return {
    missionLog: logResponse('mission', now, {
      definition: mission(), progress, taskProgress: [taskProgresses[done - 1]], achieved, next, rewardLogs: [],
      missionReward: code === 'mission_progress_completed' ? rewardLog(now, { slug: 'mission', id: ID.mission }, null, null) : null,
      activityId: TASKS[done - 1]!.activityId, activityValue: null, periodKey: null,
    }),
  };
}

export function samplePayload(code: EventCode, now: Date): Json {
  if (code.startsWith('streak_')) return streakPayload(code, now);
  if (code.startsWith('challenge_')) return challengePayload(code, now);
  return missionPayload(code, now);
}

/** A sample event_log row for a code, about the sample member. */
export function sampleEvent(accountId: string, memberId: string, code: EventCode, now: Date): Row {
  const kind = code.split('_')[0]!;
  const progressId = { streak: ID.streakProgress, challenge: ID.challengeProgress, mission: ID.missionProgress }[kind];
  return {
    id: ID.event, account_id: accountId, event_code: code, owned_by_id: memberId, linked_schema_slug: `${kind}_progress`,
    linked_schema_record_id: progressId, payload: samplePayload(code, now), created_at: now, updated_at: now,
  };
}
