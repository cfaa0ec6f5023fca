// Over 300 lines: one state machine (signed in, expiring, ended in another tab, the server unreachable) read as a whole.
import {
  API_CLIENT_MESSAGES,
  HOST_REFRESH_EVENT,
  HOST_SESSION_EVENT,
  postTenantSwitch,
  tenantName,
  type HostSessionDetail,
  type CurrentUser,
  type LoginRequest,
  type MePayload,
  type ReadOptions,
  type SessionTimePayload,
} from '../../shared';
import { ApiError, createApiClient, type ApiClient } from './api-client';
import { ExternalStore } from './external-store';
import { openSessionBroadcast, type SessionBroadcast } from './session-broadcast';
import type { SessionEnd } from './session-end';

/**
 * `unavailable`: GET /me failed other than with a 401 (the server, its session store or database is down, or the
 * network is): who is signed in is not known, which is not the same as nobody. The page shows the outage and offers
 * to try again (`refresh`) rather than the sign-in page, which would only fail and hide that the session lives on.
 */
export type SessionStatus = 'loading' | 'anonymous' | 'authenticated' | 'unavailable';

/** Why who is signed in is not known (status `unavailable`), for the page to say so and try again. */
export interface SessionOutage {
  /** The failure of the last GET /me: status 0 (`network`) when the server could not be reached. */
  error: ApiError;
  /** GET /me failed this many times in a row: each try made by itself waits longer than the one before. */
  failures: number;
  /** A GET /me is on its way: the page says it is trying, and does not ask twice. */
  checking: boolean;
}

/**
 * What the sign-in page says when signing in again was refused for the tenant the page showed (403 `not_in_tenant`):
 * the account was removed from it while signed out. The next sign-in asks for no tenant, and starts in its first.
 */
export function leftTenantMessage(tenant: string): string {
  return (
    `Your account no longer belongs to ${tenant}, where this page was when your session ended. Sign in again to ` +
    'work in your first tenant.'
  );
}

/** Who is signed in, as the shell reads it (`useSession()`), with what changes it. */
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
   * True when the server ended the session this page was using (a 401 answer, or signed out in another tab), so the
   * sign-in page can say why it is shown; false after a sign-in, a sign-out, or a page load without a session.
   */
  expired: boolean;
  /**
   * Why the session this page was using ended, when the page can tell (the idle or absolute limit passed, signed out
   * in another tab: SessionEnd); null when it cannot, and whenever `expired` is false.
   */
  ended: SessionEnd | null;
  /**
   * True when the session as it is now was brought by a change made outside this page (a tenant switch, a sign-in or
   * sign-out in another tab, or the account removed from the tenant the page showed), so the page can say why it
   * changed under the user; false after any change made or loaded here.
   */
  changedElsewhere: boolean;
  /**
   * How long the session had left at the last answer that said so (`GET /me`, sign-in, tenant switch), and when
   * that answer arrived on this page's clock; null when none did.
   */
  time: SessionTime | null;
  /** Set while the status is `unavailable`: what failed, and whether it is being tried again; null otherwise. */
  outage: SessionOutage | null;
  /**
   * Why the last sign-out of this page may not have ended the session on the server (POST /logout failed: the server
   * or its session store not answering), for the sign-in page to say so; null otherwise, and after any later change.
   */
  signOutFailure: ApiError | null;
  /**
   * POST /login; throws ApiError (e.g. 401 with the server's message) on failure. Signed in, the session says so only
   * once the signed-in page's data is ready (PrepareSignIn), and the promise resolves then.
   */
  signIn(credentials: LoginRequest): Promise<CurrentUser>;
  /** POST /logout; the client forgets the session even if the request fails. */
  signOut(): Promise<void>;
  /** POST /tenant; throws ApiError (403 when not a member). */
  switchTenant(tenant: string): Promise<void>;
  /**
   * GET /me again (e.g. after a remote changed the session, or to try again after an outage), which refreshes
   * everything keyed on the session. `background`: asked by the page itself (its automatic retries during an
   * outage), not by the person: it does not count as use of the session (BACKGROUND_READ_HEADER).
   */
  refresh(read?: ReadOptions): Promise<void>;
  /**
   * The server said the session is gone (401): forget it without a request. `ended`: why, when the caller can tell
   * (SessionExpiryWarning, whose 401 comes once the session's own limit has passed).
   */
  expire(ended?: SessionEnd): void;
  /**
   * Calls `listener` when the server says the session is gone, another tab moved it to another tenant or user, or
   * GET /me failed so that who is signed in is not known any more, before anything protected unmounts: the moment to keep what only the page holds (a form's unsaved values).
   * Returns the unsubscribe function.
   */
  onExpire(listener: () => void): () => void;
}

