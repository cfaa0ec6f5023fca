import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';

/**
 * The security headers every answer starts with, following OWASP's REST guidance for JSON APIs. helmet's full set
 * (createSecurityHeaders) replaces the policy for documents and files; a JSON answer keeps these:
 * - `X-Content-Type-Options: nosniff`: a browser never reads it as script, style or HTML;
 * - `Cross-Origin-Resource-Policy: same-origin`: another site's page cannot load it as a resource (`<script src>`,
 *   `<img>`), so its bytes never reach that site's process (Spectre-class reads);
 * - `Content-Security-Policy: default-src 'none'; frame-ancestors 'none'`: opened or framed by mistake, it may run,
 *   load and be framed by nothing;
 * - `Cache-Control: no-store` unless the route says otherwise (`/slots` revalidates with its ETag, built files are
 *   cached by their content hash): an answer no route marked cacheable never stays in a shared cache.
 * HSTS (`Strict-Transport-Security`) only on answers that came over HTTPS: over plain HTTP a browser ignores it, and
 * a server reached over HTTP (a local start) has no HTTPS to pin.
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Cross-Origin-Resource-Policy': 'same-origin',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'Cache-Control': 'no-store',
});

/** One year, subdomains included: what helmet sends by default, sent here on HTTPS answers only. */
export const HSTS = 'max-age=31536000; includeSubDomains';

const HEADERS = Object.entries(API_SECURITY_HEADERS);

/**
 * Sets API_SECURITY_HEADERS (and HSTS over HTTPS) on every answer. Mount it before every router; mount
 * createSecurityHeaders before the routers that serve documents and files, so those get the full set.
 */
export function createApiSecurityHeaders(): RequestHandler {
  return (req, res, next) => {
    setApiSecurityHeaders(res, req.secure);
    next();
  };
}

/** The same headers on an answer given outside Express (public-fast-path.ts), `secure` worked out as Express does. */
export function setApiSecurityHeaders(res: ServerResponse, secure: boolean): void {
  for (const [name, value] of HEADERS) res.setHeader(name, value);
  if (secure) res.setHeader('Strict-Transport-Security', HSTS);
}
