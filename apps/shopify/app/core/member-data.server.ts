import { errorAnswer } from '../http.server';
import { type AccountClient, CoreError } from './client.server';
import type { CoreErrorBody } from './failure';
import { records, type Slug, whereEquals } from './records.server';

/** What the core holds about one member, for the compliance webhooks (customers/data_request and customers/redact). */

/** A call's records, or the core's refusal as a CoreError. */
function dataOf<T>(answer: { data?: { data: T }; error?: CoreErrorBody; response: Response }): T {
  if (!answer.data) throw new CoreError(answer.response.status, answer.error);
  return answer.data.data;
}

/** The member with this externalId, or null. */
export async function findMember(api: AccountClient, externalId: string): Promise<{ id: string; languageCode?: string | null } | null> {
  const members = dataOf(
    await api.GET('/schema/account_user/record', {
      params: { query: { filters: JSON.stringify(whereEquals('externalId', externalId)), limit: 1 } },
    }),
  );
  return members[0] ?? null;
}

/** The member's records the core keeps, under the export's names: every kind CONTRACT §9's erasure takes, and §19's point entries. */
const OWNED = {
  streakLogs: 'streak_log',
  challengeLogs: 'challenge_log',
  missionLogs: 'mission_log',
  streakProgress: 'streak_progress',
  challengeProgress: 'challenge_progress',
  missionProgress: 'mission_progress',
  taskProgress: 'task_progress',
  rewardLogs: 'reward_log',
  pointEntries: 'point_entry',
  events: 'event_log',
  notifications: 'notification_log',
} as const satisfies Record<string, Slug>;

const PAGE = 1000;

/** Every record of `slug` the member owns, oldest first, page by page. */
async function allOwned(api: AccountClient, slug: Slug, memberId: string): Promise<unknown[]> {
  const all: unknown[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await records(api, slug).list({
      filters: whereEquals('ownedById', memberId),
      sortBy: [{ fieldSlug: 'createdAt', order: 'ASC' }],
      limit: PAGE,
      offset,
    });
    if (!page.ok) throw new CoreError(page.failure.status);
    all.push(...page.data);
    if (page.data.length < PAGE) return all;
  }
}

/** Everything the core holds about one member, for a customers/data_request. */
export async function exportMember(api: AccountClient, externalId: string): Promise<Record<string, unknown> | null> {
  const member = await findMember(api, externalId);
  if (!member) return null;
  const [memberRecord, ...owned] = await Promise.all([
    api.GET('/schema/account_user/record/{id}', { params: { path: { id: member.id } } }),
    ...Object.values(OWNED).map((slug) => allOwned(api, slug, member.id)),
  ]);
  return { member: dataOf(memberRecord), ...Object.fromEntries(Object.keys(OWNED).map((name, i) => [name, owned[i]])) };
}

/** customers/redact: erases the member and all its history; a member already gone is done. */
export async function eraseMember(api: AccountClient, externalId: string): Promise<boolean> {
  const member = await findMember(api, externalId);
  if (!member) return false;
  const { error, response } = await api.DELETE('/schema/account_user/record/{id}', { params: { path: { id: member.id } } });
  if (!response.ok && response.status !== 404) throw new CoreError(response.status, error);
  return true;
}

/**
 * A compliance webhook's work, answered 503 in the app's JSON error body when the core cannot do its
 * part (down, unreachable: the route's client answers that as 503), so Shopify retries the webhook;
 * not Remix's 500 with a stack trace in the log.
 */
export async function retriedOnOutage(work: () => Promise<Response>): Promise<Response> {
  try {
    return await work();
  } catch (err) {
    if (!(err instanceof CoreError)) throw err;
    console.warn(`[loyalty] compliance webhook: ${err.message}; answered 503 for Shopify to retry`);
    return errorAnswer(503, 'unavailable', 'The loyalty service did not answer; retry later.');
  }
}