export interface SessionTime {
  payload: SessionTimePayload;
  receivedAt: number;
}

interface State {
  status: SessionStatus;
  user: CurrentUser | null;
  revision: number;
  expired: boolean;
  ended: SessionEnd | null;
  changedElsewhere: boolean;
  time: SessionTime | null;
  outage: SessionOutage | null;
  signOutFailure: ApiError | null;
}

/** Who and in which tenant (Session.scope) for a user, or the status when nobody is signed in. */
export function scopeOf(status: SessionStatus, user: CurrentUser | null): string {
  return user ? `user:${user.username}@${user.currentTenant}` : status;
}

/** Who (Session.identity) for a user, or the status when nobody is signed in. */
export function identityOf(status: SessionStatus, user: CurrentUser | null): string {
  return user ? `user:${user.username}` : status;
}

/**
 * Readies what the signed-in page needs before a sign-in made here is shown (the slot source's GET /meta), so that
 * the sign-in page gives way to the signed-in shell with its navigation in one step rather than in several. Never
 * rejects: a failure is for the load that follows the sign-in to report, as it would without this.
 */
export type PrepareSignIn = (user: CurrentUser) => Promise<void>;

/**
 * The session of the page, outside React: GET /me at start, sign-in, sign-out, tenant switch, and the refresh that
 * remotes ask for with the HOST_REFRESH_EVENT window event (shared/wire.ts). The slot source follows it. A change
 * made here is announced to the origin's other tabs, which share the session (see session-broadcast.ts), and one
 * announced by another tab is followed here (`listen`).
 */
