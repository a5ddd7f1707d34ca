import type { Knex } from 'knex';
import type { MilestoneRow } from '../schema/definitions.js';

/** Live milestones of a definition, ascending by target. */
export async function liveMilestones(trx: Knex, accountId: string, definitionId: string): Promise<MilestoneRow[]> {
  return trx<MilestoneRow>('milestone')
    .where({ account_id: accountId, linked_schema_record_id: definitionId, status: 'live' })
    .orderBy('milestone_target_value', 'asc');
}

/** Milestones a move from `before` to `after` crosses: below the target before, at or above it after. */
export function crossed(milestones: MilestoneRow[], before: number, after: number): MilestoneRow[] {
  return milestones.filter((m) => before < m.milestone_target_value && m.milestone_target_value <= after);
}

/** The lowest live milestone still ahead of `value`. */
export function nextMilestone(milestones: MilestoneRow[], value: number): MilestoneRow | null {
  return milestones.find((m) => m.milestone_target_value > value) ?? null;
}
