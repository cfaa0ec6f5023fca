// The page's slots, one concept kept together: which payload the session calls for (GET /slots signed out, GET /meta
// signed in, the data inlined in the page first), its loads and their failures, what is kept across a change
// of identity (the public slots across a sign-in, nothing across a sign-out) and the sign-in readied before it is
// shown. Over 300 lines because these rules decide together what a page may show; apart, each would re-read the
// others' state.
import {
  ERROR_MESSAGES,
  ERROR_STATUS,
  SIGN_IN_PATH,
  type CurrentUser,
  type Dashboard,
  type MePayload,
  type MetaPayload,
  type NavigationModule,
  type PageSessionData,
  type SignedOutBootData,
  type SlotMap,
  type SlotsPayload,
} from '../../shared';
import { ApiError, type ApiClient } from './api-client';
import { ExternalStore } from './external-store';
import { HOST_MESSAGES } from './messages';
import { parseSlotMap } from './parse-slot-map';
import { identityOf, scopeOf, SessionStore, type Session } from './session-store';

/** Which request the slot data comes from: GET /meta when signed in, GET /slots otherwise. */
export type SlotDataRequest = 'meta' | 'slots';

/** The page's slot data, from one request shared by every location. */
export interface SlotData {
  status: 'loading' | 'ready' | 'error';
  /** `meta` (GET /meta) when signed in, `slots` (GET /slots) otherwise. */
  source: SlotDataRequest;
  slots: SlotMap;
  /** Dashboards and navigation modules of GET /meta; null when signed out. */
  meta: Pick<MetaPayload, 'dashboards' | 'modules'> | null;
  error: string | null;
  /** Requests the data again (same source). */
  refresh(): void;
}

export interface SlotSourceOptions {
  client: ApiClient;
  /** The page's path: the sign-in page asks GET /slots early, the others GET /meta. */
  pathname: string;
  /** The session data the server inlined in a signed-in page: GET /me and GET /meta are answered from it. */
  sessionData?: PageSessionData | null;
  /** Settles once the remotes' components are registered (see {@link SlotSource.awaitRemotes}); null: they are. */
  remotesReady?: Promise<unknown> | null;
  /**
   * Awaited, beside GET /meta, before a sign-in made here shows signed in (RemotesFollowingSession.beforeSignedIn);
   * what it rejects with is ignored.
   */
  beforeSignedIn?: (user: CurrentUser) => Promise<void>;
}

/** GET /meta asked for a session being signed in here, before the session says so (SlotSource.prepareSignIn). */
interface Prepared {
  scope: string;
  request: Promise<MetaPayload>;
  /** What it brought once it answered; null while it has not, or when it failed (the load that uses it says so). */
  loaded: Loaded | null;
}

/** A load of the slot data: which request for which session, and what it brought. */
interface Loaded {
  /** The request and identity it was made for: data of another identity is never given out. */
  identityKey: string;
  status: 'ready' | 'error';
  slots: SlotMap;
  meta: SlotData['meta'];
  error: string | null;
}

const PATH_OF: Readonly<Record<SlotDataRequest, string>> = { meta: '/meta', slots: '/slots' };
const EMPTY_SLOTS: SlotMap = Object.freeze({});
const LOADING: SlotData = Object.freeze({
  status: 'loading',
  source: 'slots',
  slots: EMPTY_SLOTS,
  meta: null,
  error: null,
  refresh: () => undefined,
});

function metaOf(payload: unknown): SlotData['meta'] {
  const value = payload as Partial<MetaPayload> | null;
  const dashboards: Dashboard[] = Array.isArray(value?.dashboards) ? value.dashboards : [];
  const modules: NavigationModule[] = Array.isArray(value?.modules) ? value.modules : [];
  return { dashboards, modules };
}

/** The answer GET /me gives a request without a session, for a page whose server said there was none. */
function nobodySignedIn(): ApiError {
  return new ApiError(ERROR_STATUS.unauthenticated, 'unauthenticated', ERROR_MESSAGES.unauthenticated);
}

