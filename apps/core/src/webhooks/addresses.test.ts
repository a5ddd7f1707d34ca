import { describe, expect, it } from 'vitest';
import { classifyAddress, createResolver, ipv6Groups, refusedAddressOf } from './addresses.js';

describe('classifyAddress', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link_local'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['fe80::1', 'link_local'],
    ['fe80::1%eth0', 'link_local'],
    ['febf:ffff::1', 'link_local'],
    ['fec0::1', 'private'],
    ['fc00::1', 'unique_local'],
    ['fd12:3456:789a::1', 'unique_local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'link_local'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::192.168.0.1', 'private'],
    ['2002:7f00:1::', 'loopback'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.15.255.255',
    '172.32.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '169.253.1.1',
    '192.169.0.1',
    '223.255.255.255',
    '2001:4860:4860::8888',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
    '2002:0808:0808::1',
    'fe7f::1',
    'fbff::1',
    'ff:1::1',
  ])('%s is public', (address) => {
    expect(classifyAddress(address)).toBe('public');
  });

  it('is undefined for names and garbage', () => {
    for (const s of ['localhost', 'example.com', '1.2.3', '::g', '', '1.2.3.4.5']) expect(classifyAddress(s)).toBeUndefined();
  });
});

describe('IANA special-purpose ranges that are not globally reachable', () => {
  // [range, first address, last address, kind], from the IPv4 and IPv6 Special-Purpose Address Registries.
  it.each([
    ['0.0.0.0/8', '0.0.0.0', '0.255.255.255', 'unspecified'],
    ['10.0.0.0/8', '10.0.0.0', '10.255.255.255', 'private'],
    ['100.64.0.0/10', '100.64.0.0', '100.127.255.255', 'cgnat'],
    ['127.0.0.0/8', '127.0.0.0', '127.255.255.255', 'loopback'],
    ['169.254.0.0/16', '169.254.0.0', '169.254.255.255', 'link_local'],
    ['172.16.0.0/12', '172.16.0.0', '172.31.255.255', 'private'],
    ['192.0.0.0/24', '192.0.0.0', '192.0.0.255', 'reserved'],
    ['192.0.0.0/29', '192.0.0.0', '192.0.0.7', 'reserved'],
    ['192.0.0.8/32', '192.0.0.8', '192.0.0.8', 'reserved'],
    ['192.0.0.170/31', '192.0.0.170', '192.0.0.171', 'reserved'],
    ['192.0.2.0/24', '192.0.2.0', '192.0.2.255', 'documentation'],
    ['192.88.99.0/24', '192.88.99.0', '192.88.99.255', 'reserved'],
    ['192.168.0.0/16', '192.168.0.0', '192.168.255.255', 'private'],
    ['198.18.0.0/15', '198.18.0.0', '198.19.255.255', 'benchmarking'],
    ['198.51.100.0/24', '198.51.100.0', '198.51.100.255', 'documentation'],
    ['203.0.113.0/24', '203.0.113.0', '203.0.113.255', 'documentation'],
    ['224.0.0.0/4', '224.0.0.0', '239.255.255.255', 'multicast'],
    ['240.0.0.0/4', '240.0.0.0', '255.255.255.255', 'reserved'],
    ['::/128', '::', '::', 'unspecified'],
    ['::1/128', '::1', '::1', 'loopback'],
    ['::ffff:0:0/96 over 198.18.0.0/15', '::ffff:198.18.0.0', '::ffff:198.19.255.255', 'benchmarking'],
    ['64:ff9b:1::/48', '64:ff9b:1::', '64:ff9b:1:ffff:ffff:ffff:ffff:ffff', 'private'],
    ['100::/64', '100::', '100::ffff:ffff:ffff:ffff', 'reserved'],
    ['100:0:0:1::/64', '100:0:0:1::', '100::1:ffff:ffff:ffff:ffff', 'reserved'],
    ['2001::/23', '2001::', '2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
    ['2001::/32 (Teredo)', '2001::', '2001:0:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
    ['2001:2::/48', '2001:2::', '2001:2:0:ffff:ffff:ffff:ffff:ffff', 'benchmarking'],
    ['2001:10::/28 (ORCHID)', '2001:10::', '2001:1f:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
    ['2001:db8::/32', '2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', 'documentation'],
    ['3fff::/20', '3fff::', '3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff', 'documentation'],
    ['5f00::/16', '5f00::', '5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
    ['fc00::/7', 'fc00::', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'unique_local'],
    ['fe80::/10', 'fe80::', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'link_local'],
    ['ff00::/8', 'ff00::', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'multicast'],
    ['2002::/16 over 198.18.0.0/15', '2002:c612::', '2002:c613:ffff::', 'benchmarking'],
    ['64:ff9b::/96 over 203.0.113.0/24', '64:ff9b::203.0.113.0', '64:ff9b::203.0.113.255', 'documentation'],
  ])('%s: %s to %s are %s', (_range, first, last, kind) => {
    expect(classifyAddress(first)).toBe(kind);
    expect(classifyAddress(last)).toBe(kind);
  });

  // Just outside each new range, and the registry's globally reachable entries inside refused ones.
  it.each([
    '191.255.255.255',
    '192.0.1.0',
    '192.0.0.9',
    '192.0.0.10',
    '192.0.3.0',
    '192.31.196.1',
    '192.52.193.1',
    '192.88.98.255',
    '192.88.100.0',
    '192.175.48.1',
    '198.17.255.255',
    '198.20.0.0',
    '198.51.99.255',
    '198.51.101.0',
    '203.0.112.255',
    '203.0.114.0',
    '64:ff9b:2::1',
    '100:0:0:2::',
    '2001:1::1',
    '2001:1::2',
    '2001:1::3',
    '2001:3::1',
    '2001:4:112::1',
    '2001:20::1',
    '2001:30::1',
    '2001:200::1',
    '2001:db7:ffff::1',
    '2001:db9::1',
    '2620:4f:8000::1',
    '3ffe:ffff::1',
    '3fff:1000::1',
    '5eff::1',
    '5f01::1',
  ])('%s is public', (address) => {
    expect(classifyAddress(address)).toBe('public');
  });
});

describe('ipv6Groups', () => {
  it('expands compressed forms and embedded IPv4', () => {
    expect(ipv6Groups('::')).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(ipv6Groups('1::')).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    expect(ipv6Groups('2001:db8::8:800:200c:417a')).toEqual([0x2001, 0xdb8, 0, 0, 0x8, 0x800, 0x200c, 0x417a]);
    expect(ipv6Groups('::ffff:192.0.2.128')).toEqual([0, 0, 0, 0, 0, 0xffff, 0xc000, 0x0280]);
    expect(ipv6Groups('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(ipv6Groups('10.0.0.1')).toBeUndefined();
  });
});

describe('refusedAddressOf without lookups', () => {
  // An unreachable resolver proves literal and localhost hosts are decided without DNS.
  const resolver = createResolver(['127.0.0.1:9'], { timeout: 200, tries: 1 });

  it('refuses literal and localhost hosts as the URL parser normalises them', async () => {
    expect(await refusedAddressOf('http://127.0.0.1:8080/hook', resolver)).toEqual({ address: '127.0.0.1', kind: 'loopback' });
    expect(await refusedAddressOf('http://2130706433/', resolver)).toEqual({ address: '127.0.0.1', kind: 'loopback' });
    expect(await refusedAddressOf('http://0x7f.1/', resolver)).toEqual({ address: '127.0.0.1', kind: 'loopback' });
    expect(await refusedAddressOf('http://[::ffff:10.0.0.1]/', resolver)).toEqual({ address: '::ffff:a00:1', kind: 'private' });
    expect(await refusedAddressOf('https://LOCALHOST./x', resolver)).toEqual({ address: 'localhost', kind: 'loopback' });
    expect(await refusedAddressOf('https://api.localhost/x', resolver)).toEqual({ address: 'api.localhost', kind: 'loopback' });
    expect(await refusedAddressOf('https://8.8.8.8/x', resolver)).toBeUndefined();
  });

  it('accepts a host that does not resolve', async () => {
    expect(await refusedAddressOf('https://hooks.example.invalid/x', resolver)).toBeUndefined();
  });
});

describe('createResolver', () => {
  it('accepts servers with ports and refuses malformed ones, naming the setting', () => {
    expect(() => createResolver(['127.0.0.1:5353', '[::1]:5353', '9.9.9.9'])).not.toThrow();
    expect(() => createResolver(['dns.example.com'])).toThrow(/LOYALTY_DNS_SERVERS/);
  });
});
