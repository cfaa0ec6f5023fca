import { SIGN_IN_PATH, type MePayload, type MetaPayload, type SessionBootData, type SlotsPayload } from '../../shared';
import type { ApiClient } from '../loader/api-client';
import { readSessionData } from './read-session-data';

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
  /**
   * GET /meta, started the moment GET /me says who is signed in, on every page but the sign-in page: a signed-in page
   * then has its slot data (and can load their components) without waiting for React to load and ask. Rejects,
   * without a request, when GET /me does (nobody is signed in); null on the sign-in page.
   */
  meta: Promise<MetaPayload> | null;
}

/** The same promise, marked as handled: its consumer may attach later, or never (a wrong guess). */
function handled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

/**
 * Starts GET /me, and GET /slots on the sign-in page, at once and side by side; elsewhere GET /meta after GET /me.
 * A signed-in page the server served with its session data (`session`, read from the page by default) needs neither
 * GET /me nor GET /meta: they are answered from it, without a request.
 */
export function startStartupRequests(
  client: ApiClient,
  pathname: string,
  session: SessionBootData | null = readSessionData(),
): StartupRequests {
  const onSignInPage = pathname === SIGN_IN_PATH;
  if (session && !onSignInPage) {
    return { me: Promise.resolve(session.me), publicSlots: null, meta: Promise.resolve(session.meta) };
  }
  const me = handled(client.get<MePayload>('/me'));
  return {
    me,
    publicSlots: onSignInPage ? handled(client.get<SlotsPayload>('/slots')) : null,
    meta: onSignInPage ? null : handled(me.then(() => client.get<MetaPayload>('/meta'))),
  };
}
