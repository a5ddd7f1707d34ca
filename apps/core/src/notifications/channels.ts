import type { Channel } from '../schema/members.js';

/** The channels notifications are sent on are a member's to opt out of, so the member schema holds them. */
export { CHANNELS, type Channel } from '../schema/members.js';

/** Each integration provider and the template resource its rules send (CONTRACT §6 notification). */
export const TEMPLATE_OF_PROVIDER = {
  service_email: 'email_template',
  push_cloud_messaging: 'push_notification_template',
  cloud_sms: 'sms_template',
  cloud_chat: 'chat_message_template',
} as const;
export type IntegrationProvider = keyof typeof TEMPLATE_OF_PROVIDER;
export const INTEGRATION_PROVIDERS = Object.keys(TEMPLATE_OF_PROVIDER) as [IntegrationProvider, ...IntegrationProvider[]];

/** The channel each integration sends on, as notification logs record it. */
export const CHANNEL_OF_PROVIDER: Record<IntegrationProvider, Channel> = {
  service_email: 'email',
  push_cloud_messaging: 'push',
  cloud_sms: 'sms',
  cloud_chat: 'chat',
};
