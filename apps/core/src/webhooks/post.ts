import type { Resolver } from 'node:dns/promises';
import { EventEmitter } from 'node:events';
import { isIP, type LookupFunction } from 'node:net';
import { Agent } from 'undici';
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
/**
 * Kept-alive connections per receiver: bursts of deliveries do not open (and strand) a socket
 * each. As many as a worker has lanes (delivery.ts, DELIVERY_WIDTH): accounts share receivers (an
 * automation platform's host), and those whose endpoints there hang hold only their own lanes, never
 * every connection to it; nor does a delivery's time-out run while it waits for a connection.
 */
export const CONNECTIONS_PER_RECEIVER = 512;
/**
 * undici rather than node:http: a delivery costs the worker about half the CPU (bench:delivery).
 * One agent connects anywhere (private addresses allowed); the others pin each resolver's answers.
 */
const openAgent = new Agent({ connections: CONNECTIONS_PER_RECEIVER });
const pinnedAgents = new WeakMap<Resolver, Agent>();

function agentFor(options: PostOptions): Agent {
  if (options.allowPrivate) return openAgent;
  let agent = pinnedAgents.get(options.resolver);
  if (!agent) {
    agent = new Agent({ connections: CONNECTIONS_PER_RECEIVER, connect: { lookup: pinnedLookup(options.resolver) } });
    pinnedAgents.set(options.resolver, agent);
  }
  return agent;
}

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
        if (options.all) return callback(null, [{ address, family: isIP(address) }]);
        callback(null, address, isIP(address));
      },
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), '', 4),
    );
  };
}

/** POSTs a body; never follows redirects; the whole exchange must finish within the time-out. */
export async function postJson(
  url: string,
  body: string | Buffer,
  headers: Record<string, string>,
  options: PostOptions,
): Promise<PostResult> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!options.allowPrivate) {
    const literal = classifyAddress(host);
    if (literal && literal !== 'public') throw new DeliveryError(`${host} is a ${literal} address`);
    if (host === 'localhost' || host.endsWith('.localhost')) throw new DeliveryError(`${host} is a loopback address`);
  }
  // An emitter as the abort signal: an AbortSignal per delivery cost more CPU than the rest of the exchange.
  const abort = new EventEmitter();
  const noAnswer = () => new DeliveryError(`no answer within ${options.timeoutMs} ms`);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    abort.emit('abort');
  }, options.timeoutMs);
  try {
    const res = await agentFor(options).request({
      origin: target.origin,
      path: `${target.pathname}${target.search}`,
      method: 'POST',
      headers: { ...headers, 'user-agent': 'loyalty-webhooks/1.0' },
      body,
      signal: abort,
    });
    // The answer's body is read (and bounded) so the connection can be reused; its content is not kept.
    await res.body.dump({ limit: MAX_RESPONSE_BYTES }).catch(() => undefined);
    if (timedOut) throw noAnswer();
    return { status: res.statusCode };
  } catch (err) {
    if (err instanceof DeliveryError) throw err;
    if (timedOut) throw noAnswer();
    if (!(err instanceof Error)) throw new DeliveryError('connection failed');
    if (err.cause instanceof DeliveryError) throw err.cause;
    // undici's and the socket's errors carry a code (UND_ERR_…, ECONNREFUSED).
    const code = 'code' in err && typeof err.code === 'string' ? err.code : undefined;
    throw new DeliveryError(code ? `${code}: connection failed` : 'connection failed');
  } finally {
    clearTimeout(timer);
  }
}
