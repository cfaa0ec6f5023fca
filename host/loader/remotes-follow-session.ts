import type { CurrentUser, RemoteDescriptor } from '../../shared';
import type { ApiClient } from './api-client';
import { fetchRemoteDescriptors } from './remote-descriptors';
import { scopeOf, type SessionStore } from './session-store';

/**
 * Keeps the page's remotes those the server chooses for its session. The releases a page registers (the boot data,
 * else GET /api/remotes) were chosen for the session it was loaded in: a canary or a preview goes to some users or
 * tenants only. A session that changes in the page (a sign-in on the sign-in page, a tenant switched, another tab's
 * sign-in followed) may be given other releases, and the page kept the old ones until it was loaded again: someone
 * who signed in and worked in that one page never saw the canary given to them. The federation runtime cannot swap a
 * remote's entry once its modules have run, so when the server serves another release of any remote, the page is
 * loaded again, in the new session: once, and only for those whose releases differ.
 *
 * A sign-out made here is followed too, once its POST /logout has answered: the sign-in page would otherwise keep the
 * releases chosen for the account signed out (a canary, an operator's preview) for whoever comes next. A session
 * that ended under the page (its time up, signed out in another tab) is not: that page says why, and keeps the
 * tab's unsaved work for the same person, which a load would lose; the next sign-in is checked as any is.
 *
 * Releases are compared by the version in the tag the server signs each released remote with (`releaseTag`,
 * `<version>.<signature>`), not by entry: a signed-in page's boot data names a remote the server builds by its hashed
 * entry script where GET /api/remotes names its manifest, the same release either way; nor by the whole tag, whose
 * signature differs between two hosts while a session secret is rotated (each signs with its first). An answer the
 * page cannot read whole (a remote dropped as malformed) tells nothing, as one that failed: the page is kept.
 */
export interface RemotesFollowingSession {
  /** The remotes as registered: what the server's answer is compared with. */
  registered(remotes: readonly RemoteDescriptor[]): void;
  /**
   * For the sign-in made here (SlotSource's sign-in preparation): asks GET /api/remotes in the new session before the
   * signed-in page shows, and loads the page again instead when they differ (never settling then, so nothing of the
   * old releases is shown signed in).
   */
  beforeSignedIn(user: CurrentUser): Promise<void>;
  /** Follows the session's other changes of who or which tenant: checked once the new session is shown. */
  follow(session: SessionStore): () => void;
}

/** The release a remote is served from: its tag's version ('' for none: the build the server was given). */
function releaseOf(remote: RemoteDescriptor): string {
  const tag = remote.releaseTag ?? '';
  const dot = tag.lastIndexOf('.');
  return dot > 0 ? tag.slice(0, dot) : tag;
}

export function remotesFollowingSession({
  client,
  reload,
}: {
  client: ApiClient;
  /** Loads the page again (window.location.reload by default). */
  reload: () => void;
}): RemotesFollowingSession {
  /** The release each registered remote is served from, by name ('' for none: the build the server was given). */
  let served: ReadonlyMap<string, string> = new Map();
  /** The scope the sign-in made here checked already, so that its session showing asks nothing again. */
  let checkedScope: string | null = null;

  /** True when the server names other remotes, or another release of one, than the page registered. */
  const differ = async (): Promise<boolean> => {
    let remotes;
    try {
      let problems;
      ({ remotes, problems } = await fetchRemoteDescriptors(client));
      // Unknown (a remote left out would look like one removed): the page keeps what it has, as on a failure.
      if (problems.length > 0) return false;
    } catch {
      // Unknown: the page keeps what it has, as it did before asking.
      return false;
    }
    return remotes.length !== served.size || remotes.some((remote) => served.get(remote.name) !== releaseOf(remote));
  };

  return {
    registered(remotes) {
      served = new Map(remotes.map((remote) => [remote.name, releaseOf(remote)]));
    },

    async beforeSignedIn(user) {
      checkedScope = scopeOf('authenticated', user);
      if (!(await differ())) return;
      reload();
      await new Promise<never>(() => undefined);
    },

    follow(session) {
      // The session the page was loaded in is the one its remotes were chosen for: the first one known is not checked.
      let shown: string | null = null;
      const check = (scope: string) =>
        differ().then((changed) => {
          if (changed && session.snapshot().scope === scope) reload();
        });
      const look = () => {
        const { status, scope, expired } = session.snapshot();
        if (status === 'loading' || scope === shown) return;
        const first = shown === null;
        shown = scope;
        // The sign-in made here asked already, for this showing only: once shown, the same scope coming back later
        // (signed out and in again in another tab) is asked again.
        const checked = scope === checkedScope;
        checkedScope = null;
        if (first || checked) return;
        if (status === 'authenticated') void check(scope);
        // Signed out (not ended under the page: see above), asked once the server has ended the session.
        else if (status === 'anonymous' && !expired) void session.changesSettled().then(() => check(scope));
      };
      look();
      return session.subscribe(look);
    },
  };
}
