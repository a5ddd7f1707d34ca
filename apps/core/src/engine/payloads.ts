import type { Knex } from 'knex';
import type { EventCode } from '../events/codes.js';
import type { RequestContext } from '../records/context.js';
import type { Records, Row } from '../records/resource.js';
import { liveMilestones, nextMilestone } from './milestones.js';
import type { LogKind, ProgressEvent } from './types.js';

const PROGRESS_FIELDS: Record<LogKind, string> = {
  streak: 'streakProgress',
  challenge: 'challengeProgress',
  mission: 'missionProgress',
};

/** Fields of a resource that are stored columns (no joins), for responses built from rows at hand. */
export const storedFields = (records: Records, slug: string): readonly string[] => records.storedFields(records.registry.require(slug));

/**
 * The payload of events about a progress record rather than a log (breaks, failures, warnings):
 * the progress plus its definition and the next milestone (CONTRACT §9).
 */
export async function progressPayload(
  records: Records,
  db: Knex,
  ctx: RequestContext,
  kind: LogKind,
  progress: Row,
): Promise<Record<string, unknown>> {
  const slug = `${kind}_progress`;
  // A copy: loading joins adds them to the row, and the row may be one the attempt has yet to write.
  const [serialized] = await records.serialize(records.registry.require(slug), [{ ...progress }], ctx, {
    db,
    fields: [
      ...storedFields(records, slug),
      ...['taskProgress', 'taskProgresses'].filter((f) => f in records.registry.require(slug).fields),
    ],
  });
  const definition = await db(kind)
    .where({ account_id: progress.account_id, id: progress[`${kind}_id`] })
    .first();
  const [def] = definition ? await records.serialize(records.registry.require(kind), [definition], ctx, { db }) : [null];
  const milestones = await liveMilestones(db, progress.account_id as string, progress[`${kind}_id`] as string);
  const value = kind === 'mission' ? await completedTasks(db, progress) : (progress.current_progress_value as number);
  const next = nextMilestone(milestones, value);
  const [nextSerialized] = next ? await records.serialize(records.registry.require('milestone'), [next], ctx, { db }) : [null];
  return { [PROGRESS_FIELDS[kind]]: { ...serialized, [kind]: def, nextMilestone: nextSerialized } };
}

/** Freeze events name their streak beside the progress (CONTRACT §14). */
const WITH_DEFINITION = new Set<EventCode>(['streak_progress_freeze_used', 'streak_progress_freeze_earned']);

/** The payload of an event about a progress record: `progressPayload` plus the event's own keys. */
export async function progressEventPayload(
  records: Records,
  db: Knex,
  ctx: RequestContext,
  kind: LogKind,
  event: ProgressEvent,
): Promise<Record<string, unknown>> {
  const payload = await progressPayload(records, db, ctx, kind, event.progress);
  const progress = payload[PROGRESS_FIELDS[kind]] as Record<string, unknown>;
  return {
    ...payload,
    ...(WITH_DEFINITION.has(event.code) ? { [kind]: progress[kind] } : {}),
    ...(event.rewardLogs ? await rewardLogKeys(records, db, ctx, event.rewardLogs) : {}),
    ...event.extra,
  };
}

/** A completion's reward logs under the keys of a log's response (CONTRACT §8), so a message's `rewardValidTill` finds them. */
async function rewardLogKeys(records: Records, db: Knex, ctx: RequestContext, logs: NonNullable<ProgressEvent['rewardLogs']>) {
  const resource = records.registry.require('reward_log');
  const milestones = await records.serialize(resource, [...logs.milestones], ctx, { db });
  const [reward] = logs.reward ? await records.serialize(resource, [logs.reward], ctx, { db }) : [null];
  return {
    achievedMilestoneRewardLog: milestones.at(-1) ?? null,
    achievedMilestoneRewardLogs: milestones,
    rewardLog: reward ?? null,
  };
}

async function completedTasks(db: Knex, progress: Row): Promise<number> {
  const [row] = await db('task_progress')
    .where({ account_id: progress.account_id, linked_schema_record_id: progress.id, task_progress_status: 'completed' })
    .count({ n: '*' });
  return Number(row?.n ?? 0);
}
