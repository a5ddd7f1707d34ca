import type pg from 'pg';

/**
 * What the onboarding's templates created (admin/onboarding/create-program.server.ts), so a launch
 * retried, or repeated, finds its records instead of making them again: one row per record a
 * template makes, by the template's own key for it ('reward:fixed500', 'tier:silver'). A launch
 * holds its template's row in template_launches while it runs, so two at once cannot both create.
 */
export async function up(db: pg.ClientBase): Promise<void> {
  await db.query(`create table template_launches (
    shop text not null,
    template text not null,
    claim uuid not null,
    started_at timestamptz not null default now(),
    primary key (shop, template)
  )`);
  await db.query(`create table template_records (
    shop text not null,
    template text not null,
    key text not null,
    slug text not null,
    record_id uuid not null,
    created_at timestamptz not null default now(),
    primary key (shop, template, key)
  )`);
}
