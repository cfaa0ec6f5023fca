import type { RequestHandler } from 'express';
import type { ContentSecurityPolicies } from '../security/content-security-policy';
import { remoteOrigins } from '../security/remote-origins';
import type { RemoteEntrySource } from '../security/security-headers';
import { previewsOf } from './release-preview';
import type { ReleaseSnapshot } from './release-snapshot';

/**
 * The page's Content-Security-Policy for a session that previews releases: what every page may load (`source`) and
 * the previewed releases' origins, for that session's pages only. Mount it after the page's session is loaded; it
 * replaces the header the security headers set before the session was known. Other requests pass untouched.
 */
export function createPreviewSecurityHeaders(
  source: RemoteEntrySource,
  snapshot: ReleaseSnapshot,
  policies: ContentSecurityPolicies,
): RequestHandler {
  return (req, res, next) => {
    const previews = previewsOf(req);
    if (!previews) return next();
    const previewed = Object.entries(previews).flatMap(
      ([remote, version]) => snapshot.release(remote, version)?.entry ?? [],
    );
    if (previewed.length === 0) return next();
    policies.for(remoteOrigins([...source.entries(), ...previewed]))(req, res, next);
  };
}