/** The same promise, marked as handled: its consumer may attach later, or never (a wrong guess). */
function handled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

/**
 * Where the page's slot data comes from, outside React: the session data inlined in a signed-in page (or the public
 * slots inlined in a signed-out one), else the requests started with the page (GET /me with GET /slots on the sign-in
 * page, GET /meta after GET /me elsewhere), then GET /meta or GET /slots again whenever the session changes. It follows
 * the {@link SessionStore}: a new identity gives out "loading" at once (nothing of another identity is ever shown; only
 * the public slots of GET /slots are kept on the way to signed in, being anybody's); a new tenant or revision keeps the
 * current data until the new data arrives; while who is signed in is unknown nothing is asked, and while GET /me fails
 * (`unavailable`) the public slots are loaded (GET /slots). A 401 on GET /meta expires the session. A sign-in made here
 * is shown with its GET /meta already answered (prepareSignIn).
 */
export class SlotSource extends ExternalStore<SlotData> {
  readonly session: SessionStore;
  /**
   * The public slots a page says nobody is signed in with (SignedOutBootData), already answered, on any page; else
   * GET /slots started with the page on the guess that the visitor is signed out, made only on the sign-in page,
   * where that is almost always right; null elsewhere. The payload is public by construction, so a wrong guess
   * shows nothing it should not.
   */
  readonly earlySlots: Promise<SlotsPayload> | null;
  /**
   * GET /meta started the moment GET /me says who is signed in, on every page but the sign-in page (or answered by
   * the session data). Rejects, without a request, when GET /me does; null on the sign-in page.
   */
  readonly earlyMeta: Promise<MetaPayload> | null;
  private readonly client: ApiClient;
  /** The early requests still unused: each answers the first load of its own kind, if that is the page's first. */
  private pending: { meta: Promise<MetaPayload> | null; slots: Promise<SlotsPayload> | null };
  /**
   * The session scope (who, in which tenant) the early requests were made for: that of the page's first load. A load
   * in another scope (a tenant switched before the early answer came) must ask the server: the early answer is
   * another tenant's.
   */
  private pendingScope: string | null = null;
  /** What the remotes' registration is awaited from; null once they are known. */
  private remotesPending: Promise<unknown> | null = null;
  private revision = 0;
  private loaded: Loaded | null = null;
  /** The slots of the last GET /slots answered: public, so shown while a signed-in page's GET /meta is on its way. */
  private publicSlots: SlotMap = EMPTY_SLOTS;
  /** GET /meta of the sign-in made here, until the load of the signed-in session takes it; null otherwise. */
  private prepared: Prepared | null = null;
  /** The key of the load in flight or done, and how to abandon it. */
  private inFlight: { key: string; controller: AbortController } | null = null;

  private readonly beforeSignedIn: ((user: CurrentUser) => Promise<void>) | null;

