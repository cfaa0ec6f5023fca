import { createInstance, getInstance, type ModuleFederation } from '@module-federation/enhanced/runtime';
import type { ApiClient } from '../loader/api-client';
import { createPageClient } from '../loader/session-store';
import {
  fetchRemoteDescriptors,
  previewedReleasesOf,
  type ParsedRemoteDescriptors,
  type PreviewedRelease,
} from '../loader/remote-descriptors';
import { reloadOnRemoteRebuilds } from '../loader/remote-live-reload';
import { remotesFollowingSession } from '../loader/remotes-follow-session';
import type { ReliabilityOptions } from '../loader/reliability-plugin';
import { createRemoteModuleLoader, type RemoteModuleLoader } from '../loader/remote-module-loader';
import { HOST_MESSAGES } from '../loader/messages';
import { parseSlotMap } from '../loader/parse-slot-map';
import { HOST_NAME, pageComponents, SIGN_IN_PATH, type PageSessionData } from '../../shared';
import { readBootData, readSessionData, type ParsedBootData } from './read-boot-data';
import { SlotSource } from '../loader/slot-source';

/** What the start-up code hands to the React shell (bootstrap.tsx). */
export interface HostStartup {
  client: ApiClient;
  /** The page's slot data and session, with the requests it started already on their way. */
  source: SlotSource;
  modules: RemoteModuleLoader;
  /**
   * Settles once the remotes are registered, or their list could not be loaded; null when they were registered
   * before startHost returned (from the boot data), so there is nothing to wait for.
   */
  remotesReady: Promise<void> | null;
  /**
   * Settles once the remote modules started for the page so far (those of its boot data, or of its slots once
   * known) have loaded or failed; never rejects. The shell waits for it, for a moment, so that it renders with
   * them rather than with placeholders and again.
   */
  pageModulesLoaded(): Promise<void>;
  /**
   * Whether failed slots may show details, as the server said with the remotes (false until it has): the server's
   * mode decides, not this build's.
   */
  readonly showSlotDetails: boolean;
  /** The releases this session previews, as the server said with the remotes (none until it has). */
  readonly previewedReleases: readonly PreviewedRelease[];
}

export interface StartHostOptions {
  client?: ApiClient;
  /** The runtime instance; the host build's own by default. */
  instance?: ModuleFederation;
  /** `window.location.pathname` by default. */
  pathname?: string;
  /** `window.location.href` by default: remotes on its origin are loaded ahead of rendering. */
  pageUrl?: string;
  /** The boot data of index.html by default (null: none). */
  bootData?: ParsedBootData | null;
  /** The session data of a signed-in page, read from it by default (null: none). */
  sessionData?: PageSessionData | null;
  /**
   * Whether a media query matches (window.matchMedia by default; false without it): what shows only under one (the
   * sign-in sidebar) is loaded ahead only when it matches.
   */
  matchesMedia?: (query: string) => boolean;
  /**
   * What a remote module that cannot be loaded resolves to: the shell's fallback module, which renders React. The
   * caller (host/index.ts) imports it only when a load fails, so no React loads before the async boundary.
   */
  fallbackModule: ReliabilityOptions['fallbackModule'];
  reliability?: Partial<ReliabilityOptions>;
  /**
   * Loads the page again (window.location.reload by default): when the session changes in the page and the server
   * chooses other releases for the new one (remotes-follow-session.ts).
   */
  reloadPage?: () => void;
}

/**
 * Whether a remote's entry is on the page's own origin, i.e. served with the host. Only those are loaded ahead of
 * rendering: a script inserted before the page's load event holds that event up, so a remote elsewhere that
 * hangs would keep the page loading; it is fetched when a slot renders it, as ever.
 */
function servedWithThePage(entry: string, pageUrl: string): boolean {
  try {
    return new URL(entry, pageUrl).origin === new URL(pageUrl).origin;
  } catch {
    return false;
  }
}

function windowMatchesMedia(query: string): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(query).matches;
}

/**
 * Everything a page load can start before React and the shell have arrived (host/index.ts runs it ahead of the
 * async boundary):
 * - the slot source: GET /me and, on the sign-in page, GET /slots, side by side (GET /meta after GET /me
 *   elsewhere), or nothing on a page that carries its session data (a signed-in user's, or that nobody is signed in
 *   with the public slots: those are the slot source's first answer);
 * - the remotes' descriptors, registered with the federation runtime (which fetches nothing for that): from the boot
 *   data the server put into index.html, else from GET /api/remotes;
 * - the modules of the components the page's public slots render start loading, from the remotes served with the
 *   page: those the boot data names (the server knows the page's public slots), else on the sign-in page those of
 *   GET /slots once it has answered.
 * By the time React renders the slots their components are usually loaded, so they render without suspending.
 */
