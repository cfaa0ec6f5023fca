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
 * Releases are compared by the tag the server signs each released remote with (`releaseTag`, its version), not by
 * entry: a signed-in page's boot data names a remote the server builds by its hashed entry script where GET
 * /api/remotes names its manifest, the same release either way.
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

function releaseOf(remote: RemoteDescriptor): string {
  return remote.releaseTag ?? '';
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
      ({ remotes } = await fetchRemoteDescriptors(client));
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
      const look = () => {
        const { status, scope } = session.snapshot();
        if (status === 'loading' || scope === shown) return;
        const first = shown === null;
        shown = scope;
        if (first || status !== 'authenticated' || scope === checkedScope) return;
        void differ().then((changed) => {
          if (changed && session.snapshot().scope === scope) reload();
        });
      };
      look();
      return session.subscribe(look);
    },
  };
}
