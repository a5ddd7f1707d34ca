import type { AccountClient } from '../core/client.server';
import type { AdminGraphql } from '../shopify/admin-api.server';
import { writeWidgetMetafields } from '../shopify/widget-metafields.server';
import { excludedTags } from '../earning/exclusions.server';
import { pool } from '../storage/pool.server';

/**
 * Keeps the theme app extension's `$app:loyalty` metafields (shopify/widget-metafields.server.ts) in
 * step with the admin: written after every admin change to the records the embed takes or to what
 * the points block says (the points settings, tiers), and once
 * per shop and process when the admin opens, for installs made before the embed read them and for
 * a write that failed.
 */

/** Shops whose metafields this process has written since it started. */
const written = new Set<string>();

/**
 * Writes the shop's widget ids; best effort, since the merchant's change is already saved in the
 * core: a failure is logged and the admin's next opening writes them again.
 */
export async function syncWidgetMetafields(shop: string, admin: AdminGraphql, api: AccountClient): Promise<void> {
  written.add(shop);
  try {
    await writeWidgetMetafields(admin, api, await excludedTags(pool(), shop));
  } catch (err) {
    written.delete(shop);
    console.error(`[loyalty] could not write the widget metafields for ${shop}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** When the admin opens: the shop's widget ids, unless this process has written them already. */
export async function repairWidgetMetafields(shop: string, admin: AdminGraphql, api: AccountClient): Promise<void> {
  if (written.has(shop)) return;
  await syncWidgetMetafields(shop, admin, api);
}
