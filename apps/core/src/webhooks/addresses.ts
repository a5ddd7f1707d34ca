import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';

/** Why an address is not a public unicast one (webhook endpoints must not reach these). */
export type AddressKind =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link_local'
  | 'unique_local'
  | 'cgnat'
  | 'multicast'
  | 'documentation'
  | 'benchmarking'
  | 'reserved';

/**
 * Every range of the IANA IPv4 Special-Purpose Address Registry that is not globally reachable,
 * plus multicast, as [first address, prefix length, kind]. `public` entries are the registry's
 * globally reachable exceptions inside a refused range; the longest matching prefix decides.
 */
const IPV4_RANGES: [string, number, AddressKind][] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'cgnat'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link_local'],
  ['172.16.0.0', 12, 'private'],
  // IETF protocol assignments (service continuity, dummy, NAT64 discovery, …), except two anycast services.
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.0.9', 32, 'public'],
  ['192.0.0.10', 32, 'public'],
  ['192.0.2.0', 24, 'documentation'],
  // The deprecated 6to4 relay anycast prefix.
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  // Class E and the limited broadcast address: never routable unicast.
  ['240.0.0.0', 4, 'reserved'],
];

/** The same for the IANA IPv6 Special-Purpose Address Registry, plus multicast and site-local. */
const IPV6_RANGES: [string, number, AddressKind][] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['64:ff9b:1::', 48, 'private'],
  // Discard-only and the dummy prefix.
  ['100::', 64, 'reserved'],
  ['100:0:0:1::', 64, 'reserved'],
  // IETF protocol assignments (Teredo, benchmarking, ORCHID, …), except its globally reachable services.
  ['2001::', 23, 'reserved'],
  ['2001:1::1', 128, 'public'],
  ['2001:1::2', 128, 'public'],
  ['2001:1::3', 128, 'public'],
  ['2001:2::', 48, 'benchmarking'],
  ['2001:3::', 32, 'public'],
  ['2001:4:112::', 48, 'public'],
  ['2001:20::', 28, 'public'],
  ['2001:30::', 28, 'public'],
  ['2001:db8::', 32, 'documentation'],
  ['3fff::', 20, 'documentation'],
  // Segment-routing SIDs.
  ['5f00::', 16, 'reserved'],
  ['fc00::', 7, 'unique_local'],
  ['fe80::', 10, 'link_local'],
  // Site-local (fec0::/10) is deprecated but still means "this site".
  ['fec0::', 10, 'private'],
  ['ff00::', 8, 'multicast'],
];

function ipv4ToInt(text: string): number {
  return text.split('.').reduce((acc, octet) => acc * 256 + Number(octet), 0);
}

const IPV4_TABLE = IPV4_RANGES.map(([base, prefix, kind]) => {
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return { network: (ipv4ToInt(base) & mask) >>> 0, mask, prefix, kind };
}).sort((a, b) => b.prefix - a.prefix);

function classifyIPv4Int(value: number): AddressKind {
  for (const range of IPV4_TABLE) {
    if ((value & range.mask) >>> 0 === range.network) return range.kind;
  }
  return 'public';
}

/** The eight 16-bit groups of an IPv6 address (zone id dropped, embedded dotted IPv4 expanded). */
export function ipv6Groups(text: string): number[] | undefined {
  let s = text.split('%')[0]!;
  if (isIP(s) !== 6) return undefined;
  const lastColon = s.lastIndexOf(':');
  const tail = s.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = ipv4ToInt(tail);
    s = `${s.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const halves = s.split('::');
  if (halves.length === 1) return parse(s);
  const head = parse(halves[0]!);
  const rest = parse(halves[1]!);
  return [...head, ...new Array<number>(8 - head.length - rest.length).fill(0), ...rest];
}

const toBigInt = (groups: number[]) => groups.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n);
const ALL_ONES = (1n << 128n) - 1n;

const IPV6_TABLE = IPV6_RANGES.map(([base, prefix, kind]) => {
  const mask = (ALL_ONES << BigInt(128 - prefix)) & ALL_ONES;
  return { network: toBigInt(ipv6Groups(base)!) & mask, mask, prefix, kind };
}).sort((a, b) => b.prefix - a.prefix);

function classifyIPv6(g: number[]): AddressKind {
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  const embedded = (hi: number, lo: number) => classifyIPv4Int(((hi << 16) | lo) >>> 0);
  if (zeroUpTo(8)) return 'unspecified';
  if (zeroUpTo(7) && g[7] === 1) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d) and the deprecated IPv4-compatible form (::a.b.c.d) reach the IPv4 address.
  if (zeroUpTo(5) && g[5] === 0xffff) return embedded(g[6]!, g[7]!);
  if (zeroUpTo(6)) return embedded(g[6]!, g[7]!);
  // NAT64 (64:ff9b::/96) and 6to4 (2002::/16) carry an IPv4 address a gateway forwards to.
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return embedded(g[6]!, g[7]!);
  if (g[0] === 0x2002) {
    const kind = embedded(g[1]!, g[2]!);
    if (kind !== 'public') return kind;
  }
  const value = toBigInt(g);
  for (const range of IPV6_TABLE) {
    if ((value & range.mask) === range.network) return range.kind;
  }
  return 'public';
}

/** Classifies an IP address literal (IPv4, or IPv6 with or without brackets); undefined if it is not one. */
export function classifyAddress(address: string): AddressKind | undefined {
  const bare = address.replace(/^\[(.*)\]$/, '$1');
  const version = isIP(bare.split('%')[0]!);
  if (version === 4) return classifyIPv4Int(ipv4ToInt(bare));
  if (version === 6) return classifyIPv6(ipv6Groups(bare)!);
  return undefined;
}

/**
 * A resolver aimed at the configured servers (`host`, `host:port`, `[v6]:port`), or the system's.
 * Build it at boot: a bad server list then stops start-up instead of failing requests.
 */
export function createResolver(servers: string[], options: { timeout?: number; tries?: number } = {}): Resolver {
  const resolver = new Resolver({ timeout: options.timeout ?? 3000, tries: options.tries ?? 2 });
  try {
    if (servers.length) resolver.setServers(servers);
  } catch (err) {
    throw new Error(
      `Invalid DNS servers (LOYALTY_DNS_SERVERS) "${servers.join(',')}": ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  return resolver;
}

/** Every A and AAAA address of a host; a host that does not resolve (or a failed lookup) has none. */
export async function resolveAddresses(host: string, resolver: Resolver): Promise<string[]> {
  const none = (): string[] => [];
  const [v4, v6] = await Promise.all([resolver.resolve4(host).catch(none), resolver.resolve6(host).catch(none)]);
  return [...v4, ...v6];
}

export interface RefusedAddress {
  address: string;
  kind: Exclude<AddressKind, 'public'>;
}

/**
 * The first non-public address a URL's host is or resolves to, or undefined when it has none.
 * `localhost` names are loopback by definition (RFC 6761) and are not looked up.
 */
export async function refusedAddressOf(url: string, resolver: Resolver): Promise<RefusedAddress | undefined> {
  const host = new URL(url).hostname
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
  const literal = classifyAddress(host);
  if (literal !== undefined) return literal === 'public' ? undefined : { address: host, kind: literal };
  if (host === 'localhost' || host.endsWith('.localhost')) return { address: host, kind: 'loopback' };
  for (const address of await resolveAddresses(host, resolver)) {
    const kind = classifyAddress(address);
    if (kind && kind !== 'public') return { address, kind };
  }
  return undefined;
}
