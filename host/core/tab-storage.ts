/**
 * This tab's sessionStorage, or null where it is unavailable: reading `window.sessionStorage` itself throws when
 * storage is disabled (privacy modes, a sandboxed frame). Callers must still expect each call on it to throw (full
 * or refused storage) and carry on without it.
 */
export function tabStorage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}
