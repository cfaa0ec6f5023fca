import type { Request, RequestHandler } from 'express';
import { RELEASES_MANAGE } from '../../shared';
import { currentTenant } from '../auth/current-tenant';
import { HttpError } from '../http/http-error';
import type { TenantStore } from '../tenants/tenant-store';

declare module 'express-session' {
  interface SessionData {
    /** Remote -> the version this operator previews (POST /api/remotes/<name>/preview); their session only. */
    releasePreviews: Record<string, string>;
    /**
     * The tenant the session worked in when it set them. Previewing takes releases:manage in the current tenant; in
     * another one the account may not have it, so the previews count only while the session works in that tenant.
     */
    releasePreviewsTenant: string;
  }
}

/**
 * The versions the request's session previews, by remote: none without a session or a preview, and none while the
 * session works in another tenant than the one it set them in (they come back when it returns there).
 */
export function previewsOf(req: Request): Readonly<Record<string, string>> | undefined {
  const session = req.session;
  if (session?.releasePreviews === undefined) return undefined;
  return session.releasePreviewsTenant === session.tenant ? session.releasePreviews : undefined;
}

/**
 * Sets (`version`) or ends (`null`) the session's preview of `remote`, in the tenant it works in now: the previews
 * it set in another one end with it.
 */
export function setPreview(req: Request, remote: string, version: string | null): void {
  const { [remote]: _ended, ...others } = previewsOf(req) ?? {};
  req.session.releasePreviews = version === null ? others : { ...others, [remote]: version };
  if (req.session.tenant !== undefined) req.session.releasePreviewsTenant = req.session.tenant;
}

/**
 * Ends the session's previews once its account may no longer preview in the tenant the session works in (its role,
 * a membership's role or a grant taken away since it set them, or the account left that tenant). Previewing takes
 * releases:manage, and a preview loads code no other page does (its origin allowed by this session's CSP alone), so
 * it lasts no longer than the permission: role changes count at the account's next request, previews with them.
 * Mounted before what reads the previews (the pages and their CSP, `GET /api/remotes`); costs nothing without one.
 */
export function endPreviewsNoLongerAllowed(tenants: TenantStore): RequestHandler {
  const end = (req: Request) => {
    delete req.session.releasePreviews;
    delete req.session.releasePreviewsTenant;
  };
  return (req, _res, next) => {
    if (previewsOf(req) === undefined) return next();
    if (!req.user) {
      // Its user could not be loaded (a page is served even then: the database not answering), or is gone.
      req.log.warn('release previews ended: the session has no user now');
      end(req);
      return next();
    }
    currentTenant(req, tenants).then(
      (context) => {
        if (!context.access.permissions.includes(RELEASES_MANAGE)) end(req);
        next();
      },
      (error: unknown) => {
        // A member of no tenant any more: no permission anywhere; the page's own requests say the rest. Unknown (the
        // database not answering): ended too, rather than have the page or the remotes list fail for it.
        if (!(error instanceof HttpError && error.code === 'forbidden')) {
          req.log.warn({ err: error }, 'release previews ended: whether the account may still preview is unknown');
        }
        end(req);
        next();
      },
    );
  };
}
