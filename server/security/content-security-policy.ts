import helmet from 'helmet';
import type { RequestHandler } from 'express';

/** Distinct origin sets kept at most: past it the cache starts again (a bound, never reached in practice). */
const MAX_POLICIES = 256;

/**
 * The page's Content-Security-Policy for a set of remote origins: scripts and connections only from this origin and
 * those remotes, no inline scripts, no eval. One middleware per distinct origin set, built once (helmet encodes the
 * header string when it is built), so a page pays a map look-up: the origins change with releases and previews,
 * and most requests share one set.
 */
export class ContentSecurityPolicies {
  private readonly byOrigins = new Map<string, RequestHandler>();

  /** The middleware that sets the policy allowing `remoteOrigins` (sorted, distinct: see remoteOrigins). */
  for(remoteOrigins: readonly string[]): RequestHandler {
    const key = remoteOrigins.join(' ');
    let handler = this.byOrigins.get(key);
    if (!handler) {
      if (this.byOrigins.size >= MAX_POLICIES) this.byOrigins.clear();
      handler = contentSecurityPolicy(remoteOrigins);
      this.byOrigins.set(key, handler);
    }
    return handler;
  }
}

function contentSecurityPolicy(remoteOrigins: readonly string[]): RequestHandler {
  const remotes = [...remoteOrigins];
  return helmet.contentSecurityPolicy({
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
  });
}
