import { type AccountClient, CoreError } from '../core/client.server';
import { type RecordOf, records, whereEquals } from '../core/records.server';
import type { EarningRule, EarningSource } from '../storage/earning-rules.server';
import { type Feed, isBuiltInActivity, type Method, VISIT_ACTIVITY } from './plan';
import { liveRates, type PointsRates } from './points.server';

/**
 * The live definitions the store's activity feeds: streaks and challenges by their earning rule
 * (app/storage/earning-rules.server.ts), mission tasks by their built-in activity, read from the
 * core (`Live`).
 */

const methodOf = (value: unknown): Method => (value === 'sum' ? 'sum' : 'count');

type DefinitionSlug = 'streak' | 'challenge' | 'mission';
type LiveRecords<S extends DefinitionSlug> = RecordOf<S>[];

/** A shop's live definitions of a kind, as the feeds read them. */
export interface Live {
  of<S extends DefinitionSlug>(slug: S): Promise<LiveRecords<S>>;
}

/** Every live record of a kind, asked of the core now (a shop's programs are tens, not thousands). */
export function liveNow(api: AccountClient): Live {
  return {
    async of(slug) {
      // No answer at all is status 0: the job waits for the core like for any other outage.
      const listed = await records(api, slug)
        .list({ filters: whereEquals('status', 'live'), limit: 1000 })
        .catch(() => null);
      if (!listed?.ok) throw new CoreError(listed ? listed.failure.status : 0);
      return listed.data;
    },
  };
}

/**
 * A shop's live program remembered per shop for `freshMs`: its live definitions and its points
 * rates. The worker role asks the core once per shop and kind in that time instead of three times
 * per order (bench:orders). A change of the shop's earning rules (a program made or edited in the
 * admin) is read at once; any other change of a definition (created, set live, paused or deleted)
 * or of the rates counts from orders taken up to `freshMs` later. A failed read is not remembered.
 */
export class LiveMemo {
  private readonly kept = new Map<string, { at: number; version: string; value: Promise<unknown> }>();

  constructor(private readonly freshMs: number) {}

  /** What `read` answered under `key` within `freshMs` and the same `version`, else what it answers now. */
  private remember<T>(key: string, version: string, read: () => Promise<T>): Promise<T> {
    const hit = this.kept.get(key);
    // Each key is stored by one caller with one type.
    if (hit && hit.version === version && Date.now() - hit.at < this.freshMs) return hit.value as Promise<T>;
    const value = read();
    this.kept.set(key, { at: Date.now(), version, value });
    value.catch(() => this.kept.delete(key));
    return value;
  }

  for(shop: string, api: AccountClient, rules: readonly EarningRule[]): Live {
    const now = liveNow(api);
    const ruled = JSON.stringify(rules);
    return { of: (slug) => this.remember(`${shop} ${slug}`, ruled, () => now.of(slug)) };
  }

  /** The shop's points rates while points are live (null while off). */
  rates(shop: string, api: AccountClient): Promise<PointsRates | null> {
    return this.remember(`${shop} points`, '', () => liveRates(api));
  }
}

/** Streaks and challenges whose rule is `source`, as feeds of `activityId`. */
async function ruled(live: Live, rules: readonly EarningRule[], source: EarningSource, activityId: string): Promise<Feed[]> {
  const feeds: Feed[] = [];
  for (const kind of ['streak', 'challenge'] as const) {
    const mine = new Map(rules.filter((r) => r.kind === kind && r.source === source).map((r) => [r.definitionId, r]));
    if (!mine.size) continue;
    for (const definition of await live.of(kind)) {
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
async function missionTasks(live: Live, activities: readonly string[]): Promise<Feed[]> {
  return (await live.of('mission')).flatMap((mission) =>
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
export async function orderFeeds(live: Live, rules: readonly EarningRule[]): Promise<Feed[]> {
  const [ruledFeeds, tasks] = await Promise.all([
    ruled(live, rules, 'orders', 'order_paid'),
    missionTasks(live, ['order_paid', 'first_order']),
  ]);
  return [...ruledFeeds, ...tasks];
}

/** What a new customer feeds. */
export function signUpFeeds(live: Live): Promise<Feed[]> {
  return missionTasks(live, ['account_created']);
}

/** What a storefront visit feeds. */
export function visitFeeds(live: Live, rules: readonly EarningRule[]): Promise<Feed[]> {
  return ruled(live, rules, 'visits', VISIT_ACTIVITY);
}
