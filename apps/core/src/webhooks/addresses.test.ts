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

  it.each(['8.8.8.8', '1.1.1.1', '172.15.255.255', '172.32.0.1', '100.63.255.255', '100.128.0.1', '169.253.1.1', '192.169.0.1', '223.255.255.255',
    '2001:4860:4860::8888', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8', '2002:0808:0808::1', 'fe7f::1', 'fbff::1', 'ff:1::1'])(
    '%s is public',
    (address) => {
      expect(classifyAddress(address)).toBe('public');
    },
  );

  it('is undefined for names and garbage', () => {
    for (const s of ['localhost', 'example.com', '1.2.3', '::g', '', '1.2.3.4.5']) expect(classifyAddress(s)).toBeUndefined();
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
