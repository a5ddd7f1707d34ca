import type { Knex } from 'knex';

/**
 * A redemption's uniqueIdentifier, kept on its `redeemed` entry, is unique among redemptions
 * (CONTRACT §19), and the identifiers of the entries a client writes (earned, adjusted, their
 * reversals) among those: two namespaces, so a redemption and an adjustment that happen to share
 * an identifier neither refuse each other nor answer as the other's replay.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('drop index point_entry_unique_identifier_unique');
  await db.raw(
    `create unique index point_entry_unique_identifier_unique on point_entry (account_id, (reason = 'redeemed'), unique_identifier)
      where unique_identifier is not null`,
  );
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop index point_entry_unique_identifier_unique');
  await db.raw(
    `create unique index point_entry_unique_identifier_unique on point_entry (account_id, unique_identifier)
      where unique_identifier is not null`,
  );
}
