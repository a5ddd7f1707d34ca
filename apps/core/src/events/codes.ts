/**
 * The spec's eleven event codes plus the mission, streak freeze and reversal codes the contract adds
 * (CONTRACT §9, §14, §17), `reward_log_issued`: a held reward log's code issued by the scheduler (or a
 * tier's entry reward, or a reward a reversal's recompute reaches anew), and the points and tier codes (§19).
 */
export const EVENT_CODES = [
  'streak_progress_broken',
  'streak_progress_to_be_broken',
  'streak_progress_completed',
  'streak_progress_milestone_completed',
  'streak_progress_non_milestone_completed',
  'streak_progress_in_progress',
  'challenge_progress_failed',
  'challenge_progress_to_be_failed',
  'challenge_progress_completed',
  'challenge_progress_milestone_completed',
  'challenge_progress_in_progress',
  'mission_progress_in_progress',
  'mission_progress_milestone_completed',
  'mission_progress_completed',
  'mission_progress_failed',
  'streak_progress_freeze_used',
  'streak_progress_freeze_earned',
  'streak_progress_reversed',
  'challenge_progress_reversed',
  'mission_progress_reversed',
  'reward_log_issued',
  'points_earned',
  'points_redeemed',
  'points_to_expire',
  'tier_changed',
] as const;
export type EventCode = (typeof EVENT_CODES)[number];
