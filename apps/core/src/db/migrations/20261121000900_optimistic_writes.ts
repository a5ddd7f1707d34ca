import type { Knex } from 'knex';

/**
 * Raised by the engine's single write statement when a row it updates changed since it was read
 * (engine/writes.ts): the statement, and with it every write of the log, is undone, and the log
 * is aggregated again from fresh reads. serialization_failure is the state clients retry on.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    create function loyalty_expect_unchanged(unchanged boolean) returns boolean language plpgsql as $$
    begin
      if not unchanged then
        raise exception 'a row changed since it was read' using errcode = 'serialization_failure';
      end if;
      return true;
    end $$`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop function loyalty_expect_unchanged(boolean)');
}
