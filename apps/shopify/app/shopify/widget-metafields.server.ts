import { type AccountClient, CoreError } from '../core/client.server';
import { records } from '../core/records.server';
import { type AdminGraphql, deleteMetafields, fetchShopId, type MetafieldInput, setMetafields } from './admin-api.server';
import { POINTS_METAFIELD, storefrontPoints } from './points-metafield.server';

/**
 * The widget's display records as the theme app embed takes them (CONTRACT §13): the app writes
 * their ids into its own `$app:loyalty` shop metafields, beside `account_id` and `base_url`, so the
 * merchant only switches the embed on and never types an id.
 */

/** The app-owned namespace the embed reads (`shop.metafields['$app:loyalty']`). */
export const APP_NAMESPACE = '$app:loyalty';

/** Each id the embed takes: its key in the loaders, its metafield key, and the resource whose live record it is. */
export const WIDGET_RECORDS = [
  { key: 'templateId', metafield: 'template_id', slug: 'template' },
  { key: 'themeId', metafield: 'theme_id', slug: 'theme' },
  { key: 'floatingWidgetId', metafield: 'floating_widget_id', slug: 'floating_widget' },
] as const;

export type WidgetSlug = (typeof WIDGET_RECORDS)[number]['slug'];
export type WidgetIds = { [K in (typeof WIDGET_RECORDS)[number]['key']]: string | null };

/** Whether a change to records of `slug` can change what the theme extension takes: the embed's records, or tiers (the points block's multipliers). */
export const onStorefront = (slug: string): boolean => WIDGET_RECORDS.some((r) => r.slug === slug) || slug === 'tier';

/** The oldest live launcher, theme and template of the account: the records the embed shows. */
export async function liveWidgetIds(api: AccountClient): Promise<WidgetIds> {
  const first = async (slug: WidgetSlug) => {
    const list = await records(api, slug).list({
      filters: { operator: 'and', conditions: [{ fieldSlug: 'status', operator: 'equals', fieldValue: 'live' }] },
      sortBy: [{ fieldSlug: 'createdAt', order: 'ASC' }],
      limit: 1,
    });
    if (!list.ok) throw new CoreError(list.failure.status);
    return list.data[0]?.id ?? null;
  };
  const [templateId, themeId, floatingWidgetId] = await Promise.all(WIDGET_RECORDS.map((r) => first(r.slug)));
  return { templateId: templateId ?? null, themeId: themeId ?? null, floatingWidgetId: floatingWidgetId ?? null };
}

/** The `$app:loyalty` metafields of the ids there are, and the keys of those there are not. */
export function widgetMetafields(shopId: string, ids: WidgetIds): { set: MetafieldInput[]; absent: string[] } {
  const set: MetafieldInput[] = [];
  const absent: string[] = [];
  for (const r of WIDGET_RECORDS) {
    const value = ids[r.key];
    if (value) set.push({ ownerId: shopId, namespace: APP_NAMESPACE, key: r.metafield, type: 'single_line_text_field', value });
    else absent.push(r.metafield);
  }
  return { set, absent };
}

/**
 * Writes the account's live widget ids and what the product page's points block takes
 * (points-metafield.server.ts) to the app-owned metafields, and deletes those there is nothing for
 * (Shopify refuses a blank value; a stale id would show a record the merchant took down, stale
 * rates a promise the program no longer keeps), so that the storefront shows what the admin shows.
 * Idempotent: both mutations are upserts/deletes by key.
 */
export async function writeWidgetMetafields(admin: AdminGraphql, api: AccountClient, excludedTags: readonly string[]): Promise<WidgetIds> {
  const [shopId, ids, points] = await Promise.all([fetchShopId(admin), liveWidgetIds(api), storefrontPoints(api, excludedTags)]);
  const { set, absent } = widgetMetafields(shopId, ids);
  if (points) set.push({ ownerId: shopId, namespace: APP_NAMESPACE, key: POINTS_METAFIELD, type: 'json', value: JSON.stringify(points) });
  else absent.push(POINTS_METAFIELD);
  if (set.length) await setMetafields(admin, set);
  if (absent.length) await deleteMetafields(admin, shopId, APP_NAMESPACE, absent);
  return ids;
}