  constructor({ client, pathname, sessionData = null, remotesReady = null, beforeSignedIn }: SlotSourceOptions) {
    // As with the session, the bound `refresh` exists only once super() has returned.
    super(LOADING);
    this.publish(Object.freeze({ ...LOADING, refresh: this.refresh }));
    this.client = client;
    this.beforeSignedIn = beforeSignedIn ?? null;
    const onSignInPage = pathname === SIGN_IN_PATH;
    let me: Promise<MePayload>;
    // The session data answers on every page, the sign-in page too: a signed-in visitor there is sent on at once,
    // with no GET /slots on the guess that nobody is signed in (one source of slots per session state).
    if (sessionData && sessionData.me !== null) {
      me = Promise.resolve(sessionData.me);
      this.earlySlots = null;
      this.earlyMeta = Promise.resolve(sessionData.meta);
    } else {
      // A page whose request carried no session says so: GET /me would only answer its 401. Its public slots (what
      // GET /slots answered the page's request) are the first answer, on any page: rendered with the form at once
      // (an older server's page has none, and the sign-in page asks). Checked where every slot answer is, when loaded.
      me = handled(sessionData ? Promise.reject(nobodySignedIn()) : client.get<MePayload>('/me'));
      const inlined = (sessionData as SignedOutBootData | null)?.slots;
      this.earlySlots = inlined
        ? Promise.resolve(inlined)
        : onSignInPage
          ? handled(client.get<SlotsPayload>('/slots'))
          : null;
      this.earlyMeta = onSignInPage ? null : handled(me.then(() => client.get<MetaPayload>('/meta')));
    }
    this.pending = { meta: this.earlyMeta, slots: this.earlySlots };
    // GET /me failed other than with a 401 (an outage): the early GET /meta was never made. The early GET /slots
    // answers the public slots shown through the outage (it reads no database, so it may well have answered).
    me.catch((error: unknown) => {
      if (!(error instanceof ApiError && error.status === 401)) this.pending.meta = null;
    });
    this.session = new SessionStore(client, me, this.prepareSignIn);
    this.session.subscribe(() => this.sync());
    void this.session.refresh();
    if (remotesReady !== null) this.awaitRemotes(remotesReady);
  }

  /**
   * Gives out slot data only once `remotesReady` has settled (either way), so that no slot renders as an unknown
   * name before the remotes' components are registered.
   */
  awaitRemotes(remotesReady: Promise<unknown>): void {
    const ready = (this.remotesPending = remotesReady);
    const known = () => {
      if (this.remotesPending !== ready) return;
      this.remotesPending = null;
      this.sync();
    };
    remotesReady.then(known, known);
    this.sync();
  }

  /** Requests the slot data again, from the same source. */
  readonly refresh = (): void => {
    this.revision += 1;
    this.sync();
  };

  /**
   * Asks GET /meta of a user signed in here (POST /login answered) before the session says they are: the sign-in page
   * stays until it answers, then the signed-in shell shows with its navigation and slots at once, not first empty and
   * then filled in, each step moving the page. A failure is left to the load that takes the request (`sync`), which
   * reports it as it would have without this (a 401 expires the session).
   */
  private readonly prepareSignIn = async (user: CurrentUser): Promise<void> => {
    const request = handled(this.client.get<MetaPayload>('/meta'));
    const prepared: Prepared = { scope: scopeOf('authenticated', user), request, loaded: null };
    this.prepared = prepared;
    const meta = (async () => {
      try {
        const identityKey = `meta|${identityOf('authenticated', user)}`;
        prepared.loaded = this.loadedFrom('meta', identityKey, await request);
      } catch {
        // Reported by the load that takes the request, once the session is shown signed in.
      }
    })();
    await Promise.all([meta, this.beforeSignedIn?.(user).catch(() => undefined)]);
  };

  /** Starts the load the session calls for, unless it is the one in flight; then gives out what is current. */
  private sync(): void {
    const session = this.session.snapshot();
    // Nothing is loaded while who is signed in is unknown (GET /me on its way). When GET /me failed (`unavailable`:
    // an outage of the session store, say) the public slots are: they are the same for everyone, and GET /slots
    // reads no database, so a maintenance notice in the header banner still shows through the outage.
    const ready = session.status !== 'loading' && this.remotesPending === null;
    const source: SlotDataRequest = session.status === 'authenticated' ? 'meta' : 'slots';
    // Public slots are nobody's in particular: kept from signed out to unavailable and back while asked again.
    const identityKey = source === 'slots' ? source : `${source}|${session.identity}`;
    const key = `${identityKey}|${session.scope}#${session.revision}|${this.revision}`;
    if (!ready) {
      this.inFlight?.controller.abort();
      this.inFlight = null;
    } else if (this.inFlight?.key !== key) {
      this.inFlight?.controller.abort();
      // The sign-in made here asked GET /meta already: its answer is given out with the session, in one step.
      const prepared = source === 'meta' ? this.takePrepared(session.scope) : null;
      if (prepared?.loaded) {
        this.inFlight = { key, controller: new AbortController() };
        this.loaded = prepared.loaded;
      } else {
        this.load(source, key, identityKey, session.scope, prepared?.request ?? null);
      }
    }
    // A refresh within the same identity keeps giving out the current data; another identity starts from nothing,
    // but for the public slots on the way to signed in: anybody may see them, and GET /meta answers them again.
    const current = ready && this.loaded !== null && this.loaded.identityKey === identityKey ? this.loaded : null;
    const waiting = ready && source === 'meta' ? this.publicSlots : EMPTY_SLOTS;
    const previous = this.snapshot();
    if (
      previous.source === source &&
      previous.status === (current?.status ?? 'loading') &&
      previous.slots === (current?.slots ?? waiting) &&
      previous.meta === (current?.meta ?? null) &&
      previous.error === (current?.error ?? null)
    ) {
      return;
    }
    this.publish(
      Object.freeze({
        status: current?.status ?? 'loading',
        source,
        slots: current?.slots ?? waiting,
        meta: current?.meta ?? null,
        error: current?.error ?? null,
        refresh: this.refresh,
      }),
    );
  }

