import type { Knex } from 'knex';
import type { Config } from '../config.js';
import { conflict, type ErrorDetail, invalidInput } from '../errors.js';
import { isPublicFlow } from '../records/context.js';
import type { LoadArgs } from '../records/fields.js';
import { defineResource, type Row } from '../records/resource.js';
import { capFreezes } from '../engine/streak.js';
import { type BoardKind, rerankAfterHoldout } from '../engine/standings.js';
import {
  type ChallengeRow,
  challengeFields,
  type MilestoneRow,
  milestoneFields,
  type MissionRow,
  missionFields,
  type PARENTS,
  type StreakRow,
  streakFields,
} from '../schema/definitions.js';
import { ADMIN, ADMIN_PUBLIC_READ } from './common.js';

/**
 * Live milestones of the loaded definitions, ascending by target. Guests and end users, who read
 * only rewards with a points cost, get each milestone's reward nested (its public fields; null
 * without one, or when it is not live), so the widget can say what a milestone earns. API-key reads and event payloads
 * (built by the engine) keep the milestone alone, with its rewardId.
 */
async function loadMilestones({ rows, ctx, db, wanted, serializeJoined }: LoadArgs): Promise<void> {
  if (!wanted.has('milestones')) return;
  const accounts = [...new Set(rows.map((r) => r.account_id))];
  const found = await db<MilestoneRow>('milestone')
    .whereIn('account_id', accounts)
    .whereIn(
      'linked_schema_record_id',
      rows.map((r) => r.id),
    )
    .where('status', 'live')
    .orderBy('milestone_target_value', 'asc');
  const joined = await serializeJoined('milestone', found);
  let serialized = joined;
  if (isPublicFlow(ctx)) {
    const rewardIds = [...new Set(found.flatMap((m) => (m.reward_id ? [m.reward_id] : [])))];
    // Sequential: inside a transaction these share one connection.
    // Live ones only, as the storefront reads rewards themselves: a draft reward is not shown yet.
    const rewardRows = rewardIds.length
      ? await db('reward').whereIn('account_id', accounts).whereIn('id', rewardIds).where('status', 'live')
      : [];
    // A nested milestone shows its id and public fields (CONTRACT §5): no timestamps. Its reward shows
    // what it gives, never its id (§5: no rewardId for them); the rewards a guest may redeem they list.
    const rewards = new Map((await serializeJoined('reward', rewardRows)).map(({ createdAt, updatedAt, id, ...shown }) => [id, shown]));
    serialized = joined.map(({ createdAt, updatedAt, ...shown }, i) => ({
      ...shown,
      reward: rewards.get(found[i]!.reward_id) ?? null,
    }));
  }
  for (const row of rows) {
    row.milestones = serialized.filter((_, i) => found[i]!.linked_schema_record_id === row.id);
  }
}

/** The highest live or paused milestone target of a definition (what an update must not strand). */
async function highestMilestone(trx: Knex, row: Row): Promise<number | undefined> {
  const found = await trx('milestone')
    .where({ account_id: row.account_id, linked_schema_record_id: row.id })
    .max({ max: 'milestone_target_value' })
    .first();
  return found?.max ?? undefined;
}

async function deleteMilestones(trx: Knex, row: Row): Promise<void> {
  await trx('milestone').where({ account_id: row.account_id, linked_schema_record_id: row.id }).delete();
}

/** Refuses a new target (`field`, described as `what`) below the highest milestone's. */
function strandCheck(target: unknown, highest: number | undefined, field: string, what: string): void {
  if (typeof target === 'number' && highest !== undefined && highest > target) {
    throw conflict(`A milestone targets ${highest}, above the new ${what} ${target}; change the milestone first.`, [
      { field, code: 'strands_milestone', message: `A milestone targets ${highest}.` },
    ]);
  }
}

/**
 * A streak's or challenge's period names every one of its progress records' periods and windows,
 * which later logs and the scheduler compare with their own: once a member has progress, a new
 * period would make them unreadable. A merchant who wants another period makes a new definition.
 */
