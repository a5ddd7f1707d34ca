import { type AccountClient, CoreError } from './client.server';
import type { CoreErrorBody } from './failure';
import { whereEquals } from './records.server';

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

/** Everything the core holds about one member, for a customers/data_request. */
export async function exportMember(api: AccountClient, externalId: string): Promise<Record<string, unknown> | null> {
  const member = await findMember(api, externalId);
  if (!member) return null;
  const owned = { params: { query: { filters: JSON.stringify(whereEquals('ownedById', member.id)), limit: 1000 } } };
  const [memberRecord, streakLogs, challengeLogs, missionLogs, streakProgress, challengeProgress, missionProgress, rewardLogs] =
    await Promise.all([
      api.GET('/schema/account_user/record/{id}', { params: { path: { id: member.id } } }),
      api.GET('/schema/streak_log/record', owned),
      api.GET('/schema/challenge_log/record', owned),
      api.GET('/schema/mission_log/record', owned),
      api.GET('/schema/streak_progress/record', owned),
      api.GET('/schema/challenge_progress/record', owned),
      api.GET('/schema/mission_progress/record', owned),
      api.GET('/schema/reward_log/record', owned),
    ]);
  return {
    member: dataOf(memberRecord),
    streakLogs: dataOf(streakLogs),
    challengeLogs: dataOf(challengeLogs),
    missionLogs: dataOf(missionLogs),
    streakProgress: dataOf(streakProgress),
    challengeProgress: dataOf(challengeProgress),
    missionProgress: dataOf(missionProgress),
    rewardLogs: dataOf(rewardLogs),
  };
}

/** customers/redact: erases the member and all its history; a member already gone is done. */
export async function eraseMember(api: AccountClient, externalId: string): Promise<boolean> {
  const member = await findMember(api, externalId);
  if (!member) return false;
  const { error, response } = await api.DELETE('/schema/account_user/record/{id}', { params: { path: { id: member.id } } });
  if (!response.ok && response.status !== 404) throw new CoreError(response.status, error);
  return true;
}
