import type { Knex } from 'knex';

/**
 * When a run's or a window's value was reached, kept on the progress itself: a board built from the
 * progress (a new board, or one rebuilt after a holdout change) ordered tied members by the row's
 * `updated_at`, which also moves when the value does not (a log that completes no period, a break,
 * a window failing), while the standings' triggers keep the moment the value changed. Tied members
 * were listed the other way round from a board kept since before (CONTRACT §15: whoever reached the
 * value first comes first). Rows written before keep their `updated_at` as the best there is.
 */
const PROGRESS = ['streak_progress', 'challenge_progress'];

/** The builders as they stand, their reads of `updated_at` as the moment a value was reached changed to this column. */
const BUILDERS: { fn: string; reads: [string, string][] }[] = [
  {
    fn: 'loyalty_standings_build_batch(uuid, uuid, text, uuid, integer)',
    reads: [
      [
        'select current_progress_value as value, updated_at as at from streak_progress p',
        'select current_progress_value as value, coalesce(value_reached_at, updated_at) as at from streak_progress p',
      ],
      [
        'order by current_progress_value desc, updated_at limit 1',
        'order by current_progress_value desc, coalesce(value_reached_at, updated_at) limit 1',
      ],
      [
        'select p.period_key, p.owned_by_id, p.current_progress_value, p.updated_at from',
        'select p.period_key, p.owned_by_id, p.current_progress_value, coalesce(p.value_reached_at, p.updated_at) from',
      ],
    ],
  },
  {
    fn: 'loyalty_standings_rebuild_progress(uuid, uuid, text, uuid)',
    reads: [
      ['owned_by_id, current_progress_value, updated_at', 'owned_by_id, current_progress_value, coalesce(value_reached_at, updated_at)'],
      [
        'order by owned_by_id, current_progress_value desc, updated_at;',
        'order by owned_by_id, current_progress_value desc, coalesce(value_reached_at, updated_at);',
      ],
    ],
  },
];

/** Redefines `fn` with each `from` of `reads` (which must be there) replaced by its `to`. */
async function rewrite(db: Knex, fn: string, reads: [string, string][]): Promise<void> {
  const { rows } = await db.raw<{ rows: { def: string }[] }>('select pg_get_functiondef(?::regprocedure) as def', [fn]);
  let def = rows[0]!.def;
  for (const [from, to] of reads) {
    if (!def.includes(from)) throw new Error(`${fn} does not read "${from}"`);
    def = def.split(from).join(to);
  }
  await db.raw(def.replaceAll('?', '\\?'));
}

export async function up(db: Knex): Promise<void> {
  await db.raw(`create function loyalty_value_reached() returns trigger language plpgsql as $$
    begin
      new.value_reached_at := new.updated_at;
      return new;
    end $$`);
  for (const table of PROGRESS) {
    await db.raw(`alter table ${table} add column value_reached_at timestamptz`);
    await db.raw(`create trigger ${table}_value_reached_on_insert before insert on ${table}
      for each row execute function loyalty_value_reached()`);
    await db.raw(`create trigger ${table}_value_reached before update on ${table}
      for each row when (new.current_progress_value is distinct from old.current_progress_value) execute function loyalty_value_reached()`);
  }
  for (const { fn, reads } of BUILDERS) await rewrite(db, fn, reads);
}

export async function down(db: Knex): Promise<void> {
  for (const { fn, reads } of BUILDERS)
    await rewrite(
      db,
      fn,
      reads.map(([from, to]) => [to, from]),
    );
  for (const table of PROGRESS) {
    await db.raw(`drop trigger ${table}_value_reached on ${table}`);
    await db.raw(`drop trigger ${table}_value_reached_on_insert on ${table}`);
    await db.raw(`alter table ${table} drop column value_reached_at`);
  }
  await db.raw('drop function loyalty_value_reached()');
}
