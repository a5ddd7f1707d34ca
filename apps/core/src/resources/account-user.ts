import type { ErrorDetail } from '../errors.js';
import { defineResource } from '../records/resource.js';
import { accountUserFields } from '../schema/members.js';
import { ADMIN } from './common.js';

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
  fields: accountUserFields,
  validate: (record) => duplicateChannels(record.unsubscribedChannels),
  uniqueErrors: {
    account_user_external_id_unique: { status: 409, field: 'externalId', message: 'A member with this externalId already exists.' },
  },
  async beforeDelete({ trx, row }) {
    // GDPR erasure: everything that describes the member goes with it; issued coupons stay issued.
    const where = { account_id: row.account_id, owned_by_id: row.id };
    for (const table of [
      'streak_log',
      'challenge_log',
      'mission_log',
      'task_progress',
      'streak_progress',
      'challenge_progress',
      'mission_progress',
      'reward_log',
      'event_log',
      'notification_log',
    ]) {
      await trx(table).where(where).delete();
    }
  },
});
