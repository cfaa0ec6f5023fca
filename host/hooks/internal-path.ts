import { SIGN_IN_PATH } from '../../shared';

/** What RequireAuth hands the sign-in page: where to return, whether a session just ended, and why when known. */
export interface SignInState {
  from?: unknown;
  sessionEnded?: unknown;
  /** A SessionEnd (read with sessionEndOf: history state outlives the page that wrote it). */
  endedBecause?: unknown;
  /** True after a sign-out of this tab (useSignOut): the page says it was done. */
  signedOut?: unknown;
}

/**
 * Where to go after signing in: the page the visitor was sent away from, if it is a page of this app. Anything else
 * (another origin, `//host`, the sign-in page itself) falls back to the dashboard.
 */
export function internalPath(value: unknown, fallback = '/'): string {
  // A backslash reads as a slash in a URL: `/\host` is `//host`, another origin. The URL parser also deletes tab,
  // newline and carriage return wherever they are (`/<TAB>/host` is `//host` too); no page path of ours has them.
  if (typeof value !== 'string' || !value.startsWith('/') || /^\/[/\\]/.test(value) || /[\t\n\r]/.test(value)) {
    return fallback;
  }
  const page = value.split(/[?#]/, 1)[0];
  if (page === SIGN_IN_PATH) return fallback;
  return value;
}
