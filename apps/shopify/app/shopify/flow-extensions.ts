/**
 * The Flow extensions the app ships, by handle: the one list of them, which the routes, the loop and
 * the admin's checklist read, and a test holds to the repository's extensions/ folder.
 */

/** Flow actions: Flow calls the app's /flow/<handle> route; each from its extensions/flow-<handle>/. */
export const FLOW_ACTION_HANDLES = [
  'execute-streak',
  'execute-challenge',
  'execute-mission',
  'grant-streak-freezes',
  'stamp-coupon',
  'adjust-points',
  'set-birthday',
] as const;

/** Flow triggers: the app sends them with flowTriggerReceive (app/loop/); each from its extensions/<handle>/. */
export const TRIGGER_HANDLES = [
  'loyalty-streak-milestone',
  'loyalty-streak-completed',
  'loyalty-streak-at-risk',
  'loyalty-streak-broken',
  'loyalty-streak-freeze-used',
  'loyalty-challenge-milestone',
  'loyalty-challenge-completed',
  'loyalty-mission-completed',
  'loyalty-reward-issued',
  'loyalty-points-earned',
  'loyalty-tier-changed',
  'loyalty-points-expiring',
  'loyalty-referral-gift-claimed',
] as const;
export type TriggerHandle = (typeof TRIGGER_HANDLES)[number];

export const isTriggerHandle = (value: string): value is TriggerHandle => TRIGGER_HANDLES.some((handle) => handle === value);
