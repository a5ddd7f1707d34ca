import { z } from 'zod';
import { field } from '../records/fields.js';
import type { RowOfFields } from '../records/row-types.js';
import { description, eudIcon, eudText, eudTitle, name } from './common.js';
import { POINTS_MAX } from './rewards.js';

/** The social networks whose profile of the shop a member may follow for points (`pointsOnFollow`). */
export const SOCIAL_NETWORKS = ['instagram', 'tiktok', 'facebook', 'youtube', 'x', 'pinterest'] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];

/** Where each network's profiles are: a profile URL on another host is refused, so a typo never sends shoppers elsewhere. */
export const SOCIAL_HOSTS: Readonly<Record<SocialNetwork, RegExp>> = {
  instagram: /^(www\.)?instagram\.com$/,
  tiktok: /^(www\.)?tiktok\.com$/,
  facebook: /^(www\.|m\.)?(facebook\.com|fb\.com)$/,
  youtube: /^(www\.|m\.)?youtube\.com$/,
  x: /^(www\.)?(x\.com|twitter\.com)$/,
  pinterest: /^([a-z]{2,3}\.|www\.)?pinterest\.(com|[a-z]{2}|co\.[a-z]{2}|com\.[a-z]{2})$/,
};

/** The profile field of a network (`instagramUrl`), as points_setting names it. */
export const profileField = (network: SocialNetwork) => `${network}Url` as const;

function socialProfileFields() {
  const profile = (network: SocialNetwork, label: string) =>
    field.url({
      max: 512,
      httpsOnly: true,
      public: true,
      description: `The shop's ${label} profile (https, on ${label}'s own host); set, with pointsOnFollow, a member can follow it for points.`,
    });
  return {
    instagramUrl: profile('instagram', 'Instagram'),
    tiktokUrl: profile('tiktok', 'TikTok'),
    facebookUrl: profile('facebook', 'Facebook'),
    youtubeUrl: profile('youtube', 'YouTube'),
    xUrl: profile('x', 'X'),
    pinterestUrl: profile('pinterest', 'Pinterest'),
  };
}

/** An earning rate: whole points, 0 (the default) earning none, which end users read to show the ways to earn. */
const earningRate = (description: string) =>
  field.integer({ min: 0, max: POINTS_MAX, default: 0, required: true, public: true, description });

export const pointsSettingFields = {
  status: field.status({
    default: 'draft',
    required: true,
    public: true,
    description: 'draft until the merchant turns points on; while not live nothing earns and nothing can be redeemed for points.',
  }),
  eudCurrencyName: field.string({ max: 48, localisable: true, public: true, description: 'What members call points, e.g. "Stars".' }),
  eudCurrencyNameOne: field.string({
    max: 48,
    localisable: true,
    public: true,
    description:
      'What members call one point, e.g. "Star", where the language says one point apart from others; unset: eudCurrencyName for every amount.',
  }),
  expiryMonthsOfInactivity: field.integer({
    min: 0,
    max: 60,
    default: 0,
    required: true,
    public: true,
    description: 'Points expire after this many months without an entry; 0: never.',
  }),
  tierWindowMonths: field.integer({
    min: 0,
    max: 36,
    default: 12,
    required: true,
    public: true,
    description: 'The months pointsEarnedInTierWindow looks back; 0: lifetime.',
  }),
  pointsPerCurrencyUnit: field.number({
    min: 0,
    max: 10_000,
    default: 0,
    required: true,
    public: true,
    description:
      'Points per unit of the shop’s currency a paid order’s products cost (the Shopify app earns them; refunds take their share back).',
  }),
  pointsPerOrder: earningRate('Points per paid order.'),
  pointsOnSignUp: earningRate('Points once, when a customer creates an account.'),
  pointsOnNewsletter: earningRate(
    'Points once, when a customer subscribes to the shop’s e-mail marketing (the Shopify app earns them; unsubscribing keeps them).',
  ),
  pointsOnBirthday: earningRate(
    'Points once a year on a member’s birthday (account_user.birthday), in their time zone; the daily pass gives them.',
  ),
  pointsOnReferral: earningRate(
    'Points for a member whose referral link (account_user.referralCode) brought a new customer, when that customer’s first order is paid (the Shopify app earns them; the order refunded in full or cancelled takes them back).',
  ),
  pointsOnReferredOrder: earningRate('Points for the referred customer on that first order, beside what the order itself earns.'),
  bonusMultiplier: field.number({
    min: 1,
    max: 10,
    default: 1,
    required: true,
    public: true,
    description:
      'A bonus points event (an addition to CONTRACT §19): orders paid from bonusStartsAt until bonusEndsAt earn their points per unit spent and per order times this (rounded down; the Shopify app earns them), one decimal at most; 1: no event. Above 1, both times are required.',
  }),
  bonusStartsAt: field.datetime({
    public: true,
    description: 'When the bonus points event starts (required while bonusMultiplier is above 1).',
  }),
  bonusEndsAt: field.datetime({ public: true, description: 'When the bonus points event ends, after bonusStartsAt.' }),
  pointsOnFollow: earningRate(
    'Points once per social profile of the shop a member follows (the profiles below that are set), claimed through POST /schema/points_setting/record/{id}/action/follow.',
  ),
  ...socialProfileFields(),
  referralRewardId: field.uuid({
    references: 'reward',
    public: true,
    description:
      'The gift a referred friend claims with their e-mail before their first order (the Shopify app issues it as a one-time discount code); none: the friend gets pointsOnReferredOrder only.',
  }),
};

