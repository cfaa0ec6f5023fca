import { clientKey } from './client-key';

describe('clientKey', () => {
  it('counts an IPv6 client by its /64, and IPv4 (also IPv4-mapped) by its address', () => {
    expect(clientKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:0db8:0001:0002::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientKey('10.0.0.1')).toBe('10.0.0.1');
    expect(clientKey('::ffff:10.0.0.1')).toBe('10.0.0.1');
  });

  it('reads an IPv4-mapped address in every spelling as its IPv4 client, not as the /64 every one of them shares', () => {
    expect(clientKey('::ffff:c633:6401')).toBe('198.51.100.1');
    expect(clientKey('::FFFF:C633:6402')).toBe('198.51.100.2');
    expect(clientKey('0:0:0:0:0:ffff:198.51.100.3')).toBe('198.51.100.3');
    expect(clientKey('0:0:0:0:0:ffff:c633:6404')).toBe('198.51.100.4');
    // Not mapped: an IPv4-compatible (::a.b.c.d) or a NAT64 address (64:ff9b::a.b.c.d) stays an IPv6 client.
    expect(clientKey('::198.51.100.5')).toBe('0:0:0:0::/64');
    expect(clientKey('64:ff9b::198.51.100.6')).toBe('64:ff9b:0:0::/64');
  });
});
