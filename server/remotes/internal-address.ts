import { BlockList, isIP } from 'node:net';
import { carriedIPv4, type CarriedIPv4 } from './internal-address-carried';

/** What kind of internal address an IP is, as messages name it. */
export type InternalAddressKind =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unique-local'
  | 'shared (CGNAT)'
  | 'unspecified'
  | 'multicast or broadcast'
  | 'local-use NAT64';

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
  // RFC 8215's prefix for a translator of the operators' own: where in it the IPv4 address sits depends on the
  // prefix length they chose (RFC 6052's layouts, /48 to /96), and its use is to reach the site's own IPv4
  // space, private addresses included (which the well-known 64:ff9b::/96 may not carry). So the whole /48 is
  // internal, whatever IPv4 address it seems to carry; operators who publish through it list the origin.
  ['local-use NAT64', [['64:ff9b:1::', 48, 'ipv6']]],
];

/** One BlockList per kind; an IPv4-mapped IPv6 address (`::ffff:10.0.0.1`, `::ffff:a00:1`) meets the IPv4 rules. */
const LISTS: ReadonlyArray<[InternalAddressKind, BlockList]> = RANGES.map(([kind, ranges]) => {
  const list = new BlockList();
  for (const [address, prefix, family] of ranges) list.addSubnet(address, prefix, family);
  return [kind, list];
});

/** An internal address: its kind, and the IPv4 address that made it one when it carries it in another form. */
export interface InternalAddress {
  kind: InternalAddressKind;
  carried?: CarriedIPv4;
}

/**
 * Whether `address` (an IP, IPv6 with or without its brackets) is internal, and how, or null for an address on the
 * internet, or for what is no IP at all (a name: resolve it first). What a release's entry may not reach unless the
 * operators allowed its origin (release-address-guard.ts): the server's own machine, its network, a cloud's
 * metadata address (169.254.169.254). An IPv6 address that carries an IPv4 one (NAT64, 6to4, IPv4-compatible,
 * Teredo: internal-address-carried.ts) is internal when that IPv4 address is, as that address's kind.
 */
export function internalAddress(address: string): InternalAddress | null {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = isIP(bare);
  if (family === 0) return null;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const [kind, list] of LISTS) if (list.check(bare, type)) return { kind };
  for (const carried of carriedIPv4(bare)) {
    for (const [kind, list] of LISTS) if (list.check(carried.ipv4, 'ipv4')) return { kind, carried };
  }
  return null;
}

/** The kind of internal address `address` is ({@link internalAddress}), or null. */
export function internalAddressKind(address: string): InternalAddressKind | null {
  return internalAddress(address)?.kind ?? null;
}

/**
 * Whether `address` is this machine's loopback, written as such (`127.0.0.2`, `::1`, `::ffff:127.0.0.1`). One that
 * carries 127.0.0.1 in another form is not: a translator or a relay would deliver it to its own loopback, if at all.
 */
export function isLoopbackAddress(address: string): boolean {
  const internal = internalAddress(address);
  return internal?.kind === 'loopback' && internal.carried === undefined;
}
