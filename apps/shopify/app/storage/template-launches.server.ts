import { randomUUID } from 'node:crypto';
import type pg from 'pg';

/** A record a template made, by the template's key for it. */
export interface TemplateRecord {
  key: string;
  slug: string;
  recordId: string;
}

/** How long a launch may hold its template before another one may take over (a crashed process's). */
const STALE_AFTER_SECONDS = 120;

/**
 * What the onboarding's templates created per shop, and which launch of a template is running
 * (at most one per shop and template: the database decides, by the row's primary key).
 */
export class TemplateLaunchesStore {
  constructor(private readonly db: () => pg.Pool) {}

  /**
   * Claims the template's launch; answers the claim (to release it with) or null while another
   * launch of it runs. A claim older than two minutes is a crashed launch's: taken over.
   */
  async claim(shop: string, template: string): Promise<string | null> {
    const { rows } = await this.db().query<{ claim: string }>(
      `insert into template_launches (shop, template, claim) values ($1, $2, $3)
       on conflict (shop, template) do update set claim = excluded.claim, started_at = now()
         where template_launches.started_at < now() - make_interval(secs => $4)
       returning claim`,
      [shop, template, randomUUID(), STALE_AFTER_SECONDS],
    );
    return rows[0]?.claim ?? null;
  }

  /** Ends the launch of this claim (not one that took over since). */
  async release(shop: string, template: string, claim: string): Promise<void> {
    await this.db().query('delete from template_launches where shop = $1 and template = $2 and claim = $3', [shop, template, claim]);
  }

  async records(shop: string, template: string): Promise<TemplateRecord[]> {
    const { rows } = await this.db().query<{ key: string; slug: string; record_id: string }>(
      'select key, slug, record_id from template_records where shop = $1 and template = $2 order by created_at, key',
      [shop, template],
    );
    return rows.map((r) => ({ key: r.key, slug: r.slug, recordId: r.record_id }));
  }

  /** Keeps (or replaces) the record the template made for `key`. */
  async keep(shop: string, template: string, record: TemplateRecord): Promise<void> {
    await this.db().query(
      `insert into template_records (shop, template, key, slug, record_id) values ($1, $2, $3, $4, $5)
       on conflict (shop, template, key) do update set slug = excluded.slug, record_id = excluded.record_id, created_at = now()`,
      [shop, template, record.key, record.slug, record.recordId],
    );
  }

  /** Forgets the template's records for these keys (undone, or gone from the core). */
  async forget(shop: string, template: string, keys: string[]): Promise<void> {
    if (!keys.length) return;
    await this.db().query('delete from template_records where shop = $1 and template = $2 and key = any($3)', [shop, template, keys]);
  }
}
