import type { RequestHandler } from 'express';

/**
 * The security headers of the JSON API answers. helmet's full set (createSecurityHeaders) is made for documents, and
 * a JSON answer is never rendered as a page: a script policy (CSP), framing, opener, referrer or DNS-prefetch rules
 * have nothing to act on there, and HSTS is already pinned by the host page, the first answer any browser gets.
 * What does apply to a JSON answer:
 * - `X-Content-Type-Options: nosniff`: a browser never reads it as script, style or HTML;
 * - `Cross-Origin-Resource-Policy: same-origin`: another site's page cannot load it as a resource (`<script src>`,
 *   `<img>`), so its bytes never reach that site's process (Spectre-class reads).
 * Every header is bytes on every answer: on a small payload they are a measurable part of what the server sends.
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Cross-Origin-Resource-Policy': 'same-origin',
  'X-Content-Type-Options': 'nosniff',
});

/**
 * Sets API_SECURITY_HEADERS on every answer. Mount it before every router; mount createSecurityHeaders before the
 * routers that serve documents and files, so those get the full set.
 */
export function createApiSecurityHeaders(): RequestHandler {
  return (_req, res, next) => {
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  };
}
