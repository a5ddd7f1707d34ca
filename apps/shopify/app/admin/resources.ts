import type { Messages } from '../i18n/index';

/** A resource the admin has pages for: each has its names in every language (i18n `records.resources`). */
export type ResourceSlug = keyof Messages['records']['resources'];

/** The core resources the admin edits, by section; the slug is the core's (CONTRACT §6). */
export interface ResourceInfo {
  slug: ResourceSlug;
  /** The OpenAPI schema name stem, e.g. `PushNotificationTemplate`. */
  schema: string;
  section: 'programme' | 'rewards' | 'widget' | 'webhooks' | 'notifications';
}

const pascal = (slug: string) => slug.replace(/(^|_)(\w)/g, (_, __, c: string) => c.toUpperCase());

const r = (slug: ResourceSlug, section: ResourceInfo['section']): ResourceInfo => ({ slug, schema: pascal(slug), section });

export const RESOURCES: ResourceInfo[] = [
  r('streak', 'programme'),
  r('challenge', 'programme'),
  r('mission', 'programme'),
  r('milestone', 'programme'),
  r('leaderboard', 'programme'),
  r('reward', 'rewards'),
  r('floating_widget', 'widget'),
  r('theme', 'widget'),
  r('template', 'widget'),
  r('webhook', 'webhooks'),
  r('notification', 'notifications'),
  r('email_template', 'notifications'),
  r('email_theme', 'notifications'),
  r('email_header', 'notifications'),
  r('email_footer', 'notifications'),
  r('push_notification_template', 'notifications'),
  r('sms_template', 'notifications'),
  r('chat_message_template', 'notifications'),
  r('service_email', 'notifications'),
  r('push_cloud_messaging', 'notifications'),
  r('cloud_sms', 'notifications'),
  r('cloud_chat', 'notifications'),
];

export function resource(slug: string | undefined): ResourceInfo {
  const found = RESOURCES.find((x) => x.slug === slug);
  if (!found) throw new Response(`No admin page for "${slug}".`, { status: 404 });
  return found;
}

export const DEFINITION_SLUGS: string[] = ['streak', 'challenge', 'mission'];
