/** The public faces of the records the widget and the customer account page read (CONTRACT §5, §6). */

export type Period = 'daily' | 'weekly' | 'monthly';
export type Alignment = 'bottom_right' | 'bottom_left' | 'top_right' | 'top_left';

export interface FloatingWidget {
  eudTitle: string | null;
  eudIcon: string | null;
  alignment: Alignment;
  alignmentPositionX: number;
  alignmentPositionY: number;
  backgroundColor: string;
  borderColor: string;
  textColor: string;
  borderWidth: number;
  borderRadius: number;
  boxShadow: string;
  fontSize: number;
}

export interface Theme {
  primaryColor: string;
  primaryContrastTextColor: string;
  secondaryColor: string;
  primaryTextColor: string;
  secondaryTextColor: string;
  backgroundColor: string;
  fontFamily: string;
  borderRadius: number;
}

export interface Template {
  loggedInTitle: string | null;
  loggedInSubTitle: string | null;
  loggedOutTitle: string | null;
  loggedOutSubTitle: string | null;
  signUpButtonText: string | null;
  signUpUrl: string | null;
  logInButtonText: string | null;
  logInUrl: string | null;
  copiedMessage: string | null;
  streaksTabTitle: string | null;
  challengesTabTitle: string | null;
  missionsTabTitle: string | null;
  rewardsTabTitle: string | null;
}

/** A milestone's reward as definitions nest it: its public fields only. */
export interface MilestoneReward {
  /** Optional: cores before points (CONTRACT §19) leave it out, and every reward was a code. */
  rewardKind?: 'code' | 'points';
  discountType: 'percentage' | 'fixed_amount' | null;
  discountValue: number | null;
  /** The points a reward of kind points earns. */
  pointsValue?: number | null;
  eudTitle: string | null;
}

export interface Milestone {
  id: string;
  milestoneTargetValue: number;
  eudTitle: string | null;
  eudDescription: string | null;
  /** The merchant's name for what this milestone earns, before the reward's own. */
  eudMilestoneRewardTitle?: string | null;
  /** Optional: the customer account page's fixtures and older cores leave it out. */
  reward?: MilestoneReward | null;
}

export interface Task {
  id: string;
  targetValue: number;
  eudTitle: string | null;
  eudDescription: string | null;
}

export interface Definition {
  id: string;
  eudTitle: string | null;
  eudDescription: string | null;
  eudIcon: string | null;
  eudCompletedMessage: string | null;
  aggregationPeriod: Period;
  /** Streaks: the total that completes one period. */
  aggregationTargetValue?: number;
  /** Streaks: freezes a member may hold; 0 turns freezes off. */
  maxFreezes?: number;
  completionTargetValue: number | null;
  tasks?: Task[];
  milestones: Milestone[];
}

export interface TaskProgress {
  taskId: string | null;
  periodKey: string | null;
  currentProgressValue: number;
  targetValue: number;
  taskProgressStatus: 'in_progress' | 'completed';
}

export interface StreakProgress {
  streakId: string;
  streakProgressStatus: 'in_progress' | 'completed' | 'broken';
  currentProgressValue: number;
  streakToBeBrokenAt: string | null;
  freezesAvailable: number;
  /** Periods a freeze covered, ascending. */
  frozenPeriodKeys: string[];
  taskProgress: TaskProgress | null;
}

export interface ChallengeProgress {
  challengeId: string;
  challengeProgressStatus: 'in_progress' | 'completed' | 'failed';
  currentProgressValue: number;
  challengeToBeFailedAt: string | null;
}

export interface MissionProgress {
  missionId: string;
  missionProgressStatus: 'in_progress' | 'completed' | 'failed';
  missionToBeFailedAt: string | null;
  taskProgresses: TaskProgress[];
}

/** A live leaderboard (CONTRACT §15), public fields. */
export interface Leaderboard {
  id: string;
  linkedSchemaSlug: 'streak' | 'challenge' | 'mission' | 'points_setting';
  linkedSchemaRecordId: string;
  eudTitle: string | null;
  eudDescription: string | null;
}

export interface Standings {
  entries: { rank: number; value: number; displayName: string; isCaller: boolean }[];
  /** The member's own standing, also when outside the entries; null for guests and unranked members. */
  caller: { rank: number; value: number } | null;
  rankedCount: number;
}

