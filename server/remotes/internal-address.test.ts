import { internalAddressKind } from './internal-address';

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
])('%s is internal (%s)', (address, kind) => {
  expect(internalAddressKind(address)).toBe(kind);
});

it.each(['8.8.8.8', '203.0.113.10', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:808:808', 'example.com'])(
  '%s is not internal (an address on the internet, or no IP)',
  (address) => {
    expect(internalAddressKind(address)).toBeNull();
  },
);
