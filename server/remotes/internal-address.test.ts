import { internalAddress, internalAddressKind, isLoopbackAddress } from './internal-address';

it.each([
  ['127.0.0.1', 'loopback'],
  ['127.255.0.2', 'loopback'],
  ['::1', 'loopback'],
  ['[::1]', 'loopback'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:2', 'loopback'],
  ['10.0.0.5', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['::ffff:a00:5', 'private'],
  ['169.254.169.254', 'link-local'],
  ['fe80::1', 'link-local'],
  ['fd00:ec2::254', 'unique-local'],
  ['fc00::1', 'unique-local'],
  ['100.64.0.1', 'shared (CGNAT)'],
  ['100.127.255.254', 'shared (CGNAT)'],
  ['0.0.0.0', 'unspecified'],
  ['::', 'unspecified'],
  ['224.0.0.1', 'multicast or broadcast'],
  ['255.255.255.255', 'multicast or broadcast'],
  ['64:ff9b:1::1', 'local-use NAT64'],
  ['[64:ff9b:1:ffff::808:808]', 'local-use NAT64'],
])('%s is internal (%s)', (address, kind) => {
  expect(internalAddressKind(address)).toBe(kind);
});

it.each([
  // NAT64's well-known prefix (RFC 6052): the last 32 bits.
  ['64:ff9b::7f00:1', 'loopback', '127.0.0.1', 'NAT64'],
  ['[64:ff9b::127.0.0.1]', 'loopback', '127.0.0.1', 'NAT64'],
  ['64:ff9b::a9fe:a9fe', 'link-local', '169.254.169.254', 'NAT64'],
  ['64:ff9b::c0a8:101', 'private', '192.168.1.1', 'NAT64'],
  ['64:ff9b::6440:1', 'shared (CGNAT)', '100.64.0.1', 'NAT64'],
  // 6to4: bits 16..47, whatever follows.
  ['2002:7f00:1::', 'loopback', '127.0.0.1', '6to4'],
  ['2002:a00:5:1::1', 'private', '10.0.0.5', '6to4'],
  ['2002:a9fe:a9fe::', 'link-local', '169.254.169.254', '6to4'],
  // IPv4-compatible (deprecated), and IPv4-translated (SIIT, obsolete).
  ['::127.0.0.2', 'loopback', '127.0.0.2', 'IPv4-compatible'],
  ['::ac10:1', 'private', '172.16.0.1', 'IPv4-compatible'],
  ['::2', 'unspecified', '0.0.0.2', 'IPv4-compatible'],
  ['::ffff:0:7f00:1', 'loopback', '127.0.0.1', 'IPv4-translated'],
  // Teredo: the client (bits 96..127, inverted), and the server (bits 32..63).
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback', '127.0.0.1', 'Teredo client'],
  ['2001:0:4136:e378:8000:63bf:f5ff:fffa', 'private', '10.0.0.5', 'Teredo client'],
  ['2001:0:a00:1:8000:63bf:3fff:fdd2', 'private', '10.0.0.1', 'Teredo server'],
])('%s is internal (%s, as %s in %s form)', (address, kind, ipv4, form) => {
  expect(internalAddress(address)).toEqual({ kind, carried: { ipv4, form } });
});

it.each([
  ['127.0.0.1', true],
  ['::1', true],
  ['::ffff:7f00:1', true],
  ['[::ffff:127.0.0.2]', true],
  ['64:ff9b::7f00:1', false],
  ['2002:7f00:1::', false],
  ['::127.0.0.1', false],
  ['10.0.0.1', false],
])("%s is this machine's loopback: %s", (address, loopback) => {
  expect(isLoopbackAddress(address)).toBe(loopback);
});

it.each([
  '8.8.8.8',
  '203.0.113.10',
  '172.32.0.1',
  '100.128.0.1',
  '2606:4700::1111',
  '::ffff:808:808',
  'example.com',
  // An IPv4 address on the internet, carried: NAT64, 6to4, IPv4-compatible, Teredo (client 192.0.2.45, server
  // 65.54.227.120, RFC 4380's example).
  '64:ff9b::808:808',
  '64:ff9b::203.0.113.10',
  '2002:cb00:710a::1',
  '::808:808',
  '::ffff:0:808:808',
  '2001:0:4136:e378:8000:63bf:3fff:fdd2',
  // Near the carrying prefixes, but not in them.
  '64:ff9b:2::7f00:1',
  '2003:7f00:1::',
  '2001:1:7f00:1::',
])('%s is not internal (an address on the internet, or no IP)', (address) => {
  expect(internalAddressKind(address)).toBeNull();
});
