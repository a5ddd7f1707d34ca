import { z } from 'zod';
import { EVENT_CODES } from '../events/codes.js';
import { field } from '../records/fields.js';
import type { RowOfFields } from '../records/row-types.js';
import { description, jsonObject, name } from './common.js';

/** A non-empty list of distinct event codes (webhooks and notification rules subscribe with it). */
export function eventCodesField(options: { description: string }) {
  const base = field.stringArray({ items: EVENT_CODES, maxItems: EVENT_CODES.length, required: true, ...options });
  return { ...base, schema: z.array(z.enum(EVENT_CODES)).min(1).max(EVENT_CODES.length).meta({ uniqueItems: true }) };
}

export const webhookFields = {
  name: name(),
  description: description(),
  status: field.status({ required: true, default: 'draft', description: 'Only live webhooks receive deliveries.' }),
  endpointUrl: field.url({
    required: true,
    max: 2048,
    description: 'http or https; hosts that are or resolve to loopback, private, link-local or similar addresses are refused.',
  }),
  eventCodes: eventCodesField({ description: 'The event codes delivered to this webhook; non-empty, distinct.' }),
  webhookSecret: field.string({
    readOnly: true,
    alwaysSet: true,
    sealed: true,
    max: 64,
    description: 'Signing key (`whsec_` + base64 of 32 random bytes); rotate with the rotate_secret action.',
  }),
};

export const webhookLogFields = {
  webhookId: field.uuid({ readOnly: true, alwaysSet: true }),
  webhook: field.virtual(jsonObject.nullable(), { description: 'The webhook (joined; null once deleted).' }),
  eventLogIds: field.json(z.array(z.uuid()), { readOnly: true, alwaysSet: true, description: 'The event logs delivered.' }),
  eventLogs: field.virtual(z.array(jsonObject), { description: 'The event logs (joined, in eventLogIds order).' }),
  webhookLogStatus: field.enum(['pending', 'processed', 'errored', 'max_errored'], { readOnly: true, alwaysSet: true }),
  status: field.status({ readOnly: true, alwaysSet: true }),
  retryCount: field.integer({ readOnly: true, alwaysSet: true, min: 0 }),
  lastRetriedAt: field.datetime({ readOnly: true }),
  nextRetryAt: field.datetime({ readOnly: true }),
  lastResponseStatus: field.integer({ readOnly: true, description: 'HTTP status of the last attempt.' }),
  lastError: field.string({ readOnly: true, description: 'Why the last attempt failed.' }),
  deliveredAt: field.datetime({ readOnly: true }),
};

export type WebhookRow = RowOfFields<typeof webhookFields>;
/** A webhook log also holds the lease of the worker delivering it. */
export type WebhookLogRow = RowOfFields<typeof webhookLogFields> & { lease_until: Date | null };
