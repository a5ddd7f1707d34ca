import { isJsonObject, objectOf } from '../json';
import { type AccountClient, CoreError } from './client.server';
import type { CoreLanguage } from './languages';

/**
 * Writing and reversing activity logs (CONTRACT §8, §17) for what the store reports by itself:
 * orders, refunds, cancellations, sign-ups and visits. A replay of a `uniqueIdentifier` is an
 * answer like any other (the work was done before), so a job may run again after a crash.
 */
export type LogKind = 'streak' | 'challenge' | 'mission';

export interface LogInput {
  definitionId: string;
  ownedBy: { externalId: string; firstName?: string; lastName?: string; email?: string; languageCode?: CoreLanguage };
  activityId: string;
  activityAt: string;
  /** 1 for count definitions, which add 1 whatever is sent. */
  activityValue: number;
  uniqueIdentifier: string;
}

/**
 * A customer as a log names its member inline (CONTRACT §8, §13): by externalId, with the names,
 * e-mail and language known. The language is the one they last ordered in, so that their
 * notifications and their rewards' dates follow it (CONTRACT §11); unknown, it stays as it is.
 */
export const memberOf = (
  externalId: string,
  person: { firstName?: string | null; lastName?: string | null; email?: string | null; languageCode?: CoreLanguage | null },
): LogInput['ownedBy'] => ({
  externalId,
  ...(person.firstName ? { firstName: person.firstName } : {}),
  ...(person.lastName ? { lastName: person.lastName } : {}),
  ...(person.email ? { email: person.email } : {}),
  ...(person.languageCode ? { languageCode: person.languageCode } : {}),
});

export type LogOutcome =
  | { written: true; logId: string; rewardLogIds: string[] }
  /**
   * The uniqueIdentifier was logged before: `logId` is that log's, `activityValue` what it holds
   * (another writer, a Flow action with the order's key, may have logged another value).
   */
  | { written: false; replay: true; logId: string | null; activityValue: number | null; activityId: string | null }
  /** The core refused it for good (a definition since deleted, a value it does not take): nothing to retry. */
  | { written: false; replay: false; status: number; message: string };

/** Whether a refused call may succeed later: the core unreachable (0), down, throttling, or not taking the key (a re-install heals it). */
export const transient = (status: number) => status === 0 || status === 401 || status === 429 || status >= 500;

/** A core call's promise, with no answer at all (refused connection, time-out) as status 0. */
async function reach<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch {
    throw new CoreError(0);
  }
}

type ErrorBody = { error?: { code?: string; message?: string; details?: unknown[] } } | undefined;

/** The log or entry a `duplicate_unique_identifier` refusal names as holding the key, if it names one. */
export const existingId = (body: ErrorBody): string | null => {
  const detail = body?.error?.details?.[0];
  return isJsonObject(detail) && typeof detail.existingRecordId === 'string' ? detail.existingRecordId : null;
};

/**
 * Sends a write naming a member, and sends it again without the e-mail when the core refused that
 * (`field`: where the core names it): a customer whose address the core does not take (Shopify
 * allows more than an e-mail format does) still becomes a member and earns.
 */
export async function sparingEmail<A extends { error?: unknown; response: Response }>(
  ownedBy: LogInput['ownedBy'],
  field: string,
  send: (ownedBy: LogInput['ownedBy']) => Promise<A>,
): Promise<A> {
  const answer = await send(ownedBy);
  if (!ownedBy.email || answer.response.status !== 400) return answer;
  const details = objectOf(objectOf(answer.error).error).details;
  return Array.isArray(details) && details.some((d) => isJsonObject(d) && d.field === field)
    ? send({ ...ownedBy, email: undefined })
    : answer;
}

/**
 * The log create of a kind, its definition named by the kind's own id field. Each kind's answer
 * has its own type (its progress and definition); awaiting each makes their union.
 */
export function postLog(api: AccountClient, kind: LogKind, { definitionId, ownedBy, ...common }: LogInput) {
  return sparingEmail(ownedBy, 'ownedBy.email', async (named) =>
    kind === 'streak'
      ? await api.POST('/schema/streak_log/record', { body: { ...common, ownedBy: named, streakId: definitionId } })
      : kind === 'challenge'
        ? await api.POST('/schema/challenge_log/record', { body: { ...common, ownedBy: named, challengeId: definitionId } })
        : await api.POST('/schema/mission_log/record', { body: { ...common, ownedBy: named, missionId: definitionId } }),
  );
}

