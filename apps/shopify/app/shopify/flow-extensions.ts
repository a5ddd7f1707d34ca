/**
 * The Flow extensions the app ships, by handle, with the name each extension gives itself: the one
 * list of them, which the routes, the loop and the admin's checklist read, and a test holds to the
 * repository's extensions/ folder. Flow shows these names as they are, in every admin language.
 */

/** Flow actions: Flow calls the app's /flow/<handle> route; each from its extensions/flow-<handle>/. */
export const FLOW_ACTIONS = {
  'execute-streak': 'Execute streak',
  'execute-challenge': 'Execute challenge',
  'execute-mission': 'Execute mission',
  'grant-streak-freezes': 'Grant streak freezes',
  'stamp-coupon': 'Stamp coupon',
  'adjust-points': 'Adjust points',
  'set-birthday': 'Set birthday',
} as const;
export const FLOW_ACTION_HANDLES = Object.keys(FLOW_ACTIONS) as (keyof typeof FLOW_ACTIONS)[];

/** Flow triggers: the app sends them with flowTriggerReceive (app/loop/); each from its extensions/<handle>/. */
export const TRIGGERS = {
  'loyalty-streak-milestone': 'Streak milestone reached',
  'loyalty-streak-completed': 'Streak completed',
  'loyalty-streak-at-risk': 'Streak at risk',
  'loyalty-streak-broken': 'Streak broken',
  'loyalty-streak-freeze-used': 'Streak freeze used',
  'loyalty-challenge-milestone': 'Challenge milestone reached',
  'loyalty-challenge-completed': 'Challenge completed',
  'loyalty-mission-completed': 'Mission completed',
  'loyalty-reward-issued': 'Reward issued',
  'loyalty-points-earned': 'Points earned',
  'loyalty-tier-changed': 'Tier changed',
  'loyalty-points-expiring': 'Points expiring',
  'loyalty-referral-gift-claimed': 'Referral gift claimed',
} as const;
export type TriggerHandle = keyof typeof TRIGGERS;
export const TRIGGER_HANDLES = Object.keys(TRIGGERS) as TriggerHandle[];

export const isTriggerHandle = (value: string): value is TriggerHandle => TRIGGER_HANDLES.some((handle) => handle === value);
