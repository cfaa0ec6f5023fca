import { SIGN_IN_PATH } from '../../shared';

/**
 * Where to go after signing in: the page the visitor was sent away from, if it is a page of this app. Anything else
 * (another origin, `//host`, an API path) falls back to the dashboard.
 */
export function internalPath(value: unknown, fallback = '/'): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//')) return fallback;
  if (value === SIGN_IN_PATH || value.startsWith(`${SIGN_IN_PATH}?`)) return fallback;
  return value;
}
