import { createServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface DatabaseGate {
  /**
   * Until `restore`, the database is out of connections: the ones open are dropped, and each new one
   * is refused as PostgreSQL refuses a client past `max_connections` (FATAL 53300, "sorry, too many
   * clients already").
   */
  full(): { restore(): void };
  /**
   * Until `restore`, the database does not answer, as behind a failover or a network partition: the
   * connections open are dropped, and each new one is accepted and never answered.
   */
  silent(): { restore(): void };
}

/** PostgreSQL's ErrorResponse message: 'E', its length, then each field as a type byte and a C string, then a zero byte. */
function errorResponse(fields: Record<string, string>): Buffer {
  const body = Buffer.concat([
    ...Object.entries(fields).map(([type, value]) => Buffer.from(`${type}${value}\0`, 'utf8')),
    Buffer.from([0]),
  ]);
  const head = Buffer.alloc(5);
  head.write('E', 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

const TOO_MANY_CLIENTS = errorResponse({ S: 'FATAL', V: 'FATAL', C: '53300', M: 'sorry, too many clients already' });

/**
 * A TCP forwarder in front of the PostgreSQL server of `databaseUrl`; answers the same URL through it.
 * The process under test (the core, the Shopify app) reaches its database through the gate, the test
 * reaches it directly.
 */
export async function startDatabaseGate(databaseUrl: string): Promise<DatabaseGate & { url: string; close(): Promise<void> }> {
  const target = new URL(databaseUrl);
  const open = new Set<Socket>();
  let mode: 'open' | 'full' | 'silent' = 'open';
  const server = createServer((client) => {
    open.add(client);
    client.on('close', () => open.delete(client));
    client.on('error', () => undefined);
    // PostgreSQL reads the startup message before it refuses.
    if (mode === 'full') client.once('data', () => client.end(TOO_MANY_CLIENTS));
    if (mode !== 'open') return;
    const upstream = connect(Number(target.port || 5432), target.hostname);
    open.add(upstream);
    upstream.on('close', () => {
      open.delete(upstream);
      client.destroy();
    });
    upstream.on('error', () => undefined);
    client.on('close', () => upstream.destroy());
    client.pipe(upstream).pipe(client);
  });
  const become = (next: typeof mode) => {
    mode = next;
    for (const socket of open) socket.destroy();
    // What was accepted while silent stays silent, as behind a real partition: a client must give up on it itself.
    return { restore: () => (mode = 'open') };
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.toString(),
    full: () => become('full'),
    silent: () => become('silent'),
    close() {
      for (const socket of open) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
