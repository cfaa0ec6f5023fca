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
});
