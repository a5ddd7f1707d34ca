import type { Config } from '../config.js';
import { configureFields } from '../records/fields.js';
import type { Resource } from '../records/resource.js';
import { accountUser } from './account_user.js';
import { apikey } from './apikey.js';
import { challengeLog, challengeProgress, eventLog, missionLog, missionProgress, streakLog, streakProgress, taskProgress } from './activity.js';
import { challenge, milestone, mission, streak } from './definitions.js';
import { floatingWidget, template, theme } from './display.js';
import { cloudChat, cloudSms, createServiceEmail, pushCloudMessaging } from './integrations.js';
import {
  chatMessageTemplate, emailFooter, emailHeader, emailTemplate, emailTheme, notification, notificationLog, pushNotificationTemplate, smsTemplate,
} from './notifications.js';
import { rewardLog } from './reward_log.js';
import { coupon, reward } from './rewards.js';
import { createUpload } from './upload.js';
import { createWebhook, webhookLog } from './webhooks.js';

/** Every resource the API serves. Resources that need settings are built from the config. */
export function createResources(config: Config): Resource[] {
  const resources: Resource[] = [
    accountUser, apikey, streak, challenge, mission, milestone, reward, coupon, rewardLog,
    streakLog, challengeLog, missionLog, streakProgress, challengeProgress, missionProgress, taskProgress, eventLog,
    floatingWidget, theme, template, createUpload(config),
    createWebhook(config), webhookLog,
    notification, notificationLog, emailTemplate, emailTheme, emailHeader, emailFooter, pushNotificationTemplate, smsTemplate, chatMessageTemplate,
    createServiceEmail(config), pushCloudMessaging, cloudSms, cloudChat,
  ];
  // Validators that depend on settings (eudIcon: uploads under the public URL) are bound here.
  return resources.map((r) => ({ ...r, fields: configureFields(r.fields, { publicUrl: config.publicUrl }) }));
}
