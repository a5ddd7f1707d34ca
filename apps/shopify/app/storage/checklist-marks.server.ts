import type pg from 'pg';

export type MarkableStep = 'automate' | 'preview';

export interface ChecklistMarks {
  automate: boolean;
  preview: boolean;
  /** The merchant's choice to show (true) or fold (false) the checklist; null: shown until done. */
  open: boolean | null;
}

/** The dashboard checklist's steps a merchant ticks and whether it is shown, per shop. */
export class ChecklistMarksStore {
  constructor(private readonly db: () => pg.Pool) {}

  async marks(shop: string): Promise<ChecklistMarks> {
    const { rows } = await this.db().query<{ automate_done: boolean; preview_done: boolean; checklist_open: boolean | null }>(
      'select automate_done, preview_done, checklist_open from onboarding_checklists where shop = $1',
      [shop],
    );
    const row = rows[0];
    return { automate: row?.automate_done ?? false, preview: row?.preview_done ?? false, open: row?.checklist_open ?? null };
  }

  async mark(shop: string, step: MarkableStep, done: boolean): Promise<void> {
    const column = step === 'automate' ? 'automate_done' : 'preview_done';
    await this.db().query(
      `insert into onboarding_checklists (shop, ${column}) values ($1, $2)
       on conflict (shop) do update set ${column} = excluded.${column}, updated_at = now()`,
      [shop, done],
    );
  }

  async setOpen(shop: string, open: boolean): Promise<void> {
    await this.db().query(
      `insert into onboarding_checklists (shop, checklist_open) values ($1, $2)
       on conflict (shop) do update set checklist_open = excluded.checklist_open, updated_at = now()`,
      [shop, open],
    );
  }
}
