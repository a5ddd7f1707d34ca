import type { AccountClient } from './core.server';
import { CoreError } from './core.server';

const byExternalId = (externalId: string) =>
  JSON.stringify({ operator: 'and', conditions: [{ fieldSlug: 'externalId', operator: 'equals', fieldValue: externalId }] });

function ensure(response: Response, error: unknown): void {
  if (!response.ok) throw new CoreError(response.status, error as ConstructorParameters<typeof CoreError>[1]);
}

/** The member with this externalId, or null. */
export async function findMember(api: AccountClient, externalId: string): Promise<{ id: string } | null> {
  const { data, error, response } = await api.GET('/schema/account_user/record', {
    params: { query: { filters: byExternalId(externalId), limit: 1 } },
  });
  ensure(response, error);
  return data!.data[0] ?? null;
}

/** Everything the core holds about one member, for a customers/data_request. */
export async function exportMember(api: AccountClient, externalId: string): Promise<Record<string, unknown> | null> {
  const member = await findMember(api, externalId);
  if (!member) return null;
  const owned = {
    params: {
      query: {
        filters: JSON.stringify({ operator: 'and', conditions: [{ fieldSlug: 'ownedById', operator: 'equals', fieldValue: member.id }] }),
        limit: 1000,
      },
    },
  };
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
  const parts = { memberRecord, streakLogs, challengeLogs, missionLogs, streakProgress, challengeProgress, missionProgress, rewardLogs };
  for (const part of Object.values(parts)) ensure(part.response, part.error);
  return {
    member: memberRecord.data!.data,
    streakLogs: streakLogs.data!.data,
    challengeLogs: challengeLogs.data!.data,
    missionLogs: missionLogs.data!.data,
    streakProgress: streakProgress.data!.data,
    challengeProgress: challengeProgress.data!.data,
    missionProgress: missionProgress.data!.data,
    rewardLogs: rewardLogs.data!.data,
  };
}

/** customers/redact: erases the member and all its history; a member already gone is done. */
export async function eraseMember(api: AccountClient, externalId: string): Promise<boolean> {
  const member = await findMember(api, externalId);
  if (!member) return false;
  const { error, response } = await api.DELETE('/schema/account_user/record/{id}', { params: { path: { id: member.id } } });
  if (response.status !== 404) ensure(response, error);
  return true;
}
