import type { Knex } from 'knex';

/**
 * A grant of freezes may carry a uniqueIdentifier, unique per account, so a client that lost the
 * answer (a Flow run retried after a timeout) can send it again without granting twice.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('alter table freeze_grant add column unique_identifier text');
  await db.raw(
    `create unique index freeze_grant_unique_identifier_unique on freeze_grant (account_id, unique_identifier)
      where unique_identifier is not null`,
  );
}

export async function down(db: Knex): Promise<void> {
  await db.raw('alter table freeze_grant drop column unique_identifier');
}
