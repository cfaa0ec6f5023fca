import type { Logger } from 'pino';
import type { PlainHandler } from './plain-handler';

/**
 * The warning for a `TRUST_PROXY` hop count above the proxies a request came through: Express then takes an
 * `X-Forwarded-For` entry the client wrote as its address, so a client can choose the address the sign-in limits
 * count.
 */
export function tooManyHopsMessage(trustedHops: number, arrivedHops: number): string {
  return (
    `TRUST_PROXY=${trustedHops} trusts ${trustedHops} proxy hops, but a request arrived through ${arrivedHops} ` +
    `(its X-Forwarded-For holds ${arrivedHops} address${arrivedHops === 1 ? '' : 'es'}): with fewer proxies than ` +
    'trusted, clients choose the address the sign-in limits count. Set TRUST_PROXY to the number of proxies in ' +
    `front of this server (at most ${arrivedHops} here), or better to their addresses (e.g. TRUST_PROXY=10.0.0.5).`
  );
}

/**
 * Detects the obvious case of a hop count set too high: behind N proxies, each appends the address it received
 * from, so every proxied request carries at least N `X-Forwarded-For` entries; one that carries fewer (but some)
 * came through fewer proxies than `TRUST_PROXY` trusts. Requests with none did not come through a proxy at all
 * (a health check, a local command) and leave Express nothing to misread. Warns once, not per request; nothing to
 * run unless `TRUST_PROXY` is a hop count.
 */
export function createTrustProxyHopCheck(
  trustProxy: false | number | string | readonly string[],
  logger: Pick<Logger, 'warn'>,
): PlainHandler[] {
  if (typeof trustProxy !== 'number' || trustProxy < 2) {
    // With one trusted hop, any request through the proxy carries at least one address: nothing to detect.
    return [];
  }
  let warned = false;
  return [
    (req, _res, next) => {
      if (!warned) {
        const arrivedHops = forwardedForCount(req.headers['x-forwarded-for']);
        if (arrivedHops > 0 && arrivedHops < trustProxy) {
          warned = true;
          logger.warn(
            { setting: 'TRUST_PROXY', trustedHops: trustProxy, arrivedHops },
            tooManyHopsMessage(trustProxy, arrivedHops),
          );
        }
      }
      next();
    },
  ];
}

/** Entries of an `X-Forwarded-For` header (Node joins repeated headers with commas). */
function forwardedForCount(header: string | string[] | undefined): number {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  return value.split(',').filter((entry) => entry.trim() !== '').length;
}
