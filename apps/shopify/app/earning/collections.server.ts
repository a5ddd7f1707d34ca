import { type AdminGraphql, productCollections } from '../shopify/admin-api.server';

/**
 * Which collections an order's products are in, for challenges limited to some collections: asked
 * of the Admin API in one query per order and kept per process for a while, since a product rarely
 * changes collections and a busy shop sells the same products again and again.
 */
const KEEP_MS = 10 * 60_000;
const known = new Map<string, { at: number; collections: string[] }>();
/** Far above any shop's distinct products sold in KEEP_MS; past it, the oldest go first. */
const MAX_KEPT = 50_000;

const productGid = (id: string) => `gid://shopify/Product/${id}`;

/** The collection GIDs of each product (numeric ids), by product id. */
export async function collectionsOf(shop: string, productIds: readonly string[], admin: () => Promise<AdminGraphql>) {
  const now = Date.now();
  const result = new Map<string, string[]>();
  const missing: string[] = [];
  for (const id of new Set(productIds)) {
    const hit = known.get(`${shop}|${id}`);
    if (hit && now - hit.at < KEEP_MS) result.set(id, hit.collections);
    else missing.push(id);
  }
  for (let i = 0; i < missing.length; i += 100) {
    const chunk = missing.slice(i, i + 100);
    const found = await productCollections(await admin(), chunk.map(productGid));
    for (const id of chunk) {
      const collections = found.get(productGid(id)) ?? [];
      result.set(id, collections);
      known.delete(`${shop}|${id}`);
      known.set(`${shop}|${id}`, { at: now, collections });
    }
  }
  for (const key of known.keys()) {
    if (known.size <= MAX_KEPT) break;
    known.delete(key);
  }
  return result;
}