export const POINT_REASONS = ['earned', 'redeemed', 'reversed', 'expired', 'adjusted'] as const;
export type PointReason = (typeof POINT_REASONS)[number];
/** The reasons an API key may write; the others are the service's own. */
export const CLIENT_REASONS: readonly PointReason[] = ['earned', 'adjusted'];

export const pointEntryFields = {
  ownedById: field.uuid({ required: true, references: 'account_user', description: 'The member whose balance the entry changes.' }),
  points: {
    ...field.integer({
      min: -POINTS_MAX,
      max: POINTS_MAX,
      required: true,
      description:
        'Signed, never 0: redeemed, expired and negative adjusted entries are negative. A client writes at most 1,000,000 either way; ' +
        'the service’s own entries may be larger (an earned entry times its tier’s multiplier, an expired one the whole balance).',
    }),
    outputSchema: z.number().int(),
  },
  reason: field.enum(POINT_REASONS, {
    required: true,
    description: 'An API key creates earned (positive) and adjusted (either sign) entries; the others are the service’s own.',
  }),
  note: field.string({ max: 256 }),
  uniqueIdentifier: field.string({
    min: 1,
    max: 256,
    description:
      "Unique per account among point entries, redemptions apart (a redeemed entry carries its redemption's, unique among redemptions): a replay is 409 duplicate_unique_identifier and changes nothing.",
  }),
  linkedSchemaSlug: field.string({ max: 64, description: 'What the entry came from: a log, a reward log, an order reference.' }),
  linkedSchemaRecordId: field.string({ max: 256 }),
};

export const tierFields = {
  name: name(),
  description: description(),
  status: field.status({
    default: 'draft',
    required: true,
    description: 'Only live tiers hold members; end users and guests read live ones.',
  }),
  pointsThreshold: field.integer({
    min: 0,
    max: 1_000_000_000,
    required: true,
    public: true,
    description: 'The pointsEarnedInTierWindow a member needs to be in this tier.',
  }),
  earnMultiplier: field.number({
    min: 1,
    max: 10,
    default: 1,
    required: true,
    public: true,
    description: 'Multiplies every earned entry of a member in this tier (rounded down); one decimal at most (1.5, not 1.25).',
  }),
  entryRewardId: field.uuid({
    references: 'reward',
    description: 'Issued once per member, ever, when they first enter this tier (not for a tier they skip).',
  }),
  eudTitle: eudTitle(),
  eudDescription: eudText(),
  eudIcon: eudIcon(),
};

export type PointsSettingRow = RowOfFields<typeof pointsSettingFields>;
export type TierRow = RowOfFields<typeof tierFields>;
export type PointEntryRow = RowOfFields<typeof pointEntryFields>;

/** What points keep on each member's row beside its fields, for the daily pass (no sums over entries per entry). */
export interface MemberPointsColumns {
  last_point_entry_at: Date | null;
  /** The oldest earned or reversed entry counted in pointsEarnedInTierWindow: the next to leave the window. */
  points_window_oldest_at: Date | null;
  /** When the daily pass last summed the window from the entries. */
  points_window_at: Date | null;
  /** The expiry announced by `points_to_expire` in the current inactivity period; a new entry clears it. */
  points_expiry_warned_for: Date | null;
  /** The member's local year whose birthday points they were given. */
  birthday_points_year: number | null;
}

/** The setting's own columns for the daily pass. */
export interface PointsSettingColumns {
  tier_window_changed_at: Date | null;
}
