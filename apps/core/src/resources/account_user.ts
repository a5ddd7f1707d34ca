import type { ErrorDetail } from '../errors.js';
import { CHANNELS } from '../notifications/channels.js';
import { field } from '../records/fields.js';
import { defineResource } from '../records/resource.js';
import { ADMIN } from './common.js';

export const memberFields = {
  externalId: field.string({ required: true, min: 1, max: 256, description: "The client system's identifier." }),
  firstName: field.string({ max: 256 }),
  lastName: field.string({ max: 256 }),
  email: field.email(),
  phoneNumber: field.phone(),
  timezone: field.timezone({ description: "IANA time zone; the account's when empty." }),
  languageCode: field.languageCode(),
};

function duplicateChannels(channels: unknown): ErrorDetail[] {
  if (!Array.isArray(channels)) return [];
  return channels.flatMap((c, i) =>
    channels.indexOf(c) < i ? [{ field: `unsubscribedChannels[${i}]`, code: 'duplicate', message: `"${String(c)}" is listed twice.` }] : [],
  );
}

export const accountUser = defineResource({
  slug: 'account_user',
  table: 'account_user',
  description: 'Members: the shoppers who earn progress and rewards.',
  access: ADMIN,
  fields: {
    ...memberFields,
    pushDeviceTokens: field.stringArray({ itemMax: 4096, maxItems: 20, default: [] }),
    status: field.status({ default: 'live', description: 'Only live members earn progress.' }),
    unsubscribedChannels: field.stringArray({
      items: CHANNELS,
      maxItems: CHANNELS.length,
      default: [],
      description:
        "The channels the member opted out of; notifications on them are skipped. A channel's unsubscribe link adds it (an email link: email only); remove a channel when the member opts back in.",
    }),
  },
  validate: (record) => duplicateChannels(record.unsubscribedChannels),
  uniqueErrors: {
    account_user_external_id_unique: { status: 409, field: 'externalId', message: 'A member with this externalId already exists.' },
  },
  async beforeDelete({ trx, row }) {
    // GDPR erasure: everything that describes the member goes with it; issued coupons stay issued.
    const where = { account_id: row.account_id, owned_by_id: row.id };
    for (const table of [
      'streak_log', 'challenge_log', 'mission_log', 'task_progress', 'streak_progress', 'challenge_progress',
      'mission_progress', 'reward_log', 'event_log', 'notification_log',
    ]) {
      await trx(table).where(where).delete();
    }
  },
});
