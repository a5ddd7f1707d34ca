import type pg from 'pg';

export const formerly = '006_flow_action_runs';

/**
 * Flow actions the core cannot deduplicate itself (grant-streak-freezes): the answer of each run,
 * so a retried action_run_id is answered without granting again.
 */
export async function up(db: pg.ClientBase): Promise<void> {
  await db.query(`create table flow_action_runs (
    shop text not null,
    run_key text not null,
    answer jsonb,
    created_at timestamptz not null default now(),
    primary key (shop, run_key)
  )`);
}
