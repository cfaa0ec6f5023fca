import type { RequestHandler } from 'express';

/**
 * Cross-origin access to the remotes' files, so a host page on another origin can load them: the manifest is read
 * with fetch (needs Access-Control-Allow-Origin for that origin), scripts need Cross-Origin-Resource-Policy.
 * Public static files only: no credentials are ever allowed.
 */
export function remotesCors(allowedOrigins: readonly string[] | '*'): RequestHandler {
  const allowed = allowedOrigins === '*' ? null : new Set(allowedOrigins);
  return (req, res, next) => {
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.vary('Origin');
    const origin = req.get('origin');
    const permitted = origin !== undefined && (allowed === null || allowed.has(origin));
    if (permitted) res.setHeader('Access-Control-Allow-Origin', allowed === null ? '*' : origin);
    if (req.method === 'OPTIONS') {
      if (permitted) {
        res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD');
        res.setHeader('Access-Control-Max-Age', '600');
      }
      res.status(204).end();
      return;
    }
    next();
  };
}
