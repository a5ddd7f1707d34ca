import type { Knex } from 'knex';

const LOGS = ['streak_log', 'challenge_log', 'mission_log'];
const DEFINITIONS = ['streak', 'challenge', 'mission'];

/**
 * Holdouts and why a log did not count (CONTRACT §18). Logs stored before the reason was kept get
 * the one that can still be told (their own status); the others stay null.
 */
export async function up(db: Knex): Promise<void> {
  // A member's place in a definition's holdout, as engine/holdout.ts computes it: the first four
  // bytes of SHA-256 of `<definition id>:<externalId>`, unsigned big-endian, over 2^32.
  await db.raw(`create function loyalty_holdout_position(definition_id uuid, external_id text) returns double precision
    language sql immutable strict parallel safe as
    $$ select ('x' || lpad(left(encode(sha256(convert_to(definition_id::text || ':' || external_id, 'UTF8')), 'hex'), 8), 16, '0'))::bit(64)::bigint
         / 4294967296.0 $$`);
  for (const definition of DEFINITIONS) await db.raw('alter table ?? add column holdout_percent integer not null default 0', [definition]);
  for (const log of LOGS) {
    await db.raw('alter table ?? add column not_aggregated_reason text', [log]);
    await db.raw(`update ?? set not_aggregated_reason = 'log_not_live' where not is_aggregated and status <> 'live'`, [log]);
  }
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop function loyalty_holdout_position(uuid, text)');
  for (const log of LOGS) await db.raw('alter table ?? drop column not_aggregated_reason', [log]);
  for (const definition of DEFINITIONS) await db.raw('alter table ?? drop column holdout_percent', [definition]);
}
