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
  r('tier', 'rewards'),
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

/**
 * The merchant-worded editor of a record, where its resource has one (`new` for a new record); the
 * generic "All fields" page is then offered from that editor's Advanced menu only.
 */
export function editorUrl(slug: string, id: string): string | null {
  if (DEFINITION_SLUGS.includes(slug)) return `/app/programs/${slug}/${id}`;
  if (slug === 'reward') return `/app/rewards/${id}`;
  if (slug === 'leaderboard') return `/app/leaderboards/${id}`;
  if (slug === 'tier') return `/app/tiers/${id}`;
  if (slug === 'notification') return `/app/notifications/rules/${id}`;
  if (slug === 'email_template') return `/app/notifications/emails/${id}`;
  // The branding editor edits an existing theme, launcher and template together.
  if ((slug === 'theme' || slug === 'floating_widget' || slug === 'template') && id !== 'new') return `/app/widget/branding?${slug}=${id}`;
  return null;
}

/** The help page's topic for a resource's pages. */
export function helpTopicOf(info: ResourceInfo): keyof Messages['help']['topics'] {
  if (info.slug === 'leaderboard') return 'leaderboards';
  if (info.slug === 'email_template') return 'emails';
  return info.section === 'programme' ? 'programs' : info.section;
}