export class SessionStore extends ExternalStore<Session> {
  private state: State = {
    status: 'loading',
    user: null,
    revision: 0,
    expired: false,
    ended: null,
    changedElsewhere: false,
    time: null,
    outage: null,
    signOutFailure: null,
  };
  private readonly expiryListeners = new Set<() => void>();
  /** GET /me started with the page (or answered by its session data): it answers the first load only. */
  private pendingMe: Promise<MePayload> | null;
  /** The line to the other tabs while the store follows the window (`listen`); null otherwise. */
  private broadcast: SessionBroadcast | null = null;
  /** The window followed (`listen`), told of each new session (HOST_SESSION_EVENT); null otherwise. */
  private window: Window | null = null;
  /** The session's scope (who, in which tenant) last told to the window's remotes. */
  private announcedScope: string | null = null;
  /**
   * Who was signed in, and in which tenant, when the session ended under the page (expired, ended in another tab):
   * signing in again as them asks for that tenant, so the page comes back where its work was rather than in their
   * first tenant. A sign-out forgets it.
   */
  private endedIn: { username: string; tenant: string; tenantName: string } | null = null;
  /** The GET /me of followSessionChange on its way, shared by the calls made meanwhile; null otherwise. */
  private following: Promise<void> | null = null;
  /** Why another tab said the session ended, for followSessionChange's GET /me on its way; null when none said. */
  private endedElsewhere: SessionEnd | null = null;
  /** The change made here last (sign-in, sign-out, tenant switch, refresh, expiry), settled or not. */
  private lastChange: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly client: ApiClient,
    initialMe: Promise<MePayload> | null = null,
    private readonly prepareSignIn: PrepareSignIn | null = null,
  ) {
    // The first value needs the bound methods, which exist only once super() has returned: published just below.
    super(undefined as unknown as Session);
    this.pendingMe = initialMe;
    this.publishState(this.state);
  }

  /**
   * Loads who is signed in (from the early GET /me the first time). Only a 401 means nobody is: any other failure
   * makes the session `unavailable` (see SessionStatus), kept so until GET /me answers.
   */
  readonly refresh = async (read: ReadOptions = {}): Promise<void> => {
    const initial = this.pendingMe;
    this.pendingMe = null;
    const { outage } = this.state;
    if (outage) this.publishState({ ...this.state, outage: { ...outage, checking: true } });
    try {
      const payload = await (initial ?? this.client.get<MePayload>('/me', undefined, read));
      this.settle(payload.user, false, payload.session);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        this.settle(null);
        return;
      }
      console.warn('[session] GET /me failed; who is signed in is unknown until it answers.', error);
      this.becomeUnavailable(error);
    }
  };

  readonly signIn = (credentials: LoginRequest): Promise<CurrentUser> =>
    this.changedHere(async () => {
      const ended = this.endedIn;
      const again = ended !== null && sameUsername(ended.username, credentials.username);
      const request: LoginRequest = again ? { ...credentials, tenant: ended.tenant } : credentials;
      let payload: MePayload;
      try {
        payload = await this.client.post<MePayload>('/login', request);
      } catch (error) {
        // Removed from that tenant meanwhile: the server refuses rather than start elsewhere without a word (it
        // did). Said in the page's words, the tenant forgotten: the next sign-in starts in the account's first.
        if (!again || !(error instanceof ApiError) || error.code !== 'not_in_tenant') throw error;
        this.endedIn = null;
        throw new ApiError(error.status, error.code, leftTenantMessage(ended.tenantName));
      }
      // Still signed out meanwhile: the sign-in page stays, saying it signs in, with only public slots on screen.
      if (this.prepareSignIn) await this.prepareSignIn(payload.user);
      this.settle(payload.user, false, payload.session);
      return payload.user;
    });

  readonly signOut = (): Promise<void> =>
    this.changedHere(async () => {
      // Forget first, so nothing protected stays on screen while the request is in flight.
      this.settle(null);
      try {
        await this.client.post<void>('/logout');
      } catch (error) {
        // Said on the sign-in page: on a shared computer the next person could otherwise find this session.
        console.warn('[session] POST /logout failed; the session may outlive this page.', error);
        if (this.state.user === null)
          this.publishState({ ...this.state, signOutFailure: asApiError(error, 'POST /logout') });
      }
    }, SIGNED_OUT_HERE);

  readonly switchTenant = (tenant: string): Promise<void> =>
    this.changedHere(async () => {
      const payload = await postTenantSwitch(this.client, tenant);
      this.settle(payload.user, false, payload.session);
    });

  readonly expire = (ended?: SessionEnd): void => {
    // The other tabs share the session that ended: they show the sign-in page now rather than at their next request,
    // saying why when this page knows (the same limit ended theirs).
    void this.changedHere(async () => {
      this.keepPageWork();
      this.settle(null, true, undefined, false, ended ?? null);
    }, ended ?? null);
  };

  readonly onExpire = (listener: () => void): (() => void) => {
    this.expiryListeners.add(listener);
    return () => {
      this.expiryListeners.delete(listener);
    };
  };

  /**
   * Follows the window: HOST_REFRESH_EVENT loads the session again (a remote switched the tenant: the other tabs are
   * told), a change announced by another tab of the origin is followed (`followSessionChange`), and a page restored from
   * the back/forward cache, which may show a session that has since ended (signed out in this or another tab),
   * forgets it at once, so nothing protected shows, and asks the server again. Returns what stops following.
   */
  listen(target: Window): () => void {
    const onRefresh = () => void this.changedHere(this.refresh);
    const onPageShow = (event: PageTransitionEvent) => {
      if (!event.persisted) return;
      this.publishState({
        status: 'loading',
        user: null,
        revision: this.state.revision + 1,
        expired: false,
        ended: null,
        changedElsewhere: false,
        time: null,
        outage: null,
        signOutFailure: null,
      });
      void this.refresh();
    };
    target.addEventListener(HOST_REFRESH_EVENT, onRefresh);
    target.addEventListener('pageshow', onPageShow);
    const broadcast = openSessionBroadcast(target, (ended) => void this.followSessionChange(ended));
    this.broadcast = broadcast;
    this.window = target;
    return () => {
      target.removeEventListener(HOST_REFRESH_EVENT, onRefresh);
      target.removeEventListener('pageshow', onPageShow);
      broadcast.close();
      if (this.broadcast === broadcast) this.broadcast = null;
      if (this.window === target) this.window = null;
    };
  }

  /**
   * The session changed outside this page: another tab announced a change of the session they share, or a read was
   * answered in another tenant than the page shows (the account was removed from it: ApiClientOptions.onTenantMoved).
   * Asks the server who is signed in now and, when that is not who and where this page shows, keeps what only the
   * page holds (as when the session ends: a record form's unsaved values become a draft of this tab, offered back in
   * that record, user and tenant) and then shows the session as it is (pages keyed on the scope load again;
   * RequireAuth moves a record page of the old tenant to the new one's list). Signed out there, this page's session
   * has ended. Told nothing new (the page already agrees), nothing changes. Asked again while it asks, it answers
   * with the same request: every read of a page refused at once asks once. `ended`: why the other tab said the
   * session ended (signed out there), said on the sign-in page if the server agrees that it has.
   */
  readonly followSessionChange = (ended: SessionEnd | null = null): Promise<void> => {
    if (ended) this.endedElsewhere = ended;
    this.following ??= this.readSessionAgain().finally(() => {
      this.following = null;
      this.endedElsewhere = null;
    });
    return this.following;
  };

  private async readSessionAgain(): Promise<void> {
    // The first load is on its way: it asks the server after the change, or the change is announced again.
    if (this.state.status === 'loading') return;
    let payload: MePayload | null;
    try {
      payload = await this.client.get<MePayload>('/me');
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401)) {
        console.warn(
          '[session] The session changed outside this page, and GET /me failed; this page follows at its next request.',
          error,
        );
        return;
      }
      payload = null;
    }
    const user = payload?.user ?? null;
    if (scopeOf(user ? 'authenticated' : 'anonymous', user) === this.snapshot().scope) return;
    if (this.state.status === 'authenticated') this.keepPageWork();
    this.settle(user, user === null, payload?.session, true, this.endedElsewhere);
  }

  /**
   * Runs a change of the session made in this tab, then tells the other tabs when it changed who is signed in or in
   * which tenant (they ask the server), and why it ended when it did (`ended`, as they should say it). After the
   * server has answered, so that they find the session as it now is.
   */
  private changedHere<T>(change: () => Promise<T>, ended: SessionEnd | null = null): Promise<T> {
    const before = this.snapshot().scope;
    // Known before the change starts: what it shows at once (a sign-out's) is followed by callers of changesSettled.
    let changed!: () => void;
    this.lastChange = new Promise<void>((resolve) => (changed = resolve));
    const changing = (async () => {
      try {
        return await change();
      } finally {
        if (this.snapshot().scope !== before) this.broadcast?.announce(ended);
        changed();
      }
    })();
    return changing;
  }

  /**
   * Settles once the change made here last has (a sign-out shows signed out before its POST /logout has answered: what
   * the server serves the session after it is known only then). Never rejects.
   */
  changesSettled(): Promise<void> {
    return this.lastChange.then(() => undefined);
  }

  /**
   * GET /me failed other than with a 401: nothing protected may show while who is signed in is unknown, so what only
   * the page holds is kept first (as at an expiry: a form's unsaved values become a draft offered back once the same
   * user is signed in again), then the outage is shown.
   */
  private becomeUnavailable(error: unknown): void {
    const previous = this.state;
    if (previous.status === 'authenticated') this.keepPageWork();
    this.publishState({
      status: 'unavailable',
      user: null,
      revision: previous.revision + 1,
      // A session that ended before the outage still has: the sign-in page says so once the server answers 401.
      expired: previous.expired,
      ended: previous.ended,
      changedElsewhere: false,
      time: null,
      outage: {
        error: asApiError(error),
        failures: (previous.outage?.failures ?? 0) + 1,
        checking: false,
      },
      signOutFailure: null,
    });
  }

  /** The expiry listeners, while protected content is still mounted (the settle that follows unmounts it). */
  private keepPageWork(): void {
    for (const listener of [...this.expiryListeners]) listener();
  }

  private settle(
    user: CurrentUser | null,
    expired = false,
    time?: SessionTimePayload,
    changedElsewhere = false,
    ended: SessionEnd | null = null,
  ): void {
    const previous = this.state;
    // Only a session this page was using can end; a second 401 of the same ending keeps the flag, and the cause
    // unless it tells one (the expiry warning's check may answer after a read refused at the same moment).
    const stillExpired = user === null && expired && (previous.status === 'authenticated' || previous.expired);
    if (user !== null) this.endedIn = null;
    else if (expired && previous.user !== null) {
      const tenant = previous.user.currentTenant;
      this.endedIn = { username: previous.user.username, tenant, tenantName: tenantName(previous.user, tenant) };
    } else if (!expired) this.endedIn = null;
    this.publishState({
      time: user && time ? { payload: time, receivedAt: Date.now() } : null,
      status: user ? 'authenticated' : 'anonymous',
      user,
      revision: previous.revision + 1,
      expired: stillExpired,
      ended: stillExpired ? (ended ?? (previous.expired ? previous.ended : null)) : null,
      changedElsewhere,
      outage: null,
      signOutFailure: null,
    });
  }

  private publishState(state: State): void {
    this.state = state;
    const { status, user, revision, expired, ended, changedElsewhere, time, outage, signOutFailure } = state;
    const identity = identityOf(status, user);
    this.announce(status, user);
    this.publish(
      Object.freeze({
        status,
        user,
        identity,
        scope: scopeOf(status, user),
        revision,
        expired,
        ended,
        changedElsewhere,
        time,
        outage,
        signOutFailure,
        signIn: this.signIn,
        signOut: this.signOut,
        switchTenant: this.switchTenant,
        refresh: this.refresh,
        expire: this.expire,
        onExpire: this.onExpire,
      }),
    );
  }

  /**
   * Tells the components of the window followed when who is signed in, or in which tenant, changed
   * (HOST_SESSION_EVENT): a remote's tenant switcher that read GET /me once would otherwise go on naming the tenant
   * the session left, here after a switch in another tab. Known states only: loading or an outage says nothing new.
   */
  private announce(status: SessionStatus, user: CurrentUser | null): void {
    if (status !== 'authenticated' && status !== 'anonymous') return;
    const scope = scopeOf(status, user);
    if (this.window === null || scope === this.announcedScope) return;
    this.announcedScope = scope;
    const detail: HostSessionDetail = { user };
    this.window.dispatchEvent(new CustomEvent(HOST_SESSION_EVENT, { detail }));
  }
}

