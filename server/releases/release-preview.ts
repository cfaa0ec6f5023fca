import type { Request } from 'express';

declare module 'express-session' {
  interface SessionData {
    /** Remote -> the version this operator previews (POST /api/remotes/<name>/preview); their session only. */
    releasePreviews: Record<string, string>;
  }
}

/** The versions the request's session previews, by remote (none without a session or a preview). */
export function previewsOf(req: Request): Readonly<Record<string, string>> | undefined {
  return req.session?.releasePreviews;
}
