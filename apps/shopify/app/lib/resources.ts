/** The core resources the admin edits, by section; the slug is the core's (CONTRACT §6). */
export interface ResourceInfo {
  slug: string;
  /** The OpenAPI schema name stem, e.g. `PushNotificationTemplate`. */
  schema: string;
  title: string;
  singular: string;
  section: 'programme' | 'rewards' | 'widget' | 'webhooks' | 'notifications';
}

const pascal = (slug: string) => slug.replace(/(^|_)(\w)/g, (_, __, c: string) => c.toUpperCase());

const r = (slug: string, title: string, singular: string, section: ResourceInfo['section']): ResourceInfo => ({
  slug,
  schema: pascal(slug),
  title,
  singular,
  section,
});

export const RESOURCES: ResourceInfo[] = [
  r('streak', 'Streaks', 'streak', 'programme'),
  r('challenge', 'Challenges', 'challenge', 'programme'),
  r('mission', 'Missions', 'mission', 'programme'),
  r('milestone', 'Milestones', 'milestone', 'programme'),
  r('leaderboard', 'Leaderboards', 'leaderboard', 'programme'),
  r('reward', 'Rewards', 'reward', 'rewards'),
  r('floating_widget', 'Floating widgets', 'floating widget', 'widget'),
  r('theme', 'Themes', 'theme', 'widget'),
  r('template', 'Templates', 'template', 'widget'),
  r('webhook', 'Webhooks', 'webhook', 'webhooks'),
  r('notification', 'Notification rules', 'notification rule', 'notifications'),
  r('email_template', 'Email templates', 'email template', 'notifications'),
  r('email_theme', 'Email themes', 'email theme', 'notifications'),
  r('email_header', 'Email headers', 'email header', 'notifications'),
  r('email_footer', 'Email footers', 'email footer', 'notifications'),
  r('push_notification_template', 'Push templates', 'push template', 'notifications'),
  r('sms_template', 'SMS templates', 'SMS template', 'notifications'),
  r('chat_message_template', 'Chat templates', 'chat template', 'notifications'),
  r('service_email', 'Email integrations', 'email integration', 'notifications'),
  r('push_cloud_messaging', 'Push integrations', 'push integration', 'notifications'),
  r('cloud_sms', 'SMS integrations', 'SMS integration', 'notifications'),
  r('cloud_chat', 'Chat integrations', 'chat integration', 'notifications'),
];

export function resource(slug: string | undefined): ResourceInfo {
  const found = RESOURCES.find((x) => x.slug === slug);
  if (!found) throw new Response(`No admin page for "${slug}".`, { status: 404 });
  return found;
}

export const DEFINITION_SLUGS = ['streak', 'challenge', 'mission'];
