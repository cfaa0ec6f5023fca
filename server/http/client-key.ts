import { isIPv4, isIPv6 } from 'node:net';

/**
 * The client a per-address counter counts (sign-in attempts, slot events): an IPv4 address as it is (also when
 * written IPv4-mapped, `::ffff:10.0.0.1`), an IPv6 address as its /64 (`2001:db8:1:2::/64`: one subscriber is
 * usually given a whole /64, so counting single addresses would give them billions of counters), anything else as
 * given.
 */
export function clientKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1] && isIPv4(mapped[1])) return mapped[1];
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.split('%', 1)[0]!.toLowerCase().split('::');
  const left = head === '' ? [] : head.split(':');
  const right = ip.includes('::') ? (tail === '' ? [] : tail.split(':')) : [];
  const groups = ip.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((group) => (Number.parseInt(group, 16) || 0).toString(16))
    .join(':')}::/64`;
}
