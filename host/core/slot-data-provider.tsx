import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { Dashboard, MetaPayload, NavigationModule, SlotMap, SlotsPayload } from '../../shared';
import { ApiError, type ApiClient } from '../loader/api-client';
import { HOST_MESSAGES } from '../loader/messages';
import { parseSlotMap } from '../loader/parse-slot-map';

export type SlotSource = 'meta' | 'slots';

/** The page's slot data, from one request shared by every location. */
export interface SlotData {
  status: 'loading' | 'ready' | 'error';
  /** `meta` (GET /meta) when signed in, `slots` (GET /slots) otherwise. */
  source: SlotSource;
  slots: SlotMap;
  /** Dashboards and navigation modules of GET /meta; null when signed out. */
  meta: Pick<MetaPayload, 'dashboards' | 'modules'> | null;
  error: string | null;
  /** Requests the data again (same source). */
  refresh(): void;
}

const SlotDataContext = createContext<SlotData | null>(null);

export interface SlotDataProviderProps {
  client: ApiClient;
  /** Signed in: slots come from GET /meta (every location). Signed out: from GET /slots (public locations). */
  authenticated: boolean;
  /** False while it is not yet known who is signed in: nothing is requested, so a page load makes one request. */
  ready?: boolean;
  /** Who is signed in: a change drops the data at once (nothing of another session is ever shown) and refetches. */
  sessionKey?: string;
  /** Tenant, revision...: a change refetches, showing the current data until the new data arrives (no flicker). */
  refreshKey?: string;
  /** GET /meta answered 401: the session is gone. */
  onUnauthenticated?: () => void;
  /**
   * GET /slots started with the page on a guess that the visitor is signed out (host/startup). It answers the first
   * GET /slots this provider needs, so a signed-out page load still makes one slots request, started early. It is
   * never used once the session turned out signed in: a later signed-out load (after sign-out) asks again.
   */
  initialSlots?: Promise<SlotsPayload> | null | undefined;
  /**
   * GET /meta started with the page as soon as GET /me answered (host/startup). It answers the first GET /meta this
   * provider needs, when the page's first session is signed in; otherwise (the page loaded signed out) it is dropped,
   * so a later sign-in asks again.
   */
  initialMeta?: Promise<MetaPayload> | null | undefined;
  children?: ReactNode;
}

interface Loaded {
  key: string;
  sessionKey: string;
  status: 'ready' | 'error';
  slots: SlotMap;
  meta: SlotData['meta'];
  error: string | null;
}

const EMPTY_SLOTS: SlotMap = Object.freeze({});

function metaOf(payload: unknown): SlotData['meta'] {
  const value = payload as Partial<MetaPayload> | null;
  const dashboards: Dashboard[] = Array.isArray(value?.dashboards) ? value.dashboards : [];
  const modules: NavigationModule[] = Array.isArray(value?.modules) ? value.modules : [];
  return { dashboards, modules };
}

/**
 * Fetches the slot data once per page load and session (GET /meta or GET /slots) and shares it with every
 * AppSlotRenderer below. Data of an earlier session is never shown: a new key renders as loading at once.
 */
export function SlotDataProvider({
  client,
  authenticated,
  ready = true,
  sessionKey = '',
  refreshKey = '',
  onUnauthenticated,
  initialSlots,
  initialMeta,
  children,
}: SlotDataProviderProps) {
  const [revision, setRevision] = useState(0);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const onUnauthenticatedRef = useRef(onUnauthenticated);
  onUnauthenticatedRef.current = onUnauthenticated;
  const pendingInitialSlots = useRef(initialSlots ?? null);
  const pendingInitialMeta = useRef(initialMeta ?? null);
  const source: SlotSource = authenticated ? 'meta' : 'slots';
  const hardKey = `${source}|${sessionKey}`;
  const key = `${hardKey}|${refreshKey}|${revision}`;

  useEffect(() => {
    if (!ready) return undefined;
    const controller = new AbortController();
    const path = source === 'meta' ? '/meta' : '/slots';
    // The early GET /slots answers only a signed-out first load; kept until a load that used it settles.
    // Each early request answers the first load of its own kind only, and only if that is the page's first load.
    if (source === 'meta') pendingInitialSlots.current = null;
    else pendingInitialMeta.current = null;
    const pending = source === 'meta' ? pendingInitialMeta : pendingInitialSlots;
    const initial: Promise<MetaPayload | SlotsPayload> | null = pending.current;
    const request: Promise<MetaPayload | SlotsPayload> =
      initial ?? client.get<MetaPayload | SlotsPayload>(path, controller.signal);
    request.then(
      (payload) => {
        if (controller.signal.aborted) return;
        if (initial) pending.current = null;
        const parsed = parseSlotMap((payload as Partial<SlotsPayload> | null)?.slots);
        if (parsed.problems.length > 0) {
          console.warn(`[slots] ${path} carried slots the host ignored: ${parsed.problems.join('; ')}.`);
        }
        setLoaded({
          key,
          sessionKey: hardKey,
          status: 'ready',
          slots: parsed.slots,
          meta: source === 'meta' ? metaOf(payload) : null,
          error: null,
        });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (initial) pending.current = null;
        const message = error instanceof Error ? error.message : String(error);
        if (source === 'meta' && error instanceof ApiError && error.status === 401) {
          onUnauthenticatedRef.current?.();
        } else {
          console.error(HOST_MESSAGES.slotDataFailureLog, { source: path, error: message });
        }
        setLoaded({ key, sessionKey: hardKey, status: 'error', slots: EMPTY_SLOTS, meta: null, error: message });
      },
    );
    return () => controller.abort();
  }, [client, key, hardKey, source, ready]);

  const refresh = useCallback(() => setRevision((value) => value + 1), []);
  // A refresh within the same session keeps showing the current data; another session starts from nothing.
  const current = ready && loaded !== null && loaded.sessionKey === hardKey ? loaded : null;
  const value = useMemo<SlotData>(
    () => ({
      status: current?.status ?? 'loading',
      source,
      slots: current?.slots ?? EMPTY_SLOTS,
      meta: current?.meta ?? null,
      error: current?.error ?? null,
      refresh,
    }),
    [current, source, refresh],
  );
  return <SlotDataContext.Provider value={value}>{children}</SlotDataContext.Provider>;
}

/** The page's slot data; throws an instructive error outside a SlotDataProvider. */
export function useSlotData(): SlotData {
  const data = useContext(SlotDataContext);
  if (!data) throw new Error(HOST_MESSAGES.slotDataProviderMissing);
  return data;
}
