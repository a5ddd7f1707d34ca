import { z } from 'zod';
import { field } from '../records/fields.js';
import type { Row } from '../records/resource.js';
import { columnsOf, type RowOfFields, type ValuesOfFields } from '../records/row-types.js';
import { SOCIAL_NETWORKS } from './points.js';

/** The channels notifications are sent on; a member opts out of each on its own. */
export const CHANNELS = ['email', 'push', 'sms', 'chat'] as const;
export type Channel = (typeof CHANNELS)[number];

/** MM-DD of a day some year has: 30 days in April, June, September and November, 29 in February. */
const BIRTHDAY = /^(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1\d|2\d)|(?:0[13-9]|1[0-2])-30|(?:0[13578]|1[02])-31)$/;

/** The fields that describe a member, which a log may also send inline (`ownedBy`). */
export const memberFields = {
  externalId: field.string({ required: true, min: 1, max: 256, description: "The client system's identifier." }),
  firstName: field.string({ max: 256 }),
  lastName: field.string({ max: 256 }),
  email: field.email(),
  phoneNumber: field.phone(),
  timezone: field.timezone({ description: "IANA time zone; the account's when empty." }),
  languageCode: field.languageCode(),
};

export const accountUserFields = {
  ...memberFields,
  pushDeviceTokens: field.stringArray({ itemMax: 4096, maxItems: 20, default: [] }),
  status: field.status({ default: 'live', description: 'Only live members earn progress.' }),
  birthday: field.string({
    max: 5,
    pattern: BIRTHDAY,
    patternMessage: 'Expected a birthday as MM-DD, a day the month has (02-29 included)',
    description:
      'Month and day, MM-DD (no year). With points_setting.pointsOnBirthday, the member earns once a year on it in their time zone (02-29 on 02-28 in other years). An end user may set their own once (PATCH /schema/account_user/me), giving points from the first birthday at least 30 days ahead; an API key may change it.',
  }),
  referralCode: field.string({
    readOnly: true,
    alwaysSet: true,
    description:
      'The member’s own referral code, 8 characters the service gives every member, unique: a shop’s storefront link with it (the Shopify app’s `?loyalty_ref=`) tells the order it brings whom to credit (points_setting.pointsOnReferral).',
  }),
  referredById: field.uuid({
    references: 'account_user',
    staffOnly: true,
    description: 'The member whose referral brought this one (the Shopify app sets it on the first order); never the member themselves.',
  }),
  unsubscribedChannels: {
    ...field.stringArray({
      items: CHANNELS,
      maxItems: CHANNELS.length,
      default: [],
      description:
        "The channels the member opted out of, each once; notifications on them are skipped. A channel's unsubscribe link adds it (an email link: email only); remove a channel when the member opts back in.",
    }),
    // The resource refuses a repeated channel; the document says so.
    schema: z.array(z.enum(CHANNELS)).max(CHANNELS.length).meta({ uniqueItems: true }),
  },
  socialFollows: field.stringArray({
    items: SOCIAL_NETWORKS,
    maxItems: SOCIAL_NETWORKS.length,
    readOnly: true,
    alwaysSet: true,
    default: [],
    description:
      'The shop’s social profiles the member has followed for points (points_setting.pointsOnFollow), each once: the follow action adds it.',
  }),
  pointsBalance: field.integer({
    readOnly: true,
    alwaysSet: true,
    description: 'The sum of the member’s point entries; below 0 only through reversed entries (CONTRACT §19).',
  }),
  pointsEarnedInTierWindow: field.integer({
    readOnly: true,
    alwaysSet: true,
    description: 'Earned points within the points setting’s tierWindowMonths, less the reversed ones taking them back.',
  }),
  lastPointEntryAt: field.datetime({
    readOnly: true,
    description:
      'When the member’s newest point entry was made: their points expire expiryMonthsOfInactivity calendar months after it, at the daily pass (CONTRACT §19).',
  }),
  tierId: field.uuid({
    readOnly: true,
    description:
      'The highest live tier whose threshold pointsEarnedInTierWindow reaches: raised by entries, lowered only by the daily pass.',
  }),
};

export type AccountUserRow = RowOfFields<typeof accountUserFields>;
export type AccountUserValues = ValuesOfFields<typeof accountUserFields>;
/** A member as a log names it inline (`ownedBy`): by externalId, with any other member fields. */
export type InlineMember = Readonly<Record<string, unknown>> & { externalId: string };

/** Member field → column, from the definition: the one mapping the engine, auth and notifications use. */
export const MEMBER_COLUMNS = columnsOf(memberFields);

/** The member fields given (null included: it clears one), as their columns. */
export function memberToColumns(values: Readonly<Record<string, unknown>>): Row {
  const out: Row = {};
  for (const [name, column] of Object.entries(MEMBER_COLUMNS)) if (name in values) out[column] = values[name];
  return out;
}

/** Whether a member row already holds every given member field value. */
export function memberHolds(row: AccountUserRow, values: Readonly<Record<string, unknown>>): boolean {
  const columns: Readonly<Record<string, unknown>> = row;
  return Object.entries(memberToColumns(values)).every(([column, v]) => columns[column] === v);
}

/** The member fields of a row, as the API names them, in the definition's order. */
export function memberFromRow(row: AccountUserRow): Record<string, unknown> {
  return Object.fromEntries(Object.entries(MEMBER_COLUMNS).map(([name, column]) => [name, row[column]]));
}