/** Why the other tabs' session ended when this one signs out: said there as "signed out in another tab". */
const SIGNED_OUT_HERE: SessionEnd = { cause: 'signed-out-elsewhere' };

/** Usernames are one account whatever their case (the server folds them alike). */
function sameUsername(a: string, b: string): boolean {
  return a.normalize('NFKC').toLowerCase() === b.trim().normalize('NFKC').toLowerCase();
}

/**
 * What the page says of a failed request (GET /me unless named). The client rejects with ApiError only; anything
 * else (an answer without a user) is read as an answer the page could not use.
 */
function asApiError(error: unknown, request = 'GET /me'): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError(0, 'unreadable', API_CLIENT_MESSAGES.unreadable, {}, null, [], request);
}

/**
 * The page's API clients. The one for the page's components marks each change with the tenant the page shows
 * (PAGE_TENANT_HEADER: the server refuses a change once the session works in another tenant, switched in another
 * tab), and refuses a read answered in another tenant (the account removed from the page's, or switched in another
 * tab), which makes the session follow the server (ApiClientOptions.onTenantMoved). The session's own requests
 * (GET /me, sign-in, the slots of the page) are about the session itself, whatever tenant the page shows: they go
 * through a client that checks neither. The session is made with its client, so it is handed over once it exists
 * (`follow`); until then, and while nobody is signed in, nothing is sent or checked.
 */
export function createPageClient(): {
  client: ApiClient;
  sessionClient: ApiClient;
  follow(session: SessionStore): void;
} {
  let followed: SessionStore | null = null;
  const client = createApiClient(undefined, {
    pageTenant: () => followed?.snapshot().user?.currentTenant ?? null,
    onTenantMoved: () => followed?.followSessionChange(),
  });
  return {
    client,
    sessionClient: createApiClient(),
    follow: (session) => {
      followed = session;
    },
  };
}
