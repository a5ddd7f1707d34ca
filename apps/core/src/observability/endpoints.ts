import { createServer } from 'node:http';
import { ConfigError } from '../config.js';
import type { Metrics } from './metrics.js';

export interface Endpoints {
  url: string;
  close(): Promise<void>;
}

/**
 * /metrics and /healthz for a process without the API (`loyalty worker`), on a port of its own,
 * so Prometheus scrapes every process and an orchestrator can probe it.
 */
export async function serveEndpoints(metrics: Metrics, host: string, port: number, portVariable: string): Promise<Endpoints> {
  const server = createServer((req, res) => {
    // As every API answer: no browser reads these as another type than they say.
    res.setHeader('x-content-type-options', 'nosniff');
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
    } else if (path === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    } else if (path === '/metrics') {
      metrics.registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
        () => res.writeHead(500).end(),
      );
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((ok, fail) =>
    server
      .once('listening', ok)
      .once('error', (err: NodeJS.ErrnoException) =>
        fail(err.code === 'EADDRINUSE' ? new ConfigError([`port ${port} on ${host} is in use: set ${portVariable} to another`]) : err),
      )
      .listen(port, host),
  );
  // A TCP server's address is an object once it listens (a string is a pipe's).
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://${host}:${bound}`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
