import { BlockList, isIP } from 'node:net';

/** What kind of internal address an IP is, as messages name it. */
export type InternalAddressKind =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unique-local'
  | 'shared (CGNAT)'
  | 'unspecified'
  | 'multicast or broadcast';

/** Each kind with its ranges: `[address, prefix, family]`. */
const RANGES: ReadonlyArray<[InternalAddressKind, ReadonlyArray<[string, number, 'ipv4' | 'ipv6']>]> = [
  [
    'loopback',
    [
      ['127.0.0.0', 8, 'ipv4'],
      ['::1', 128, 'ipv6'],
    ],
  ],
  [
    'private',
    [
      ['10.0.0.0', 8, 'ipv4'],
      ['172.16.0.0', 12, 'ipv4'],
      ['192.168.0.0', 16, 'ipv4'],
    ],
  ],
  [
    'link-local',
    [
      ['169.254.0.0', 16, 'ipv4'],
      ['fe80::', 10, 'ipv6'],
    ],
  ],
  ['unique-local', [['fc00::', 7, 'ipv6']]],
  ['shared (CGNAT)', [['100.64.0.0', 10, 'ipv4']]],
  [
    'unspecified',
    [
      // "This network": 0.0.0.0 itself reaches this machine on Linux.
      ['0.0.0.0', 8, 'ipv4'],
      ['::', 128, 'ipv6'],
    ],
  ],
  [
    'multicast or broadcast',
    [
      ['224.0.0.0', 4, 'ipv4'],
      ['255.255.255.255', 32, 'ipv4'],
      ['ff00::', 8, 'ipv6'],
    ],
  ],
];

/** One BlockList per kind; an IPv4-mapped IPv6 address (`::ffff:10.0.0.1`, `::ffff:a00:1`) meets the IPv4 rules. */
const LISTS: ReadonlyArray<[InternalAddressKind, BlockList]> = RANGES.map(([kind, ranges]) => {
  const list = new BlockList();
  for (const [address, prefix, family] of ranges) list.addSubnet(address, prefix, family);
  return [kind, list];
});

/**
 * The kind of internal address `address` (an IP, IPv6 with or without its brackets) is, or null for an address on
 * the internet, or for what is no IP at all (a name: resolve it first). What a release's entry may not reach unless
 * the operators allowed its origin (release-address-guard.ts): the server's own machine, its network, a cloud's
 * metadata address (169.254.169.254).
 */
export function internalAddressKind(address: string): InternalAddressKind | null {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = isIP(bare);
  if (family === 0) return null;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const [kind, list] of LISTS) if (list.check(bare, type)) return kind;
  return null;
}
