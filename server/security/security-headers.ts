import helmet from 'helmet';
import { remoteOrigins } from './remote-origins';
import type { RequestHandler } from 'express';

export interface SecurityHeadersOptions {
  /** Origins the host page may load remote code from and talk to (see remoteOrigins). */
  remoteOrigins: readonly string[];
}

/**
 * helmet's headers with a Content-Security-Policy that allows scripts and connections only from this origin and
 * the configured remotes: no inline scripts, no eval. Mount it before every router: the remotes router then
 * replaces `Cross-Origin-Resource-Policy: same-origin` with `cross-origin` on the remotes' files (a host on another
 * origin may load them). No Cross-Origin-Embedder-Policy, which would refuse remote bundles lacking CORP headers.
 */
export function createSecurityHeaders(options: SecurityHeadersOptions): RequestHandler {
  const remotes = [...options.remoteOrigins];
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...remotes],
        scriptSrcAttr: ["'none'"],
        connectSrc: ["'self'", ...remotes],
        // Remotes may ship CSS chunks; no inline styles.
        styleSrc: ["'self'", ...remotes],
        imgSrc: ["'self'", 'data:', ...remotes],
        fontSrc: ["'self'", ...remotes],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        // Not sent: it would break a plain-http deployment (localhost); HSTS covers sites served over TLS.
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    // Sent by createApiSecurityHeaders on every answer that came over HTTPS, and on none over plain HTTP.
    strictTransportSecurity: false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
  });
}

/** What the page's Content-Security-Policy follows: the remotes' entries, which change on a configuration reload. */
export interface RemoteEntrySource {
  readonly version: number;
  entries(): string[];
}

/** {@link createSecurityHeaders} for the remotes of `source` now: rebuilt once per change of the remotes. */
export function createSecurityHeadersFollowing(source: RemoteEntrySource): RequestHandler {
  const build = () => ({
    version: source.version,
    handler: createSecurityHeaders({ remoteOrigins: remoteOrigins(source.entries()) }),
  });
  let current = build();
  return (req, res, next) => {
    if (current.version !== source.version) current = build();
    current.handler(req, res, next);
  };
}
