import { createHash } from 'node:crypto';

/**
 * A member's place in a definition's holdout (CONTRACT §18): the first four bytes of SHA-256 of
 * `<definition id>:<externalId>` as an unsigned big-endian integer over 2^32, so any client computes
 * the same group, it never changes while the percent stays, and raising the percent only adds members.
 */
export function holdoutPosition(definitionId: string, externalId: string): number {
  return createHash('sha256').update(`${definitionId}:${externalId}`, 'utf8').digest().readUInt32BE(0) / 2 ** 32;
}

/** Whether the member is held out of the definition. */
export function isHeldOut(definition: { id: string; holdout_percent: number }, externalId: string): boolean {
  return definition.holdout_percent > 0 && holdoutPosition(definition.id, externalId) < definition.holdout_percent / 100;
}

/** The ids of `holdouts` (an account's definitions with a holdout) the member is held out of. */
export const heldOutOf = (holdouts: readonly { id: string; holdout_percent: number }[], externalId: string): string[] =>
  holdouts.filter((d) => isHeldOut(d, externalId)).map((d) => d.id);

/** An account's definitions with a holdout (`id`, `holdout_percent`), the account id's SQL once per kind. */
export const holdoutsSql = (accountId: string) =>
  ['streak', 'challenge', 'mission']
    .map((table) => `select id, holdout_percent from ${table} where account_id = ${accountId} and holdout_percent > 0`)
    .join(' union all ');

/**
 * The ids of the definitions a member is held out of, as a JSON array, `isHeldOut` in SQL: given
 * the SQL of the account's id (placed once per kind) and of the member's externalId.
 */
export const heldOutOfSql = (accountId: string, externalId: string) =>
  `(select coalesce(json_agg(d.id), '[]'::json) from (${holdoutsSql(accountId)}) d ` +
  `where loyalty_holdout_position(d.id, ${externalId}) < d.holdout_percent / 100.0)`;
