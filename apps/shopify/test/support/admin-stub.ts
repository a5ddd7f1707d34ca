import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the Admin GraphQL endpoint: a real HTTP server that answers the app's few
 * operations (shop, customer, metafieldsSet) from in-memory data and records what it was asked.
 */
export interface AdminStub {
  origin: string;
  customers: Map<string, { firstName: string | null; lastName: string | null; email: string | null }>;
  metafields: Map<string, string>;
  requests: { operation: string; variables: Record<string, unknown> }[];
  /** When set, every request answers this HTTP status. */
  failWith: number | null;
  close(): Promise<void>;
}

export const STUB_SHOP = { id: 'gid://shopify/Shop/424242', name: 'Test Shop', ianaTimezone: 'Europe/Paris' };

export async function startAdminStub(): Promise<AdminStub> {
  const stub: Omit<AdminStub, 'origin' | 'close'> = { customers: new Map(), metafields: new Map(), requests: [], failWith: null };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (stub.failWith) return send(stub.failWith, { errors: 'stubbed failure' });
      if (!/^\/admin\/api\/[^/]+\/graphql\.json$/.test(req.url ?? '') || !req.headers['x-shopify-access-token']) return send(404, { errors: 'Not Found' });
      const { query, variables = {} } = JSON.parse(raw) as { query: string; variables?: Record<string, unknown> };
      const operation = /(?:query|mutation)\s+(\w+)/.exec(query)?.[1] ?? 'anonymous';
      stub.requests.push({ operation, variables });
      if (operation === 'LoyaltyShop') return send(200, { data: { shop: STUB_SHOP } });
      if (operation === 'LoyaltyCustomer') {
        const id = String(variables.id);
        const customer = stub.customers.get(id);
        return send(200, { data: { customer: customer ? { id, ...customer } : null } });
      }
      if (operation === 'LoyaltyMetafields') {
        const list = variables.metafields as { ownerId: string; namespace: string; key: string; value: string }[];
        for (const m of list) stub.metafields.set(`${m.ownerId}|${m.namespace}|${m.key}`, m.value);
        return send(200, { data: { metafieldsSet: { metafields: list.map((_, i) => ({ id: `gid://shopify/Metafield/${i + 1}` })), userErrors: [] } } });
      }
      return send(200, { errors: [{ message: `the stub does not know ${operation}` }] });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(stub, {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
