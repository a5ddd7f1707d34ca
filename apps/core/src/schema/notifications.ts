import { field } from '../records/fields.js';
import type { RowOfFields } from '../records/rowTypes.js';

export const notificationLogFields = {
  notificationId: field.uuid({ readOnly: true, alwaysSet: true }),
  eventLogId: field.uuid({ readOnly: true, alwaysSet: true }),
  ownedById: field.uuid({ readOnly: true }),
  channel: field.string({ readOnly: true, alwaysSet: true, description: 'email, push, sms or chat.' }),
  notificationLogStatus: field.enum(['pending', 'sent', 'failed', 'skipped'], { readOnly: true, alwaysSet: true }),
  providerMessageId: field.string({ readOnly: true }),
  error: field.string({ readOnly: true }),
  attemptCount: field.integer({ readOnly: true, alwaysSet: true, min: 0 }),
};

/** A notification log also keeps its delivery schedule, which the API does not show. */
export type NotificationLogRow = RowOfFields<typeof notificationLogFields> & { next_attempt_at: Date; lease_until: Date | null; sent_at: Date | null };
