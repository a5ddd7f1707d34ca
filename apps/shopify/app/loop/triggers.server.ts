import { rewardEndsAt } from '../shopify/reward-issuing';
import { isJsonObject, type JsonObject, objectOf } from '../json';
import type { TriggerHandle } from '../shopify/flow-extensions';

/**
 * How one core event (of those the app subscribes to, core/event-subscription.server.ts) becomes the
 * payloads of `flowTriggerReceive` (CONTRACT §16). Each handle's `flow_trigger` extension,
 * extensions/<handle>/shopify.extension.toml, declares the same field keys.
 */

/** One trigger to send: `subject` tells apart several triggers of one handle from one event (reward logs). */
export interface TriggerSend {
  handle: TriggerHandle;
  subject: string;
  fields: JsonObject;
}

/** A reward log issued by an event, as the core serialises it (with its reward joined). */
export interface IssuedRewardLog {
  id: string;
  rewardId: string;
  /** CONTRACT §17: a held reward log is `pending` until the scheduler issues it; a reversal may revoke it. */
  status: 'pending' | 'issued' | 'revoked';
  couponCode: string | null;
  rewardExpiryAt: string | null;
  rewardIssuedAt?: string | null;
  /** When a held reward log is (or was) issued. */
  confirmAt?: string | null;
  createdAt?: string;
  reward: {
    name?: string | null;
    eudTitle?: string | null;
    discountType?: string | null;
    discountValue?: number | null;
    rewardExpiryType?: string | null;
    rewardExpiryInDays?: number | null;
    rewardExpiryAt?: string | null;
  } | null;
  eudRewardTitle?: string | null;
  /** The merchant gave the reward or its milestone a title for shoppers; without one `eudRewardTitle` is the core's generic "Your reward". */
  titled?: boolean;
}

const textOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const numberOrNull = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() && Number.isFinite(Number(v)) ? Number(v) : null;

/** A reward log as the core serialises it (in an event's payload, or read as a record), read field by field; null if it is none. */
export function issuedRewardLog(value: unknown): IssuedRewardLog | null {
  if (!isJsonObject(value) || typeof value.id !== 'string' || typeof value.rewardId !== 'string') return null;
  const reward = isJsonObject(value.reward) ? value.reward : null;
  return {
    id: value.id,
    rewardId: value.rewardId,
    // Reward logs from before holds existed carry no status: they are issued.
    status: value.rewardLogStatus === 'pending' || value.rewardLogStatus === 'revoked' ? value.rewardLogStatus : 'issued',
    couponCode: textOrNull(value.couponCode),
    rewardExpiryAt: textOrNull(value.rewardExpiryAt),
    rewardIssuedAt: textOrNull(value.rewardIssuedAt),
    confirmAt: textOrNull(value.confirmAt),
    ...(typeof value.createdAt === 'string' ? { createdAt: value.createdAt } : {}),
    reward: reward && {
      name: textOrNull(reward.name),
      eudTitle: textOrNull(reward.eudTitle),
      discountType: textOrNull(reward.discountType),
      discountValue: numberOrNull(reward.discountValue),
      rewardExpiryType: textOrNull(reward.rewardExpiryType),
      rewardExpiryInDays: numberOrNull(reward.rewardExpiryInDays),
      rewardExpiryAt: textOrNull(reward.rewardExpiryAt),
    },
    eudRewardTitle: textOrNull(value.eudRewardTitle),
    titled: [objectOf(value.milestone).eudMilestoneRewardTitle, reward?.eudTitle].some(
      (title) => (typeof title === 'string' && title.trim() !== '') || isJsonObject(title),
    ),
  };
}

// Flow's payload limit is 50 KB; every text field is capped so that even a mission with twenty
// long-named tasks stays far below it (only counts and names are sent, never the task list).
const MAX_TEXT = 255;
export const MAX_PAYLOAD_BYTES = 50_000;

const text = (v: unknown): string => (typeof v === 'string' ? v.slice(0, MAX_TEXT) : typeof v === 'number' ? String(v) : '');
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

function milestoneFields(log: JsonObject): JsonObject {
  const achieved = objectOf(log.achievedMilestone);
  return { milestone_name: text(achieved.name), milestone_target: num(achieved.milestoneTargetValue) };
}

/**
 * What Points earned says the points came from, by the links the app and the core write on an
 * entry, so a workflow can answer one of them ("birthday": send a birthday e-mail).
 */
