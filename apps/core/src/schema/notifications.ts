import { z } from 'zod';
import { EVENT_CODES } from '../events/codes.js';
import { field } from '../records/fields.js';
import type { RowOfFields } from '../records/row-types.js';
import { description, name } from './common.js';
import type { Channel } from './members.js';
import { eventCodesField } from './webhooks.js';

export const INTEGRATION_PROVIDERS = ['service_email', 'push_cloud_messaging', 'cloud_sms', 'cloud_chat'] as const;
export type IntegrationProvider = (typeof INTEGRATION_PROVIDERS)[number];

/** Each integration provider and the template resource its rules send (CONTRACT §6 notification). */
export const TEMPLATE_OF_PROVIDER = {
  service_email: 'email_template',
  push_cloud_messaging: 'push_notification_template',
  cloud_sms: 'sms_template',
  cloud_chat: 'chat_message_template',
} as const satisfies Record<IntegrationProvider, string>;

/** The channel each integration sends on, as notification logs record it. */
export const CHANNEL_OF_PROVIDER: Record<IntegrationProvider, Channel> = {
  service_email: 'email',
  push_cloud_messaging: 'push',
  cloud_sms: 'sms',
  cloud_chat: 'chat',
};

/** Fields every message template has; `status` defaults to live as in the tables. */
export const templateBasics = () => ({
  name: name(),
  status: field.status({ required: true, default: 'live' }),
});

export const emailTemplateFields = {
  name: name(),
  description: description(),
  status: field.status({ required: true }),
  emailHeaderId: field.uuid({ references: 'email_header', description: 'Placed by the {{>header}} partial.' }),
  emailFooterId: field.uuid({ references: 'email_footer', description: 'Placed by the {{>footer}} partial.' }),
  sampleEventCode: field.enum(EVENT_CODES, { required: true, description: 'Selects sample data for design only; sends nothing.' }),
  subject: field.string({ required: true, min: 1, max: 256, localisable: true, description: 'Handlebars; variables allowed.' }),
  htmlContent: field.string({
    required: true,
    min: 1,
    localisable: true,
    description: 'Handlebars HTML; {{>header}} and {{>footer}} place the linked header and footer.',
  }),
};

/** Keys the push provider reserves in a message's data map. */
const RESERVED_DATA_KEY = /^(from|notification|message_type|google(\..*)?|gcm(\..*)?)$/i;
const pushDataMap = z.record(z.string().min(1).max(256), z.string().max(1024)).superRefine((data, issue) => {
  const keys = Object.keys(data);
  if (keys.length > 50) issue.addIssue({ code: 'custom', message: 'At most 50 keys.' });
  for (const key of keys) {
    if (RESERVED_DATA_KEY.test(key)) issue.addIssue({ code: 'custom', path: [key], message: `"${key}" is reserved by the push provider.` });
  }
});
// JSON may name "__proto__" as a key, which a zod record leaves out without a word: refused by name.
const pushData = z.preprocess((value, issue) => {
  if (typeof value === 'object' && value !== null && Object.hasOwn(value, '__proto__'))
    issue.addIssue({ code: 'custom', path: ['__proto__'], message: '"__proto__" cannot be a key.', input: value });
  return value;
}, pushDataMap);

export const pushNotificationTemplateFields = {
  ...templateBasics(),
  title: field.string({ required: true, min: 1, max: 256, localisable: true, description: 'Handlebars; variables allowed.' }),
  body: field.string({ required: true, min: 1, max: 1024, localisable: true, description: 'Handlebars; variables allowed.' }),
  imageUrl: field.image(),
  data: field.json(pushData, { description: 'String key/value pairs delivered with the message.' }),
};

export const smsTemplateFields = {
  ...templateBasics(),
  body: field.string({ required: true, min: 1, max: 1600, localisable: true, description: 'Handlebars; variables allowed.' }),
};

export const chatMessageTemplateFields = {
  ...templateBasics(),
  templateName: field.string({
    required: true,
    min: 1,
    max: 512,
    pattern: /^[a-z0-9_]+$/,
    patternMessage: "Lowercase letters, digits and _ only (the chat provider's template names)",
    description: 'Name of the pre-approved template at the chat provider.',
  }),
  templateLanguageCode: field.string({
    required: true,
    max: 16,
    pattern: /^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,4})?$/,
    patternMessage: 'A language code such as en or en_US',
    description: 'Language of the approved template, e.g. en_US.',
  }),
  bodyParameters: field.json(z.array(z.string().min(1).max(1024)).max(100), {
    required: true,
    default: () => [],
    description: 'Handlebars expressions rendered into the template body parameters, in order.',
  }),
};

export const notificationFields = {
  name: name(),
  description: description(),
  status: field.status({ required: true, default: 'draft', description: 'Only live rules send.' }),
  eventCodes: eventCodesField({ description: 'The event codes that trigger this rule; non-empty, distinct.' }),
  integrationProvider: field.enum(INTEGRATION_PROVIDERS, { required: true }),
  integrationId: field.uuid({
    required: true,
    referencesBy: { field: 'integrationProvider', slugs: Object.fromEntries(INTEGRATION_PROVIDERS.map((p) => [p, p])) },
    description: 'A record of the integrationProvider resource.',
  }),
  templateId: field.uuid({
    required: true,
    referencesBy: { field: 'integrationProvider', slugs: TEMPLATE_OF_PROVIDER },
    description: "A template of the provider's kind: email_template, push_notification_template, sms_template or chat_message_template.",
  }),
};

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
export type NotificationLogRow = RowOfFields<typeof notificationLogFields> & {
  next_attempt_at: Date;
  lease_until: Date | null;
  sent_at: Date | null;
};
export type EmailTemplateRow = RowOfFields<typeof emailTemplateFields>;
export type PushNotificationTemplateRow = RowOfFields<typeof pushNotificationTemplateFields>;
export type SmsTemplateRow = RowOfFields<typeof smsTemplateFields>;
export type ChatMessageTemplateRow = RowOfFields<typeof chatMessageTemplateFields>;
export type NotificationRow = RowOfFields<typeof notificationFields>;