export function startHost(options: StartHostOptions): HostStartup {
  const page = options.client ? null : createPageClient();
  const client = options.client ?? page!.client;
  const sessionClient = options.client ?? page!.sessionClient;
  const pathname = options.pathname ?? window.location.pathname;
  const sessionData = options.sessionData !== undefined ? options.sessionData : readSessionData();
  const remotesOfSession = remotesFollowingSession({
    client,
    reload: options.reloadPage ?? (() => window.location.reload()),
  });
  const source = new SlotSource({
    client: sessionClient,
    pathname,
    sessionData,
    beforeSignedIn: remotesOfSession.beforeSignedIn,
  });
  page?.follow(source.session);
  source.session.listen(window);
  remotesOfSession.follow(source.session);
  const instance = options.instance ?? getInstance() ?? createInstance({ name: HOST_NAME, remotes: [] });
  const modules = createRemoteModuleLoader({
    instance,
    reliability: { fallbackModule: options.fallbackModule, ...options.reliability },
  });
  const boot = options.bootData !== undefined ? options.bootData : readBootData();
  const pageUrl = options.pageUrl ?? window.location.href;
  const prefetches: Promise<void>[] = [];
  const pageModulesLoaded = () => Promise.all(prefetches).then(() => undefined);
  const prefetch = (components: readonly string[]): void => {
    const loading = modules.prefetch(
      components.filter((component) => {
        const entry = modules.entryOf(component);
        return entry !== null && servedWithThePage(entry, pageUrl);
      }),
    );
    prefetches.push(loading);
  };

  const matchesMedia = options.matchesMedia ?? windowMatchesMedia;
  /** The modules of the components a page renders from a slot map, nested content included, at this width. */
  const prefetchPage = (path: string, slots: unknown, audience?: 'signed-in'): void => {
    const shown = pageComponents(path, parseSlotMap(slots).slots, audience);
    prefetch([...shown].filter(([, media]) => media === null || matchesMedia(media)).map(([name]) => name));
  };
  /** Once GET /meta has answered and the remotes are known: the modules of the slots this signed-in page renders. */
  const prefetchSignedInPage = (remotesKnown: Promise<void> | null): void => {
    if (!source.earlyMeta) return;
    Promise.all([source.earlyMeta, remotesKnown]).then(
      ([payload]) => prefetchPage(pathname, payload.slots, 'signed-in'),
      // Signed out, or GET /meta failed: the slot source reports what needs reporting.
      () => undefined,
    );
  };

  const register = (descriptors: ParsedRemoteDescriptors, source: string): void => {
    const { remotes, problems } = descriptors;
    if (problems.length > 0) console.warn(`[slots] ${source}: ${problems.join('; ')}.`);
    modules.registerRemotes(remotes);
    remotesOfSession.registered(remotes);
    reloadOnRemoteRebuilds(remotes);
    showSlotDetails = descriptors.showSlotDetails;
    previewedReleases = previewedReleasesOf(remotes);
  };
  let showSlotDetails = false;
  let previewedReleases: readonly PreviewedRelease[] = [];

  if (boot) {
    register(boot, 'The boot data of index.html');
    prefetchSignedInPage(null);
    prefetch(
      boot.components
        .filter((item) => item.media === undefined || matchesMedia(item.media))
        .map((item) => item.component),
    );
    return { client, source, modules, remotesReady: null, pageModulesLoaded, showSlotDetails, previewedReleases };
  }

  const remotesReady = fetchRemoteDescriptors(client).then(
    (descriptors) => register(descriptors, 'GET /api/remotes'),
    (error: unknown) => {
      console.error(HOST_MESSAGES.remoteListFailureLog, {
        error: error instanceof Error ? error.message : String(error),
      });
    },
  );
  source.awaitRemotes(remotesReady);
  prefetchSignedInPage(remotesReady);
  if (source.earlySlots) {
    Promise.all([source.earlySlots, remotesReady]).then(
      ([payload]) => prefetchPage(SIGN_IN_PATH, payload.slots),
      // A failed GET /slots is the slot source's to report.
      () => undefined,
    );
  }
  return {
    client,
    source,
    modules,
    remotesReady,
    pageModulesLoaded,
    get showSlotDetails() {
      return showSlotDetails;
    },
    get previewedReleases() {
      return previewedReleases;
    },
  };
}