const EARNED_FROM: Readonly<Record<string, string>> = {
  shopify_order: 'order',
  shopify_customer: 'sign_up',
  shopify_newsletter: 'newsletter',
  birthday: 'birthday',
  social_follow: 'social_follow',
  shopify_referral: 'referral',
  shopify_referred_order: 'referred',
  reward_log: 'reward',
};

/**
 * The reward logs an event issued: a milestone's or completion's own (the milestones' and, for a
 * mission, the definition's) unless held, and a held one when the scheduler issues it
 * (`reward_log_issued`). A pending reward log has no code yet and may still be revoked, so nothing
 * acts on it (CONTRACT §17).
 */
export function issuedRewardLogs(eventCode: string, payload: JsonObject): IssuedRewardLog[] {
  // A held reward log issued by the scheduler, or a reward bought with points (CONTRACT §19 redeem).
  if (eventCode === 'reward_log_issued' || eventCode === 'points_redeemed') {
    const issued = issuedRewardLog(payload.rewardLog);
    return issued?.status === 'issued' ? [issued] : [];
  }
  const log = objectOf(payload.streakLog ?? payload.challengeLog ?? payload.missionLog);
  if (!Object.keys(log).length || !/_(milestone_)?completed$/.test(eventCode)) return [];
  const list = [...(Array.isArray(log.achievedMilestoneRewardLogs) ? log.achievedMilestoneRewardLogs : []), log.rewardLog].flatMap(
    (r) => issuedRewardLog(r) ?? [],
  );
  return [...new Map(list.filter((r) => r.status === 'issued').map((r) => [r.id, r])).values()];
}

/** The reward logs a reversal revoked (`*_progress_reversed`), whose Shopify discounts must not stay usable. */
export function revokedRewardLogIds(eventCode: string, payload: JsonObject): string[] {
  if (!eventCode.endsWith('_progress_reversed') || !Array.isArray(payload.revokedRewardLogs)) return [];
  return payload.revokedRewardLogs.flatMap((r) => issuedRewardLog(r)?.id ?? []);
}

/**
 * When the reward log expires: as the core has it, else by the reward's rule from the issue time —
 * the core sets it only when a code is stamped, and the discount must end at the same moment. An
 * unstamped log counts from when it was issued (a held one from its confirmation, CONTRACT §17),
 * so every caller (the discount, its stamp, the trigger) gets the same instant.
 */
export function rewardExpiry(log: IssuedRewardLog): string | null {
  if (log.rewardExpiryAt) return log.rewardExpiryAt;
  return rewardEndsAt(log.reward ?? {}, Date.parse(log.rewardIssuedAt ?? log.confirmAt ?? log.createdAt ?? '') || Date.now());
}

/** The Reward issued trigger's fields for a reward log, with the code it was issued with. */
export function rewardIssuedFields(rewardLog: IssuedRewardLog, couponCode: string | null): JsonObject {
  const reward = rewardLog.reward ?? {};
  return {
    reward_log_id: rewardLog.id,
    // The merchant's name for a reward they gave shoppers no title for says more than "Your reward".
    reward_title: text(rewardLog.titled ? (rewardLog.eudRewardTitle ?? reward.eudTitle) : (reward.name ?? rewardLog.eudRewardTitle)),
    discount_type: text(reward.discountType),
    discount_value: num(reward.discountValue),
    coupon_code: text(couponCode),
    expires_at: text(rewardExpiry(rewardLog)),
  };
}

/**
 * The triggers one core event fires, without the customer (added when sent). A log-driven code reads
 * its log (`streakLog` …), a scheduler-driven one its progress; the Reward issued trigger of a reward
 * log that the app issues as a Shopify discount is sent by the discount job, once the code exists.
 */
