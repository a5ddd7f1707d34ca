import type pg from 'pg';

export const formerly = '007_onboarding_checklists';

/**
 * The dashboard's first-run checklist: the steps a merchant ticks (automate, preview) and whether
 * the merchant folded or reopened it (null: shown until every step is done).
 */
export async function up(db: pg.ClientBase): Promise<void> {
  await db.query(`create table onboarding_checklists (
    shop text primary key,
    automate_done boolean not null default false,
    preview_done boolean not null default false,
    checklist_open boolean,
    updated_at timestamptz not null default now()
  )`);
}
