import { InvalidSettingError } from './env-values';

/** The value of Express's `trust proxy` setting. */
export type TrustProxySetting = boolean | number | string[];

/**
 * `TRUST_PROXY` -> Express `trust proxy`. Behind a TLS-terminating proxy the server must believe its
 * `X-Forwarded-Proto` (so cookies get `Secure` and the request's own origin is https) and `X-Forwarded-For`
 * (so rate limits count the client, not the proxy). Directly on the network it must not, or any client could
 * claim another IP. Unset/`false`: trust nothing. `true`: trust every hop. A number: that many hops.
 * Otherwise a comma-separated list of addresses/subnets or Express names (`loopback`, `uniquelocal`).
 */
export function trustProxyFromEnv(env: NodeJS.ProcessEnv): TrustProxySetting {
  const raw = env.TRUST_PROXY?.trim() ?? '';
  const lower = raw.toLowerCase();
  if (lower === '' || lower === 'false' || lower === '0') return false;
  if (lower === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const list = raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  if (list.some((item) => !/^[0-9A-Za-z.:/]+$/.test(item))) {
    throw new InvalidSettingError(
      'TRUST_PROXY',
      raw,
      'false, true, a hop count, or a comma-separated list of addresses, subnets or loopback/linklocal/uniquelocal',
    );
  }
  return list;
}
