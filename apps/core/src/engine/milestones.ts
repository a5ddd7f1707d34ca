import type { Knex } from 'knex';
import type { Row } from '../records/resource.js';

/** Live milestones of a definition, ascending by target. */
export async function liveMilestones(trx: Knex, accountId: string, definitionId: string): Promise<Row[]> {
  return trx('milestone')
    .where({ account_id: accountId, linked_schema_record_id: definitionId, status: 'live' })
    .orderBy('milestone_target_value', 'asc');
}

/** Milestones a move from `before` to `after` crosses: below the target before, at or above it after. */
export function crossed(milestones: Row[], before: number, after: number): Row[] {
  return milestones.filter((m) => before < (m.milestone_target_value as number) && (m.milestone_target_value as number) <= after);
}

/** The lowest live milestone still ahead of `value`. */
export function nextMilestone(milestones: Row[], value: number): Row | null {
  return milestones.find((m) => (m.milestone_target_value as number) > value) ?? null;
}