/** Creates the member a log would name inline (a customer's first points may come before any log). */
export const createMember = (api: AccountClient, ownedBy: LogInput['ownedBy']) =>
  sparingEmail(ownedBy, 'email', (named) => api.POST('/schema/account_user/record', { body: named }));

/** What a kept log counted: its member, its activity and its value. */
export interface KeptLog {
  ownedById: string | null;
  activityId: string | null;
  activityValue: number | null;
}

/** A log as the core holds it; null when it cannot be read. A transient failure throws CoreError. */
export async function keptLog(api: AccountClient, kind: LogKind, id: string): Promise<KeptLog | null> {
  const params = { params: { path: { id } } };
  const result = await reach(async () =>
    kind === 'streak'
      ? await api.GET('/schema/streak_log/record/{id}', params)
      : kind === 'challenge'
        ? await api.GET('/schema/challenge_log/record/{id}', params)
        : await api.GET('/schema/mission_log/record/{id}', params),
  );
  if (result.data) {
    const log = result.data.data;
    return { ownedById: log.ownedById ?? null, activityId: log.activityId ?? null, activityValue: log.activityValue ?? null };
  }
  if (transient(result.response.status)) throw new CoreError(result.response.status, result.error);
  return null;
}

/** One log; a transient refusal throws CoreError (the job is retried), a lasting one is an outcome. */
export async function writeLog(api: AccountClient, kind: LogKind, input: LogInput): Promise<LogOutcome> {
  const result = await reach(() => postLog(api, kind, input));
  if (result.data) {
    const log = result.data.data;
    const rewardLogs = [...log.achievedMilestoneRewardLogs, ...(log.rewardLog ? [log.rewardLog] : [])];
    return { written: true, logId: log.id, rewardLogIds: [...new Set(rewardLogs.map((r) => r.id))] };
  }
  const status = result.response.status;
  const error: ErrorBody = result.error;
  if (status === 409 && error?.error?.code === 'duplicate_unique_identifier') {
    const logId = existingId(error);
    const kept = logId ? await keptLog(api, kind, logId) : null;
    return { written: false, replay: true, logId, activityValue: kept?.activityValue ?? null, activityId: kept?.activityId ?? null };
  }
  if (transient(status)) throw new CoreError(status, result.error);
  return { written: false, replay: false, status, message: error?.error?.message ?? `the core answered ${status}` };
}

export type ReverseOutcome =
  | { reversed: true; reversedValue: number; revokedRewardLogIds: string[] }
  /** The uniqueIdentifier was used by an earlier reversal: done before. */
  | { reversed: false; replay: true }
  /** Nothing of the log is left to take back (another reversal took it). */
  | { reversed: false; replay: false; nothingLeft: true }
  | { reversed: false; replay: false; nothingLeft: false; status: number; message: string };

export interface ReverseInput {
  /** Omitted: all that remains (count logs always). */
  activityValue?: number;
  uniqueIdentifier: string;
  reason: string;
}

/** CONTRACT §17's reverse action on one log. */
export async function reverseLog(api: AccountClient, kind: LogKind, logId: string, input: ReverseInput): Promise<ReverseOutcome> {
  const request = { params: { path: { id: logId } }, body: input };
  const result = await reach(async () =>
    kind === 'streak'
      ? await api.POST('/schema/streak_log/record/{id}/action/reverse', request)
      : kind === 'challenge'
        ? await api.POST('/schema/challenge_log/record/{id}/action/reverse', request)
        : await api.POST('/schema/mission_log/record/{id}/action/reverse', request),
  );
  if (result.data) {
    const log = result.data.data;
    return {
      reversed: true,
      reversedValue: typeof log.reversedValue === 'number' ? log.reversedValue : 0,
      revokedRewardLogIds: log.revokedRewardLogs.map((r) => r.id),
    };
  }
  const status = result.response.status;
  const error: ErrorBody = result.error;
  const code = error?.error?.code;
  if (status === 409 && code === 'duplicate_unique_identifier') return { reversed: false, replay: true };
  if (status === 409 && code === 'nothing_to_reverse') return { reversed: false, replay: false, nothingLeft: true };
  if (transient(status)) throw new CoreError(status, result.error);
  return { reversed: false, replay: false, nothingLeft: false, status, message: error?.error?.message ?? `the core answered ${status}` };
}