  /** The GET /meta of the sign-in made here, when it was made for `scope`; forgotten either way. */
  private takePrepared(scope: string): Prepared | null {
    const prepared = this.prepared;
    this.prepared = null;
    return prepared?.scope === scope ? prepared : null;
  }

  /** What a GET /meta or GET /slots answer gives out, for the identity it was asked for. */
  private loadedFrom(source: SlotDataRequest, identityKey: string, payload: MetaPayload | SlotsPayload): Loaded {
    const parsed = parseSlotMap((payload as Partial<SlotsPayload> | null)?.slots);
    if (parsed.problems.length > 0) {
      console.warn(`[slots] ${PATH_OF[source]} carried slots the host ignored: ${parsed.problems.join('; ')}.`);
    }
    return {
      identityKey,
      status: 'ready',
      slots: parsed.slots,
      meta: source === 'meta' ? metaOf(payload) : null,
      error: null,
    };
  }

  /** `given`: a request already asked for this load (the sign-in's GET /meta), in place of the early one or a new one. */
  private load(
    source: SlotDataRequest,
    key: string,
    identityKey: string,
    scope: string,
    given: Promise<MetaPayload> | null = null,
  ): void {
    const controller = new AbortController();
    this.inFlight = { key, controller };
    const path = PATH_OF[source];
    // The early request of the other kind is never used once the page's first load is of this kind.
    if (source === 'meta') this.pending.slots = null;
    else this.pending.meta = null;
    this.pendingScope ??= scope;
    if (scope !== this.pendingScope) this.pending = { meta: null, slots: null };
    const initial: Promise<MetaPayload | SlotsPayload> | null = given ?? this.pending[source];
    const request = initial ?? this.client.get<MetaPayload | SlotsPayload>(path, controller.signal);
    // The early request is dropped once a load that used it settles (not when one is abandoned before).
    const settled = () => {
      if (initial && !given) this.pending[source] = null;
    };
    request.then(
      (payload) => {
        if (controller.signal.aborted) return;
        settled();
        this.loaded = this.loadedFrom(source, identityKey, payload);
        if (source === 'slots') this.publicSlots = this.loaded.slots;
        this.sync();
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        settled();
        this.fail(source, identityKey, error);
      },
    );
  }

  /** Gives out a load that failed, and reports it (a 401 on GET /meta ends the session instead). */
  private fail(source: SlotDataRequest, identityKey: string, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.loaded = { identityKey, status: 'error', slots: EMPTY_SLOTS, meta: null, error: message };
    if (source === 'meta' && error instanceof ApiError && error.status === 401) {
      // Expiring the session loads GET /slots for the signed-out page (a new identity: loading first).
      this.session.expire();
    } else {
      console.error(HOST_MESSAGES.slotDataFailureLog, { source: PATH_OF[source], error: message });
    }
    this.sync();
  }
}

export type { Session };
