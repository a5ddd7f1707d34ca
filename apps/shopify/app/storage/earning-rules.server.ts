import type pg from 'pg';

/** What feeds a streak or challenge by itself (CONTRACT §17): paid orders, or storefront visits (streaks only). */
export type EarningSource = 'orders' | 'visits';

export interface EarningRule {
  kind: 'streak' | 'challenge';
  definitionId: string;
  source: EarningSource;
  /** A challenge's order amounts count only products of these collections (GIDs); empty: every product. */
  collectionIds: string[];
}

interface RuleRow {
  kind: 'streak' | 'challenge';
  definition_id: string;
  source: EarningSource;
  collection_ids: string[];
}

const ruleOf = (r: RuleRow): EarningRule => ({
  kind: r.kind,
  definitionId: r.definition_id,
  source: r.source,
  collectionIds: r.collection_ids,
});

/** The shop's earning rules, one per definition at most. */
export class EarningRulesStore {
  constructor(private readonly db: () => pg.Pool) {}

  async rules(shop: string): Promise<EarningRule[]> {
    const { rows } = await this.db().query<RuleRow>(
      'select kind, definition_id, source, collection_ids from earning_rules where shop = $1',
      [shop],
    );
    return rows.map(ruleOf);
  }

  async rule(shop: string, definitionId: string): Promise<EarningRule | null> {
    const { rows } = await this.db().query<RuleRow>(
      'select kind, definition_id, source, collection_ids from earning_rules where shop = $1 and definition_id = $2',
      [shop, definitionId],
    );
    return rows[0] ? ruleOf(rows[0]) : null;
  }

  /** Sets the definition's rule; null removes it (nothing feeds the definition by itself). */
  async set(shop: string, definitionId: string, rule: Omit<EarningRule, 'definitionId'> | null): Promise<void> {
    if (!rule) {
      await this.db().query('delete from earning_rules where shop = $1 and definition_id = $2', [shop, definitionId]);
      return;
    }
    await this.db().query(
      `insert into earning_rules (shop, kind, definition_id, source, collection_ids) values ($1, $2, $3, $4, $5)
       on conflict (shop, definition_id) do update set kind = excluded.kind, source = excluded.source,
         collection_ids = excluded.collection_ids, updated_at = now()`,
      [shop, rule.kind, definitionId, rule.source, JSON.stringify(rule.collectionIds)],
    );
  }
}
