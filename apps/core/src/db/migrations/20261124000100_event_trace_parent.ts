import type { Knex } from 'knex';

/**
 * The W3C traceparent of the request that wrote an event (null when it was not traced), so the
 * worker's delivery span joins that request's trace.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('event_log', (t) => {
    t.text('trace_parent');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('event_log', (t) => {
    t.dropColumn('trace_parent');
  });
}
