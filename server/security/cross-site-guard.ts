import type { Request, RequestHandler } from 'express';
import { ERROR_MESSAGES } from '../../shared';
import { HttpError } from '../http/http-error';

/** Methods that change nothing; everything else (POST, PUT, PATCH, DELETE, ...) is checked. */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface CrossSiteGuardOptions {
  /** Origins besides the request's own that may send unsafe requests, e.g. `https://admin.example.com`. */
  allowedOrigins: readonly string[];
}

/**
 * Refuses state-changing requests that a browser sent on behalf of another site (CSRF), with 403 `forbidden`.
 *
 * Modern browsers say where a request comes from in `Sec-Fetch-Site`, which a page cannot forge; older ones only
 * send `Origin` (or `Referer`). A request carrying neither is not from a browser page (curl, a server, a test
 * client) and cannot ride on a victim's cookies, so it passes.
 */
export function createCrossSiteGuard(options: CrossSiteGuardOptions): RequestHandler {
  const allowed = new Set(options.allowedOrigins.map(originOf).filter((origin): origin is string => origin !== null));
  return (req, _res, next) => {
    // A bearer token (a team's CI publishing a release) is no ambient credential: a page of another site cannot
    // send one it does not know, and those routes never read the session. Only without a cookie: with one, a route
    // that does read the session would take the request as its user's, whatever the bearer was.
    if (SAFE_METHODS.has(req.method) || isBearerOnlyRequest(req) || !isCrossSiteRequest(req, allowed)) {
      next();
      return;
    }
    next(new HttpError('forbidden', ERROR_MESSAGES.crossSite));
  };
}

/** A request that authenticates with a bearer token alone: no cookie rides on it. */
function isBearerOnlyRequest(req: Request): boolean {
  return /^Bearer\s/i.test(req.get('authorization') ?? '') && req.get('cookie') === undefined;
}

/** True when an unsafe request must be refused. Exported for the unit tests of each rule. */
export function isCrossSiteRequest(req: Request, allowedOrigins: ReadonlySet<string>): boolean {
  const fetchSite = req.get('sec-fetch-site')?.toLowerCase();
  if (fetchSite === 'cross-site') return true;
  // `none` is a navigation the user started (address bar, bookmark); no page asked for it.
  if (fetchSite === 'same-origin' || fetchSite === 'none') return false;

  const source = sourceOrigin(req);
  if (source === undefined) {
    // A sibling subdomain that hides its origin is not trusted; a client that is no browser page is.
    return fetchSite === 'same-site';
  }
  if (source === null) return true;
  return source !== ownOrigin(req) && !allowedOrigins.has(source);
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
