import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  HOST_REFRESH_EVENT,
  type CurrentUser,
  type LoginRequest,
  type MePayload,
  type TenantSwitchRequest,
} from '../../shared';
import { ApiError, type ApiClient } from '../loader/api-client';
import { HOST_MESSAGES } from '../loader/messages';

export type SessionStatus = 'loading' | 'anonymous' | 'authenticated';

export interface Session {
  status: SessionStatus;
  user: CurrentUser | null;
  /** Who: changes on sign-in and sign-out. Data cached under another identity must never be shown. */
  identity: string;
  /** Who and in which tenant: data scoped by tenant (records, dashboards) is fetched again when it changes. */
  scope: string;
  /** Changes on every session load (sign-in, tenant switch, refresh requested by the host or a remote). */
  revision: number;
  /**
   * True when the server ended the session this page was using (a 401 answer), so the sign-in page can say why it
   * is shown; false after a sign-in, a sign-out, or a page load without a session.
   */
  expired: boolean;
  /** POST /login; throws ApiError (e.g. 401 with the server's message) on failure. */
  signIn(credentials: LoginRequest): Promise<CurrentUser>;
  /** POST /logout; the client forgets the session even if the request fails. */
  signOut(): Promise<void>;
  /** POST /tenant; throws ApiError (403 when not a member). */
  switchTenant(tenant: string): Promise<void>;
  /** GET /me again (e.g. after a remote changed the session), which refreshes everything keyed on the session. */
  refresh(): Promise<void>;
  /** The server said the session is gone (401): forget it without a request. */
  expire(): void;
  /**
   * Calls `listener` when the server says the session is gone, before anything protected unmounts: the moment to
   * keep what only the page holds (a form's unsaved values). Returns the unsubscribe function.
   */
  onExpire(listener: () => void): () => void;
}

const SessionContext = createContext<Session | null>(null);

interface State {
  status: SessionStatus;
  user: CurrentUser | null;
  revision: number;
  expired: boolean;
}

/**
 * Who is signed in, for the whole shell: GET /me at start, sign-in, sign-out, tenant switch. Remotes ask for a
 * refresh with the HOST_REFRESH_EVENT window event (shared/wire.ts).
 */
export interface SessionProviderProps {
  client: ApiClient;
  /**
   * GET /me already on its way (started with the page, see host/startup): the first session load answers from it
   * instead of asking again. Later loads (refresh, back/forward cache) always ask the server.
   */
  initialMe?: Promise<MePayload> | undefined;
  children?: ReactNode;
}

export function SessionProvider({ client, initialMe, children }: SessionProviderProps) {
  const [state, setState] = useState<State>({ status: 'loading', user: null, revision: 0, expired: false });
  const mounted = useRef(true);
  const pendingInitialMe = useRef(initialMe ?? null);
  const expiryListeners = useRef(new Set<() => void>());

  const settle = useCallback((user: CurrentUser | null, expired = false) => {
    if (!mounted.current) return;
    setState((previous) => ({
      status: user ? 'authenticated' : 'anonymous',
      user,
      revision: previous.revision + 1,
      // Only a session this page was using can end; a second 401 of the same ending keeps the flag.
      expired: user === null && expired && (previous.status === 'authenticated' || previous.expired),
    }));
  }, []);

  const loadMe = useCallback(async () => {
    const initial = pendingInitialMe.current;
    pendingInitialMe.current = null;
    try {
      const payload = await (initial ?? client.get<MePayload>('/me'));
      settle(payload.user);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) settle(null);
      else {
        console.error('[session] GET /me failed; treating the visitor as signed out.', error);
        settle(null);
      }
    }
  }, [client, settle]);

  useEffect(() => {
    mounted.current = true;
    void loadMe();
    const onRefresh = () => void loadMe();
    // A page restored from the back/forward cache may show a session that has since ended (signed out in this or
    // another tab): forget it at once, so nothing protected shows, and ask the server again.
    const onPageShow = (event: PageTransitionEvent) => {
      if (!event.persisted) return;
      setState((previous) => ({ status: 'loading', user: null, revision: previous.revision + 1, expired: false }));
      void loadMe();
    };
    window.addEventListener(HOST_REFRESH_EVENT, onRefresh);
    window.addEventListener('pageshow', onPageShow);
    return () => {
      mounted.current = false;
      window.removeEventListener(HOST_REFRESH_EVENT, onRefresh);
      window.removeEventListener('pageshow', onPageShow);
    };
  }, [loadMe]);

  const signIn = useCallback(
    async (credentials: LoginRequest) => {
      const payload = await client.post<MePayload>('/login', credentials);
      settle(payload.user);
      return payload.user;
    },
    [client, settle],
  );

  const signOut = useCallback(async () => {
    // Forget first, so nothing protected stays on screen while the request is in flight.
    settle(null);
    try {
      await client.post<void>('/logout');
    } catch (error) {
      console.warn('[session] POST /logout failed; the session cookie may outlive this page.', error);
    }
  }, [client, settle]);

  const switchTenant = useCallback(
    async (tenant: string) => {
      const body: TenantSwitchRequest = { tenant };
      const payload = await client.post<MePayload>('/tenant', body);
      settle(payload.user);
    },
    [client, settle],
  );

  const expire = useCallback(() => {
    for (const listener of [...expiryListeners.current]) listener();
    settle(null, true);
  }, [settle]);

  const onExpire = useCallback((listener: () => void) => {
    expiryListeners.current.add(listener);
    return () => {
      expiryListeners.current.delete(listener);
    };
  }, []);

  const value = useMemo<Session>(() => {
    const { status, user, revision, expired } = state;
    const identity = user ? `user:${user.username}` : status;
    const scope = user ? `${identity}@${user.currentTenant}` : identity;
    return {
      status,
      user,
      identity,
      scope,
      revision,
      expired,
      signIn,
      signOut,
      switchTenant,
      refresh: loadMe,
      expire,
      onExpire,
    };
  }, [state, signIn, signOut, switchTenant, loadMe, expire, onExpire]);

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error(HOST_MESSAGES.sessionProviderMissing);
  return session;
}