export function triggersFor(eventCode: string, payload: JsonObject, shopifyDiscountRewards: ReadonlySet<string>): TriggerSend[] {
  const sends: TriggerSend[] = [];
  const add = (handle: TriggerHandle, fields: JsonObject, subject = '') => sends.push({ handle, subject, fields });
  const streakLog = objectOf(payload.streakLog);
  const challengeLog = objectOf(payload.challengeLog);
  const missionLog = objectOf(payload.missionLog);
  const streakProgress = objectOf(payload.streakProgress);
  const streakOf = (progress: JsonObject, fallback: unknown) => objectOf(progress.streak ?? fallback);
  switch (eventCode) {
    case 'streak_progress_milestone_completed':
    case 'streak_progress_completed': {
      const streak = objectOf(streakLog.streak);
      const progress = objectOf(streakLog.streakProgress);
      const common = {
        streak_id: text(streak.id ?? streakLog.streakId),
        streak_name: text(streak.name),
        current_run: num(progress.currentProgressValue),
      };
      if (eventCode === 'streak_progress_completed') add('loyalty-streak-completed', common);
      else add('loyalty-streak-milestone', { ...common, ...milestoneFields(streakLog) });
      break;
    }
    case 'streak_progress_to_be_broken': {
      const streak = streakOf(streakProgress, payload.streak);
      add('loyalty-streak-at-risk', {
        streak_id: text(streak.id ?? streakProgress.streakId),
        streak_name: text(streak.name),
        current_run: num(streakProgress.currentProgressValue),
        breaks_at: text(streakProgress.streakToBeBrokenAt),
        freezes_available: num(payload.freezesAvailable ?? streakProgress.freezesAvailable),
      });
      break;
    }
    case 'streak_progress_broken': {
      const streak = streakOf(streakProgress, payload.streak);
      add('loyalty-streak-broken', {
        streak_id: text(streak.id ?? streakProgress.streakId),
        streak_name: text(streak.name),
        run_lost: num(streakProgress.currentProgressValue),
      });
      break;
    }
    case 'streak_progress_freeze_used': {
      const streak = streakOf(streakProgress, payload.streak);
      add('loyalty-streak-freeze-used', {
        streak_id: text(streak.id ?? streakProgress.streakId),
        streak_name: text(streak.name),
        frozen_period: text(payload.frozenPeriodKey),
        freezes_available: num(streakProgress.freezesAvailable),
      });
      break;
    }
    case 'challenge_progress_milestone_completed':
    case 'challenge_progress_completed': {
      const challenge = objectOf(challengeLog.challenge);
      const progress = objectOf(challengeLog.challengeProgress);
      const common = {
        challenge_id: text(challenge.id ?? challengeLog.challengeId),
        challenge_name: text(challenge.name),
        progress: num(progress.currentProgressValue),
      };
      if (eventCode === 'challenge_progress_completed')
        add('loyalty-challenge-completed', { ...common, period_key: text(progress.periodKey) });
      else add('loyalty-challenge-milestone', { ...common, ...milestoneFields(challengeLog) });
      break;
    }
    case 'points_earned': {
      const entry = objectOf(payload.pointEntry);
      add('loyalty-points-earned', {
        points: num(entry.points),
        points_balance: num(objectOf(payload.member).pointsBalance),
        note: text(entry.note),
        source: EARNED_FROM[text(entry.linkedSchemaSlug)] ?? 'other',
      });
      break;
    }
    case 'tier_changed': {
      const before = objectOf(payload.tierBefore);
      const after = objectOf(payload.tierAfter);
      const threshold = (tier: JsonObject) => num(tier.pointsThreshold ?? -1);
      add('loyalty-tier-changed', {
        tier: text(after.name),
        previous_tier: text(before.name),
        upgraded: threshold(after) > threshold(before),
        points_in_window: num(objectOf(payload.member).pointsEarnedInTierWindow),
      });
      break;
    }
    case 'points_to_expire':
      add('loyalty-points-expiring', {
        expiring_points: num(payload.expiringPoints),
        expires_at: text(payload.expiresAt),
        points_balance: num(objectOf(payload.member).pointsBalance),
      });
      break;
    case 'mission_progress_completed': {
      // The scheduler's completion of a run an edit left with every task reached carries the progress, not a log.
      const mission = objectOf(missionLog.mission ?? objectOf(payload.missionProgress).mission);
      const tasks = Array.isArray(mission.tasks) ? mission.tasks.length : 0;
      add('loyalty-mission-completed', {
        mission_id: text(mission.id ?? missionLog.missionId),
        mission_name: text(mission.name),
        tasks_completed: tasks,
      });
      break;
    }
  }
  for (const rewardLog of issuedRewardLogs(eventCode, payload)) {
    // The discount job sends it once Shopify's code exists; a log the core gave a code is sent now.
    if (shopifyDiscountRewards.has(rewardLog.rewardId) && !rewardLog.couponCode) continue;
    add('loyalty-reward-issued', rewardIssuedFields(rewardLog, rewardLog.couponCode), rewardLog.id);
  }
  return sends;
}

/** The `flowTriggerReceive` payload: the customer reference plus the trigger's fields, within Flow's size limit. */
export function triggerPayload(customerId: number, fields: JsonObject): JsonObject {
  const payload = { customer_id: customerId, ...fields };
  if (Buffer.byteLength(JSON.stringify(payload)) > MAX_PAYLOAD_BYTES) throw new Error('trigger payload over the 50 KB limit');
  return payload;
}
