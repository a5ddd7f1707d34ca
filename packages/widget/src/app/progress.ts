import type { ChallengeProgress, Definition, Milestone, MissionProgress, Period, StreakProgress } from './model.js';

const DAY_MS = 86_400_000;

/**
 * Start of the period that ends at `end`. Calendar periods in the member's time zone are not
 * known here; a DST change makes this off by at most an hour, enough to tell which period `now`
 * falls in.
 */
function periodStart(end: number, period: Period): number {
  if (period === 'daily') return end - DAY_MS;
  if (period === 'weekly') return end - 7 * DAY_MS;
  const d = new Date(end);
  d.setUTCMonth(d.getUTCMonth() - 1);
  return d.getTime();
}

export interface StreakView {
  /** Consecutive completed periods, 0 once the run has lapsed. */
  length: number;
  /** Progress within the current period. */
  value: number;
  target: number;
  completed: boolean;
}

/** The member's run on a streak as of `now`, from its latest in-progress or completed progress. */
export function streakView(def: Definition, progress: StreakProgress | undefined, now: number): StreakView {
  const target = def.aggregationTargetValue ?? 1;
  if (!progress) return { length: 0, value: 0, target, completed: false };
  if (progress.streakProgressStatus === 'completed') return { length: progress.currentProgressValue, value: target, target, completed: true };
  const deadline = progress.streakToBeBrokenAt ? Date.parse(progress.streakToBeBrokenAt) : Number.POSITIVE_INFINITY;
  // Past its deadline the run is lost, even before the scheduler's sweep marks it broken.
  if (deadline <= now) return { length: 0, value: 0, target, completed: false };
  const task = progress.taskProgress;
  const length = progress.currentProgressValue;
  if (!task) return { length, value: 0, target, completed: false };
  // An unfinished period is the one the deadline closes: the current one.
  if (task.taskProgressStatus !== 'completed') return { length, value: task.currentProgressValue, target: task.targetValue, completed: false };
  // The latest period is done: now is either still in it, or in the next one, which ends at the deadline.
  const inNext = now >= periodStart(deadline, def.aggregationPeriod);
  return { length, value: inNext ? 0 : task.currentProgressValue, target: task.targetValue, completed: false };
}

/** The progress of the challenge's current window, if the member has one. */
export function currentChallenge(def: Definition, progresses: ChallengeProgress[], now: number): ChallengeProgress | undefined {
  return progresses.find(
    (p) => p.challengeId === def.id && p.challengeProgressStatus !== 'failed' && (!p.challengeToBeFailedAt || Date.parse(p.challengeToBeFailedAt) > now),
  );
}

/** The member's latest mission progress that still counts: completed, or in progress within its window. */
export function currentMission(def: Definition, progresses: MissionProgress[], now: number): MissionProgress | undefined {
  return progresses.find(
    (p) =>
      p.missionId === def.id &&
      (p.missionProgressStatus === 'completed' || !p.missionToBeFailedAt || Date.parse(p.missionToBeFailedAt) > now),
  );
}

/** The first milestone not yet reached at `value`; milestones arrive in ascending target order. */
export const nextMilestone = (milestones: Milestone[], value: number): Milestone | undefined => milestones.find((m) => m.milestoneTargetValue > value);
