import { SIGN_IN_PATH, type MePayload, type SlotsPayload } from '../../shared';
import type { ApiClient } from '../loader/api-client';

/** The session and slot requests a page load starts before React has loaded, for the providers to answer from. */
export interface StartupRequests {
  /** GET /me. */
  me: Promise<MePayload>;
  /**
   * GET /slots on the guess that the visitor is signed out, made only on the sign-in page, where that is almost
   * always right; null elsewhere (a signed-in page loads GET /meta once GET /me has answered). The payload is
   * public by construction, so a wrong guess shows nothing it should not: the page then uses GET /meta.
   */
  publicSlots: Promise<SlotsPayload> | null;
}

/** The same promise, marked as handled: its consumer may attach later, or never (a wrong guess). */
function handled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

/** Starts GET /me, and GET /slots on the sign-in page, at once and side by side. */
export function startStartupRequests(client: ApiClient, pathname: string): StartupRequests {
  return {
    me: handled(client.get<MePayload>('/me')),
    publicSlots: pathname === SIGN_IN_PATH ? handled(client.get<SlotsPayload>('/slots')) : null,
  };
}