async function periodCheck(trx: Knex, kind: 'streak' | 'challenge', period: unknown, existing: Row): Promise<void> {
  if (period === undefined || period === existing.aggregation_period) return;
  const used = await trx(`${kind}_progress`)
    .where({ account_id: existing.account_id, [`${kind}_id`]: existing.id })
    .first('id');
  if (used)
    throw conflict(`Members have progress on this ${kind}; its aggregationPeriod can no longer change. Create a new ${kind} instead.`, [
      { field: 'aggregationPeriod', code: 'in_use', message: `Members have progress in ${existing.aggregation_period} periods.` },
    ]);
}

/**
 * An end user does not see a definition they are held out of (CONTRACT §18): the group by the
 * database's own SHA-256 (`loyalty_holdout_position`, the same function as engine/holdout.ts).
 */
const notHeldOut = (table: string) => (member: string) =>
  `not (${table}.holdout_percent > 0 and exists (select 1 from account_user u where u.account_id = ${table}.account_id ` +
  `and u.id = ${member} and loyalty_holdout_position(${table}.id, u.external_id) < ${table}.holdout_percent / 100.0))`;

/**
 * A new holdout share re-ranks the definition's leaderboards (CONTRACT §18); `inlineMax` says up to
 * how many progress records that is done in the request.
 */
async function rerankOnHoldout(
  trx: Knex,
  kind: BoardKind,
  holdoutPercent: unknown,
  existing: { account_id: string; id: string; holdout_percent: number },
  inlineMax: number,
) {
  if (typeof holdoutPercent !== 'number' || holdoutPercent === existing.holdout_percent) return;
  // Written ahead of the update so that a re-rank in the request holds out by the new share.
  await trx(kind).where({ account_id: existing.account_id, id: existing.id }).update({ holdout_percent: holdoutPercent });
  await rerankAfterHoldout(trx, { accountId: existing.account_id, slug: kind, definitionId: existing.id }, inlineMax);
}

/** What streaks, challenges and missions take of the config: up to how many progress records a holdout change re-ranks their boards in the request. */
type Settings = Pick<Config, 'standingsInlineMax'>;

export const createStreak = (config: Settings) =>
  defineResource({
    slug: 'streak',
    table: 'streak',
    memberWhere: notHeldOut('streak'),
    description: 'Streaks: a behaviour repeated in consecutive periods (day, week or month).',
    access: ADMIN_PUBLIC_READ,
    publicScope: 'public',
    fields: streakFields,
    load: loadMilestones,
    async beforeUpdate({ trx, ctx, values, existing }) {
      await periodCheck(trx, 'streak', values.aggregationPeriod, existing!);
      if ('completionTargetValue' in values)
        strandCheck(values.completionTargetValue, await highestMilestone(trx, existing!), 'completionTargetValue', 'completionTargetValue');
      const maxFreezes = values.maxFreezes;
      if (typeof maxFreezes === 'number' && maxFreezes < Number(existing!.max_freezes))
        await capFreezes(trx, ctx.account!.id, String(existing!.id), maxFreezes, new Date());
      await rerankOnHoldout(trx, 'streak', values.holdoutPercent, existing!, config.standingsInlineMax);
    },
    beforeDelete: ({ trx, row }) => deleteMilestones(trx, row),
  });

export const createChallenge = (config: Settings) =>
  defineResource({
    slug: 'challenge',
    table: 'challenge',
    memberWhere: notHeldOut('challenge'),
    description: 'Challenges: a cumulative target within a calendar window.',
    access: ADMIN_PUBLIC_READ,
    publicScope: 'public',
    fields: challengeFields,
    validate(record) {
      const { startAt, endAt } = record;
      if (startAt && endAt && new Date(startAt) >= new Date(endAt)) {
        return [{ field: 'endAt', code: 'invalid', message: 'endAt must be after startAt.' }];
      }
      return [];
    },
    rules: { description: 'endAt, when set with startAt, must be after it (on update, as the record stands after the patch).' },
    load: loadMilestones,
    async beforeUpdate({ trx, values, existing }) {
      await periodCheck(trx, 'challenge', values.aggregationPeriod, existing!);
      if ('completionTargetValue' in values)
        strandCheck(values.completionTargetValue, await highestMilestone(trx, existing!), 'completionTargetValue', 'completionTargetValue');
      await rerankOnHoldout(trx, 'challenge', values.holdoutPercent, existing!, config.standingsInlineMax);
    },
    beforeDelete: ({ trx, row }) => deleteMilestones(trx, row),
  });

