import { type AccountClient, CoreError } from '../core/client.server';
import { records, whereEquals } from '../core/records.server';
import type { EarningRule, EarningSource } from '../storage/earning-rules.server';
import { type Feed, isBuiltInActivity, type Method, VISIT_ACTIVITY } from './plan';

/**
 * The live definitions the store's activity feeds: streaks and challenges by their earning rule
 * (app/storage/earning-rules.server.ts), mission tasks by their built-in activity. Read from the core
 * at each job, so a definition set live, paused or deleted counts from the next order on.
 */

const methodOf = (value: unknown): Method => (value === 'sum' ? 'sum' : 'count');

/** Every live record of a kind (a shop's programs are tens, not thousands). */
async function live<S extends 'streak' | 'challenge' | 'mission'>(api: AccountClient, slug: S) {
  // No answer at all is status 0: the job waits for the core like for any other outage.
  const listed = await records(api, slug)
    .list({ filters: whereEquals('status', 'live'), limit: 1000 })
    .catch(() => null);
  if (!listed?.ok) throw new CoreError(listed ? listed.failure.status : 0);
  return listed.data;
}

/** Streaks and challenges whose rule is `source`, as feeds of `activityId`. */
async function ruled(api: AccountClient, rules: readonly EarningRule[], source: EarningSource, activityId: string): Promise<Feed[]> {
  const feeds: Feed[] = [];
  for (const kind of ['streak', 'challenge'] as const) {
    const mine = new Map(rules.filter((r) => r.kind === kind && r.source === source).map((r) => [r.definitionId, r]));
    if (!mine.size) continue;
    for (const definition of await live(api, kind)) {
      const rule = mine.get(definition.id);
      if (!rule) continue;
      feeds.push({
        kind,
        definitionId: definition.id,
        name: String(definition.name ?? ''),
        activityId,
        method: methodOf(definition.aggregationMethod),
        collectionIds: kind === 'challenge' ? rule.collectionIds : [],
      });
    }
  }
  return feeds;
}

/** Live missions' tasks whose activity is one of `activities`. */
async function missionTasks(api: AccountClient, activities: readonly string[]): Promise<Feed[]> {
  return (await live(api, 'mission')).flatMap((mission) =>
    (mission.tasks ?? []).flatMap((task) =>
      isBuiltInActivity(task.activityId) && activities.includes(task.activityId)
        ? [
            {
              kind: 'mission' as const,
              definitionId: mission.id,
              name: String(mission.name ?? ''),
              activityId: task.activityId,
              method: methodOf(task.aggregationMethod),
              collectionIds: [],
            },
          ]
        : [],
    ),
  );
}

/** What a paid order feeds. */
export async function orderFeeds(api: AccountClient, rules: readonly EarningRule[]): Promise<Feed[]> {
  return [...(await ruled(api, rules, 'orders', 'order_paid')), ...(await missionTasks(api, ['order_paid', 'first_order']))];
}

/** What a new customer feeds. */
export function signUpFeeds(api: AccountClient): Promise<Feed[]> {
  return missionTasks(api, ['account_created']);
}

/** What a storefront visit feeds. */
export function visitFeeds(api: AccountClient, rules: readonly EarningRule[]): Promise<Feed[]> {
  return ruled(api, rules, 'visits', VISIT_ACTIVITY);
}
