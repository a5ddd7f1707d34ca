import type pg from 'pg';
import { accountClient, CoreError } from '../core/client.server';
import { type LogInput, transient, writeLog } from '../core/logs.server';
import type { CustomerInfo } from '../shopify/admin-api.server';
import { customerGid, memberOfCustomer } from '../shopify/customer-ids.server';
import type { EarningRulesStore } from '../storage/earning-rules.server';
import type { ShopAccount } from '../storage/shops.server';
import { liveNow, visitFeeds } from './feeds.server';

/**
 * A storefront visit of a signed-in shopper (CONTRACT §17 Visits): at most one a day per member, as a
 * log for each live streak whose earning rule is visits. The day is the shop's, which the member's
 * periods follow unless they have a time zone of their own; the log's uniqueIdentifier names the
 * customer and the day, so two visits at once still count once.
 */
export interface VisitDeps {
  pool: () => pg.Pool;
  rules: EarningRulesStore;
  coreUrl: string;
  /** The customer as Shopify knows them, so a member first met on a visit has a name in the admin; none without the shop's Admin API. */
  customer?: (gid: string) => Promise<CustomerInfo | null>;
}

/** The member a visit's logs name: with the customer's names and language when Shopify gives them; a failed lookup costs the visit nothing. */
async function visitor(deps: VisitDeps, gid: string): Promise<LogInput['ownedBy']> {
  const found = await deps.customer?.(gid).catch(() => null);
  return found ? memberOfCustomer(gid, found) : { externalId: gid };
}

/** The calendar day of `at` in `timezone`, `YYYY-MM-DD`. */
function dayIn(timezone: string, at = new Date()): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
  } catch {
    return at.toISOString().slice(0, 10);
  }
}

export async function recordVisit(
  deps: VisitDeps,
  account: ShopAccount,
  customerId: string,
  timezone: string,
): Promise<{ counted: boolean; logs: number } | { unavailable: true }> {
  const day = dayIn(timezone);
  const seen = await deps
    .pool()
    .query('select 1 from storefront_visits where shop = $1 and customer_id = $2 and day = $3', [account.shop, customerId, day]);
  if (seen.rowCount) return { counted: false, logs: 0 };
  const api = accountClient(deps.coreUrl, account);
  let logs = 0;
  try {
    const feeds = await visitFeeds(liveNow(api), await deps.rules.rules(account.shop));
    // Asked of Shopify only when a log will name the member: at most once a shopper a day.
    const ownedBy = feeds.length ? await visitor(deps, customerGid(customerId)) : { externalId: customerGid(customerId) };
    for (const feed of feeds) {
      const outcome = await writeLog(api, 'streak', {
        definitionId: feed.definitionId,
        ownedBy,
        activityId: feed.activityId,
        activityAt: new Date().toISOString(),
        activityValue: 1,
        uniqueIdentifier: `visit:${customerId}:${day}`,
      });
      if (outcome.written) logs += 1;
    }
  } catch (err) {
    if (!(err instanceof CoreError)) throw err;
    // A lasting refusal (the shop's key revoked, say) is the app's to mend, not the shopper's: said
    // in the log, and the visit is tried again at the next page, as after an outage.
    if (!transient(err.status)) console.error(`[loyalty] the core refused a visit for ${account.shop}: HTTP ${err.status}`);
    return { unavailable: true };
  }
  // Kept once the logs are: a visit the core did not take is tried again at the next page. Of visits
  // that raced here, the one that keeps the day is the one counted.
  const kept = await deps
    .pool()
    .query('insert into storefront_visits (shop, customer_id, day) values ($1, $2, $3) on conflict do nothing', [
      account.shop,
      customerId,
      day,
    ]);
  return { counted: kept.rowCount === 1, logs };
}
