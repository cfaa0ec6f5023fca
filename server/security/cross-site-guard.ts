import type { Request, RequestHandler } from 'express';
import { ERROR_MESSAGES, undeclaredAddressMessage } from '../../shared';
import { HttpError } from '../http/http-error';
import { withPublicOrigin } from './public-url';

/** Methods that change nothing; everything else (POST, PUT, PATCH, DELETE, ...) is checked. */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface CrossSiteGuardOptions {
  /** Origins besides the request's own that may send unsafe requests, e.g. `https://admin.example.com`. */
  allowedOrigins: readonly string[];
  /**
   * PUBLIC_URL's origin, when the operators declared it: then the product's own pages are there (and at
   * `allowedOrigins`) only, and the request's `Host` makes no origin its own. Undefined: the request's own origin (its
   * `Host`) is the server's, as a server that does not know its address must take it.
   */
  publicOrigin?: string | undefined;
}

/**
 * Refuses state-changing requests that a browser sent on behalf of another site (CSRF), with 403 `forbidden`.
 *
 * Modern browsers say where a request comes from in `Sec-Fetch-Site`, which a page cannot forge; older ones only
 * send `Origin` (or `Referer`). A request carrying neither is not from a browser page (curl, a server, a test
 * client) and cannot ride on a victim's cookies, so it passes.
 *
 * Both say "same origin" of a page whose own name was made to point at this server (DNS rebinding: `Host:
 * evil.example`, `Origin: http://evil.example`, `Sec-Fetch-Site: same-origin`): the `Host` header is the sender's to
 * choose. With PUBLIC_URL the product's address is known, so such a request is refused, saying where the product is;
 * without it, it passes (docs/operators/security.md says why and the start warns).
 */
export function createCrossSiteGuard(options: CrossSiteGuardOptions): RequestHandler {
  const declared = withPublicOrigin(options.allowedOrigins, options.publicOrigin);
  const allowed = new Set(declared.map(originOf).filter((origin): origin is string => origin !== null));
  const publicOrigin = options.publicOrigin === undefined ? null : originOf(options.publicOrigin);
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method)) {
      next();
      return;
    }
    const refusal = crossSiteRefusal(req, allowed, publicOrigin);
    // A bearer token (a team's CI publishing a release) is no ambient credential: a page of another site cannot
    // send one without this server's CORS consent, which it never gives, and those routes never read the session.
    // Only without a cookie: with one, a route that does read the session would take the request as its user's,
    // whatever the bearer was. And never from a page at an undeclared address that calls itself this server's (DNS
    // rebinding): to the browser that page is same-origin, so it sets any header it likes, `Authorization: Bearer x`
    // included, and a made-up bearer would carry its sign-in past the check.
    const bearerPasses = refusal === ERROR_MESSAGES.crossSite && isBearerOnlyRequest(req);
    next(refusal === null || bearerPasses ? undefined : new HttpError('forbidden', refusal));
  };
}

/** A request that authenticates with a bearer token alone: no cookie rides on it. */
function isBearerOnlyRequest(req: Request): boolean {
  return /^Bearer\s/i.test(req.get('authorization') ?? '') && req.get('cookie') === undefined;
}

/**
 * Why an unsafe request must be refused, or null when it may pass. `allowedOrigins`: every origin declared the
 * product's (PUBLIC_URL's among them); `publicOrigin`: PUBLIC_URL's, or null when not declared.
 */
function crossSiteRefusal(
  req: Request,
  allowedOrigins: ReadonlySet<string>,
  publicOrigin: string | null,
): string | null {
  const fetchSite = req.get('sec-fetch-site')?.toLowerCase();
  if (fetchSite === 'cross-site') return ERROR_MESSAGES.crossSite;
  const source = sourceOrigin(req);
  // A sibling subdomain that hides its origin is not trusted; a client that is no browser page is.
  if (source === undefined) return fetchSite === 'same-site' ? ERROR_MESSAGES.crossSite : null;
  if (source !== null && allowedOrigins.has(source)) return null;
  // A page at an origin nobody declared. It is this server's own when the browser says so (`none`: a navigation the
  // user started, no page asked for it), or when it is the origin of the request's Host: true of the server's own
  // pages, and of a page whose name was made to point at the server.
  const sameOriginSaid = fetchSite === 'same-origin' || fetchSite === 'none';
  const ownByHost = sameOriginSaid || (source !== null && source === ownOrigin(req));
  if (!ownByHost) return ERROR_MESSAGES.crossSite;
  return publicOrigin === null ? null : undeclaredAddressMessage(publicOrigin);
}

/**
 * The origin the browser names: from `Origin`, else from `Referer`. `undefined` when neither header is there;
 * `null` when one is there but names no usable origin (`Origin: null` from a sandboxed frame, a garbled value).
 */
function sourceOrigin(req: Request): string | null | undefined {
  const origin = req.get('origin');
  if (origin !== undefined) return originOf(origin);
  const referer = req.get('referer');
  if (referer !== undefined) return originOf(referer);
  return undefined;
}

/** The origin this server is reached at, as the browser sees it (`trust proxy` decides whether to believe X-Forwarded-*). */
function ownOrigin(req: Request): string | null {
  return originOf(`${req.protocol}://${req.host}`);
}

/** `scheme://host[:port]` of a URL, normalised (lower case, default port dropped), or null when it has none. */
function originOf(value: string): string | null {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.origin;
  } catch {
    return null;
  }
}
