import type { Messages } from '../i18n';

/** An event a notification rule can be sent on (CONTRACT §9); each has a name and a sentence in i18n `editors.events`. */
export type EventCode = keyof Messages['editors']['events'];

/** The events by the part of the program they concern, in the order a merchant meets them. */
export const EVENT_GROUPS: { key: keyof Messages['editors']['rule']['events']['groups']; codes: EventCode[] }[] = [
  {
    key: 'streak',
    codes: [
      'streak_progress_in_progress',
      'streak_progress_non_milestone_completed',
      'streak_progress_milestone_completed',
      'streak_progress_completed',
      'streak_progress_to_be_broken',
      'streak_progress_broken',
      'streak_progress_freeze_earned',
      'streak_progress_freeze_used',
      'streak_progress_reversed',
    ],
  },
  {
    key: 'challenge',
    codes: [
      'challenge_progress_in_progress',
      'challenge_progress_milestone_completed',
      'challenge_progress_completed',
      'challenge_progress_to_be_failed',
      'challenge_progress_failed',
      'challenge_progress_reversed',
    ],
  },
  {
    key: 'mission',
    codes: [
      'mission_progress_in_progress',
      'mission_progress_milestone_completed',
      'mission_progress_completed',
      'mission_progress_failed',
      'mission_progress_reversed',
    ],
  },
  { key: 'reward', codes: ['reward_log_issued'] },
  { key: 'points', codes: ['points_earned', 'points_redeemed', 'points_to_expire', 'tier_changed'] },
];

export const EVENT_CODES: EventCode[] = EVENT_GROUPS.flatMap((g) => g.codes);

export const isEventCode = (value: unknown): value is EventCode => typeof value === 'string' && (EVENT_CODES as string[]).includes(value);