export interface RewardLog {
  id: string;
  /** pending: held until confirmAt, no code yet; revoked: a refund or cancellation took it back (CONTRACT §17). */
  rewardLogStatus: 'pending' | 'issued' | 'revoked';
  confirmAt: string | null;
  couponCode: string | null;
  rewardIssuedAt: string | null;
  /** When the code stops working; null: it does not expire. */
  rewardExpiryAt: string | null;
  eudRewardTitle: string | null;
  eudRedeemInstructionMessage: string | null;
  /** The reward it issued, nested (its public fields): one of kind `points` gave points, not a code. */
  reward?: Pick<MilestoneReward, 'rewardKind'> | null;
}

/** The points program's public fields, which the storefront reads only while it is live (CONTRACT §19). */
export interface PointsSetting {
  id: string;
  /** What the merchant calls points in the read's language; null: the interface's own word. */
  eudCurrencyName: string | null;
  /** What one point is called; null: eudCurrencyName for every amount. */
  eudCurrencyNameOne?: string | null;
  pointsPerCurrencyUnit: number;
  pointsPerOrder: number;
  pointsOnSignUp: number;
  /** Points once for subscribing to the shop's e-mail marketing. */
  pointsOnNewsletter: number;
  /** Points once a year on the member's birthday. */
  pointsOnBirthday: number;
  /** Points once per social profile of the shop the member follows (`follows`); absent or 0: none. */
  pointsOnFollow?: number;
  instagramUrl?: string | null;
  tiktokUrl?: string | null;
  facebookUrl?: string | null;
  youtubeUrl?: string | null;
  xUrl?: string | null;
  pinterestUrl?: string | null;
  /** Points for a member whose referral link brought a new customer, once that friend's first order is paid. */
  pointsOnReferral: number;
  /** Points for the referred friend on that first order, beside what the order itself earns. */
  pointsOnReferredOrder: number;
  /** The reward a referred friend claims for their first order; null or absent: none. */
  referralRewardId?: string | null;
  /** Months without an entry after which a member's points expire; 0: never. */
  expiryMonthsOfInactivity: number;
  /** A bonus points event: orders placed from `bonusStartsAt` until `bonusEndsAt` earn times `bonusMultiplier`; absent or 1: none. */
  bonusMultiplier?: number;
  bonusStartsAt?: string | null;
  bonusEndsAt?: string | null;
}

/** A live reward with a points cost: what a member may redeem. */
export interface Reward {
  id: string;
  rewardKind: 'code' | 'points';
  discountType: 'percentage' | 'fixed_amount' | null;
  discountValue: number | null;
  pointsValue: number | null;
  pointsCost: number;
  eudTitle: string | null;
  eudRedeemInstructionMessage: string | null;
}

/** A live tier: members whose points earned in the tier window reach its threshold are in it. */
export interface Tier {
  id: string;
  pointsThreshold: number;
  earnMultiplier: number;
  eudTitle: string | null;
  eudDescription: string | null;
  eudIcon: string | null;
}

/** The member's own record (`account_user/me`): their balance and tier. */
export interface Member {
  id: string;
  pointsBalance: number;
  pointsEarnedInTierWindow: number;
  tierId: string | null;
  /** When the member's newest point entry was made; null before their first. */
  lastPointEntryAt: string | null;
  /** MM-DD; null until the member (once) or the shop sets it. */
  birthday: string | null;
  /** The member's own referral code, which their referral link carries (`referralLink`). */
  referralCode: string;
  /** The networks whose profile of the shop the member has followed for points, each once. */
  socialFollows?: string[];
  /** Only a live member earns and redeems: the shop may pause one (the Shopify app's customers left out by tag). */
  status?: 'draft' | 'live' | 'paused';
}

/** One of the member's own point entries (CONTRACT §19): a redemption's links the reward log it made. */
export interface PointEntry {
  id: string;
  points: number;
  reason: 'earned' | 'redeemed' | 'reversed' | 'expired' | 'adjusted';
  uniqueIdentifier: string | null;
  linkedSchemaSlug: string | null;
  linkedSchemaRecordId: string | null;
  /** The shop's note (an adjustment's reason; the order's name on an order's entry). */
  note: string | null;
  createdAt: string;
}

/** What a redemption answers: the reward log it issued and the balance after it. */
export interface Redemption {
  rewardLog: RewardLog;
  pointsBalance: number;
}
