import { isIPv4, isIPv6 } from 'node:net';

/**
 * The client a per-address counter counts (sign-in attempts, slot events): an IPv4 address as it is (also when
 * written IPv4-mapped, in any of its spellings: `::ffff:10.0.0.1`, `::ffff:a00:1`, `0:0:0:0:0:ffff:10.0.0.1`), an IPv6
 * address as its /64 (`2001:db8:1:2::/64`: one subscriber is usually given a whole /64, so counting single addresses
 * would give them billions of counters), anything else as given.
 */
export function clientKey(ip: string): string {
  if (!isIPv6(ip)) return ip;
  const groups = ipv6Groups(ip.split('%', 1)[0]!);
  // An IPv4-mapped address is that IPv4 client: as a /64 every mapped address would share one counter (::/64).
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address, `::` expanded and a dotted IPv4 tail read as two groups. */
function ipv6Groups(ip: string): number[] {
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(ip)?.[1];
  let text = ip.toLowerCase();
  if (dotted !== undefined && isIPv4(dotted)) {
    const [a, b, c, d] = dotted.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const middle = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((group) => Number.parseInt(group, 16) || 0);
}
