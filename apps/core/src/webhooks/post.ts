import type { Resolver } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { classifyAddress, resolveAddresses } from './addresses.js';

export interface PostOptions {
  timeoutMs: number;
  resolver: Resolver;
  allowPrivate: boolean;
}

export interface PostResult {
  status: number;
}

/** Errors whose message is safe to store in `lastError`: no secrets ever reach them. */
export class DeliveryError extends Error {}

const MAX_RESPONSE_BYTES = 64 * 1024;
/** Kept-alive connections per receiver: bursts of deliveries do not open (and strand) a socket each. */
const agents = { http: new http.Agent({ keepAlive: true, maxSockets: 32 }), https: new https.Agent({ keepAlive: true, maxSockets: 32 }) };

/**
 * Resolves with our resolver and connects to the address it checked, so a host cannot answer one
 * address to the check and another to the connection (DNS rebinding).
 */
function pinnedLookup(resolver: Resolver): LookupFunction {
  return (hostname, options, callback) => {
    resolveAddresses(hostname, resolver).then(
      (addresses) => {
        if (!addresses.length) return callback(new DeliveryError(`${hostname} does not resolve`), '', 4);
        const refused = addresses.find((a) => classifyAddress(a) !== 'public');
        if (refused) return callback(new DeliveryError(`${hostname} resolves to a non-public address (${refused})`), '', 4);
        const address = addresses[0]!;
        if (options.all)
          return (callback as unknown as (e: null, list: { address: string; family: number }[]) => void)(null, [
            { address, family: isIP(address) },
          ]);
        callback(null, address, isIP(address));
      },
      (err: unknown) => callback(err as NodeJS.ErrnoException, '', 4),
    );
  };
}

/** POSTs a body; never follows redirects; the whole exchange must finish within the time-out. */
export function postJson(url: string, body: string, headers: Record<string, string>, options: PostOptions): Promise<PostResult> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!options.allowPrivate) {
    const literal = classifyAddress(host);
    if (literal && literal !== 'public') return Promise.reject(new DeliveryError(`${host} is a ${literal} address`));
    if (host === 'localhost' || host.endsWith('.localhost')) return Promise.reject(new DeliveryError(`${host} is a loopback address`));
  }
  const secure = target.protocol === 'https:';
  const client = secure ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(body), 'user-agent': 'loyalty-webhooks/1.0' },
        lookup: options.allowPrivate ? undefined : pinnedLookup(options.resolver),
        signal: AbortSignal.timeout(options.timeoutMs),
        agent: secure ? agents.https : agents.http,
      },
      (res) => {
        let received = 0;
        res.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_RESPONSE_BYTES) res.destroy();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
        res.on('close', () => resolve({ status: res.statusCode ?? 0 }));
        res.on('error', () => resolve({ status: res.statusCode ?? 0 }));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err instanceof DeliveryError) return reject(err);
      if (err.name === 'TimeoutError' || err.name === 'AbortError')
        return reject(new DeliveryError(`no answer within ${options.timeoutMs} ms`));
      reject(new DeliveryError(err.code ? `${err.code}: connection failed` : 'connection failed'));
    });
    req.end(body);
  });
}
