import helmet from 'helmet';
import { ContentSecurityPolicies } from './content-security-policy';
import { remoteOrigins } from './remote-origins';
import type { RequestHandler } from 'express';

export interface SecurityHeadersOptions {
  /** Origins the host page may load remote code from and talk to (see remoteOrigins). */
  remoteOrigins: readonly string[];
}

/**
 * helmet's headers but the Content-Security-Policy, which content-security-policy.ts sets. No
 * Cross-Origin-Embedder-Policy, which would refuse remote bundles lacking CORP headers.
 */
const otherHeaders = (): RequestHandler =>
  helmet({
    contentSecurityPolicy: false,
    crossOriginEmbedderPolicy: false,
    // Sent by createApiSecurityHeaders on every answer that came over HTTPS, and on none over plain HTTP.
    strictTransportSecurity: false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
  });

/**
 * helmet's headers with a Content-Security-Policy that allows scripts and connections only from this origin and
 * the configured remotes: no inline scripts, no eval. Mount it before every router: the remotes router then
 * replaces `Cross-Origin-Resource-Policy: same-origin` with `cross-origin` on the remotes' files (a host on another
 * origin may load them).
 */
export function createSecurityHeaders(options: SecurityHeadersOptions): RequestHandler {
  const others = otherHeaders();
  const policy = new ContentSecurityPolicies().for(options.remoteOrigins);
  return (req, res, next) => others(req, res, () => policy(req, res, next));
}

/**
 * What the page's Content-Security-Policy follows: the entries a page may load now (configured and built-in
 * remotes, active releases, running canaries), which change on a reload, an activation, a canary or a rollback.
 */
export interface RemoteEntrySource {
  readonly version: number;
  entries(): string[];
}

/**
 * {@link createSecurityHeaders} for the entries of `source` now (their origins read again once per change), and
 * `policies` for a request that may load more (a session's previews: see preview-security-headers.ts).
 */
export function createSecurityHeadersFollowing(
  source: RemoteEntrySource,
  policies = new ContentSecurityPolicies(),
): RequestHandler {
  const others = otherHeaders();
  const build = () => ({ version: source.version, policy: policies.for(remoteOrigins(source.entries())) });
  let current = build();
  return (req, res, next) => {
    if (current.version !== source.version) current = build();
    const { policy } = current;
    others(req, res, () => policy(req, res, next));
  };
}
