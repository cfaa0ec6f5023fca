import { isIP } from 'node:net';
import { InvalidSettingError } from './env-values';

/** The value of Express's `trust proxy` setting. */
export type TrustProxySetting = false | number | string[];

/** Why `true` is refused, and what to give instead. */
export const TRUST_EVERY_HOP_REFUSED =
  "not 'true', which would let any client forge X-Forwarded-For and bypass the sign-in limits: give the proxy's " +
  'address or subnet (e.g. 10.0.0.5, 10.0.0.0/8, loopback) or the number of proxy hops in front (e.g. 1)';

/**
 * `TRUST_PROXY` -> Express `trust proxy`. Behind a TLS-terminating proxy the server must believe its
 * `X-Forwarded-Proto` (so cookies get `Secure` and the request's own origin is https) and `X-Forwarded-For`
 * (so rate limits count the client, not the proxy). Directly on the network it must not, or any client could
 * claim another IP. Unset/`false`: trust nothing. A number: that many hops. Otherwise a comma-separated list of
 * addresses/subnets or Express names (`loopback`, `uniquelocal`). `true` (trust every hop) is refused: Express would
 * then take the client's own `X-Forwarded-For`, so any client could pick the address the sign-in limits count.
 */
export function trustProxyFromEnv(env: NodeJS.ProcessEnv): TrustProxySetting {
  const raw = env.TRUST_PROXY?.trim() ?? '';
  const lower = raw.toLowerCase();
  if (lower === '' || lower === 'false' || lower === '0') return false;
  if (lower === 'true') throw new InvalidSettingError('TRUST_PROXY', raw, TRUST_EVERY_HOP_REFUSED);
  if (/^\d+$/.test(raw)) return Number(raw);
  const list = raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  if (list.some((item) => !isProxyAddress(item))) {
    throw new InvalidSettingError(
      'TRUST_PROXY',
      raw,
      'false, a hop count, or a comma-separated list of addresses, subnets or loopback/linklocal/uniquelocal',
    );
  }
  return list;
}

/** Express's names for address ranges, which TRUST_PROXY takes beside addresses and subnets. */
const RANGE_NAMES: ReadonlySet<string> = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * An address (`10.0.0.5`, `::1`), a subnet (`10.0.0.0/8`, `fd00::/8`, `10.0.0.0/255.0.0.0`) or a range's name. A
 * prefix of no bit or longer than the address has (`/0`, `/33` of IPv4), or a netmask that is not ones then zeros, would
 * pass here and be refused by Express's own parser with "invalid range on address", naming no setting.
 */
function isProxyAddress(item: string): boolean {
  if (RANGE_NAMES.has(item)) return true;
  const [address = '', prefix, extra] = item.split('/');
  const version = isIP(address);
  if (extra !== undefined || version === 0) return false;
  if (prefix === undefined) return true;
  if (/^\d{1,3}$/.test(prefix)) return Number(prefix) >= 1 && Number(prefix) <= (version === 4 ? 32 : 128);
  return version === 4 && isIP(prefix) === 4 && isNetmask(prefix);
}

/** A netmask Express takes: ones, then zeros (`255.255.0.0`), at least one bit set. */
function isNetmask(mask: string): boolean {
  const bits = mask.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
  const zeros = 2 ** 32 - 1 - bits;
  // Zeros at the end only: their count plus one is a power of two (0b0…01…1 + 1 = 0b1…0…0).
  return bits !== 0 && ((zeros + 1) & zeros) === 0;
}
