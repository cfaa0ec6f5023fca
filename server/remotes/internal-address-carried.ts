import { isIP } from 'node:net';

/** How an IPv6 address carries an IPv4 one, as messages name it. */
export type CarryingForm = 'NAT64' | '6to4' | 'IPv4-compatible' | 'IPv4-translated' | 'Teredo client' | 'Teredo server';

/** An IPv4 address found inside an IPv6 one, and the form that put it there. */
export interface CarriedIPv4 {
  ipv4: string;
  form: CarryingForm;
}

/**
 * The IPv4 addresses an IPv6 address carries in a form some network delivers to that IPv4 address, so that an
 * internal IPv4 address written this way is refused as itself (internal-address.ts). Node's `BlockList` looks inside
 * the IPv4-mapped form only (`::ffff:a.b.c.d`, matched against the IPv4 rules by Node itself, so not here); it sees
 * none of these:
 * - NAT64's well-known prefix `64:ff9b::/96` (RFC 6052): the last 32 bits, translated by a NAT64 gateway on the path.
 *   RFC 6052 forbids it for non-global IPv4 addresses, but a gateway that translates anyway reaches its network.
 *   NAT64's other prefixes: the local-use `64:ff9b:1::/48` (RFC 8215) is internal as a whole (internal-address.ts);
 *   a network-specific prefix is the operator's own choice of address and length, which no rule here can know.
 * - 6to4 `2002::/16` (RFC 3056): bits 16..47, the IPv4 end of the tunnel its packets are sent to, from this machine
 *   when it runs a 6to4 interface.
 * - IPv4-compatible `::a.b.c.d` (RFC 4291, deprecated): once routed by automatic tunnels; `::` and `::1` are matched
 *   as IPv6 before this is asked.
 * - IPv4-translated `::ffff:0:a.b.c.d` (RFC 2765's SIIT, obsolete): an old stateless translator still routes it.
 * - Teredo `2001::/32` (RFC 4380): the client's IPv4 address (bits 96..127, inverted), where a Teredo interface on
 *   this machine or a relay sends the packets, and the Teredo server's (bits 32..63), which is sent a bubble first.
 * What is no IPv6 address carries none.
 */
export function carriedIPv4(address: string): CarriedIPv4[] {
  const bare = address.split('%')[0]!;
  if (isIP(bare) !== 6) return [];
  const word = hextets(bare);
  const zero = (from: number, to: number) => word.slice(from, to).every((each) => each === 0);
  const at = (high: number, low: number) => ipv4(word[high]!, word[low]!);
  if (word[0] === 0x64 && word[1] === 0xff9b && zero(2, 6)) return [{ ipv4: at(6, 7), form: 'NAT64' }];
  if (word[0] === 0x2002) return [{ ipv4: at(1, 2), form: '6to4' }];
  if (zero(0, 6)) return [{ ipv4: at(6, 7), form: 'IPv4-compatible' }];
  if (zero(0, 4) && word[4] === 0xffff && word[5] === 0) return [{ ipv4: at(6, 7), form: 'IPv4-translated' }];
  if (word[0] === 0x2001 && word[1] === 0) {
    const client = ipv4(word[6]! ^ 0xffff, word[7]! ^ 0xffff);
    return [
      { ipv4: client, form: 'Teredo client' },
      { ipv4: at(2, 3), form: 'Teredo server' },
    ];
  }
  return [];
}

/** The eight 16-bit groups of a valid IPv6 address, `::` expanded and a dotted IPv4 tail in two groups. */
function hextets(address: string): number[] {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted !== null) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const [head, tail] = text.split('::') as [string, string | undefined];
  if (tail === undefined) return groups(head);
  const before = groups(head);
  const after = groups(tail);
  return [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
}

function ipv4(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}