export const createMission = (config: Settings) =>
  defineResource({
    slug: 'mission',
    table: 'mission',
    memberWhere: notHeldOut('mission'),
    description: 'Missions: a set of tasks to finish within a window that starts with the first activity.',
    access: ADMIN_PUBLIC_READ,
    publicScope: 'public',
    fields: missionFields,
    load: loadMilestones,
    async beforeUpdate({ trx, values, existing }) {
      if (Array.isArray(values.tasks)) strandCheck(values.tasks.length, await highestMilestone(trx, existing!), 'tasks', 'number of tasks');
      await rerankOnHoldout(trx, 'mission', values.holdoutPercent, existing!, config.standingsInlineMax);
    },
    beforeDelete: ({ trx, row }) => deleteMilestones(trx, row),
  });

/** A milestone must be reachable: at most the parent's completion target, or its number of tasks. */
async function checkMilestone(
  trx: Knex,
  accountId: string,
  record: { linkedSchemaSlug: (typeof PARENTS)[number]; linkedSchemaRecordId: string; milestoneTargetValue: number },
): Promise<ErrorDetail[]> {
  const slug = record.linkedSchemaSlug;
  const key = { account_id: accountId, id: record.linkedSchemaRecordId };
  // A mission's milestones count its tasks; a streak's or challenge's, the completion target (null: endless).
  // Read under a share lock: an update of the parent, which checks its milestones under its row
  // lock, then waits for this milestone, or this one reads the parent as that update left it.
  const limit =
    slug === 'mission'
      ? (await trx<MissionRow>(slug).where(key).forShare().first())?.tasks.length
      : (await trx<StreakRow | ChallengeRow>(slug).where(key).forShare().first())?.completion_target_value;
  if (limit === undefined) {
    return [{ field: 'linkedSchemaRecordId', code: 'not_found', message: `No ${slug} record with id ${record.linkedSchemaRecordId}.` }];
  }
  const target = record.milestoneTargetValue;
  if (limit !== null && target > limit) {
    const what = slug === 'mission' ? 'the number of tasks' : 'the completionTargetValue';
    return [{ field: 'milestoneTargetValue', code: 'unreachable', message: `Must be at most ${limit}, ${what} of the ${slug}.` }];
  }
  return [];
}

export const milestone = defineResource({
  slug: 'milestone',
  table: 'milestone',
  description: 'Reward checkpoints on a streak, challenge or mission (for a mission the target counts completed tasks).',
  access: ADMIN,
  fields: milestoneFields,
  uniqueErrors: {
    milestone_target_unique: {
      status: 400,
      field: 'milestoneTargetValue',
      message: 'Another milestone of this parent has the same target.',
    },
  },
  async beforeCreate({ trx, ctx, values }) {
    const details = await checkMilestone(trx, ctx.account!.id, values);
    if (details.length) throw invalidMilestone(details);
  },
  async beforeUpdate({ trx, ctx, values, existing }) {
    // Required: validation refuses a null, so a patch either leaves the target or sets a number.
    const target = values.milestoneTargetValue;
    if (target === undefined || target === null) return;
    const details = await checkMilestone(trx, ctx.account!.id, {
      linkedSchemaSlug: existing!.linked_schema_slug,
      linkedSchemaRecordId: existing!.linked_schema_record_id,
      milestoneTargetValue: target,
    });
    if (details.length) throw invalidMilestone(details);
  },
});

const invalidMilestone = (details: ErrorDetail[]) => invalidInput('The milestone is invalid.', details);
