import type { Request } from 'express';

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
