import type { InspectedRemote } from '../../shared';
import { descriptorStatus, servedUnaskedStatus } from './descriptor-status';
import type { RemoteRegistry } from './remote-registry';

/**
 * Every configured remote with what is known of it, for the slot inspector: built-in or listed with its
 * components, answered, waiting, down, timed out or answering badly (with the reason), or disabled; a remote served
 * from its release in force as `released`, with what the release serves (a remote no longer configured is not served
 * from its release: `RemoteRegistry.releasedIn` keeps declared names only).
 *
 * No more than a signed-in page already carries: the entry of a remote the host registers is public
 * (`GET /api/remotes`, the boot data); of one it does not (not answering), only the origin, which the page's
 * Content-Security-Policy names, in the entry and in the reason. The full URL is in the server's log.
 */
export function inspectRemotes(registry: RemoteRegistry): InspectedRemote[] {
  const { config } = registry;
  const served = new Map(registry.remotes().map((remote) => [remote.name, remote]));
  const published = new Set([...served.values()].map((remote) => remote.entry));
  const unpublished = unpublishedUrls(registry);
  const contracts = new Map(registry.contractRemotes().known.map((remote) => [remote.name, remote]));
  // The release in force wins, as in GET /api/remotes: what the file or the build says is not what is served.
  // Its status is what the last request to the release's origin came to, once asked (descriptor-status.ts).
  const released = (name: string): InspectedRemote | null => {
    const release = registry.isReleased(name) && served.get(name);
    const version = registry.releaseOf(name)?.version;
    if (!release || version === undefined) return null;
    const { entry, components, formComponents } = release;
    const schemaComponents = Object.keys(contracts.get(name)?.props ?? {});
    const check = registry.originCheckOf(name);
    return {
      name,
      entry,
      status: check?.status ?? 'released',
      ...(check?.reason ? { reason: unpublished(check.reason) } : {}),
      release: version,
      components,
      formComponents,
      schemaComponents,
    };
  };
  const known = config.remotes.map((remote): InspectedRemote => {
    const release = released(remote.name);
    if (release) return release;
    return {
      name: remote.name,
      entry: remote.entry,
      status: servedUnaskedStatus(config, remote),
      components: [...remote.components],
      formComponents: [...remote.formComponents],
      schemaComponents: Object.keys(config.schemas.get(remote.name) ?? {}),
    };
  });
  const pending = config.pending.map((remote): InspectedRemote => {
    // As /metrics says it (descriptor-status.ts): a release in force before what its entry answered.
    const release = released(remote.name);
    if (release) return release;
    const status = descriptorStatus(registry, remote);
    const state = registry.stateOf(remote.name);
    if (state.status === 'ready') {
      const { components, formComponents } = state.descriptor;
      const schemaComponents = Object.keys(state.props);
      const reason = registry.originCheckOf(remote.name)?.reason;
      return {
        name: remote.name,
        entry: remote.entry,
        status,
        // Served as it answered before; its origin does not answer now.
        ...(reason ? { reason: unpublished(reason) } : {}),
        components,
        formComponents,
        schemaComponents,
      };
    }
    const shown = published.has(remote.entry) ? null : originOnly(remote.entry);
    return {
      name: remote.name,
      entry: shown ?? remote.entry,
      // What the last request for its descriptor came to: down, timed out, or a bad answer; or waiting.
      status,
      ...(state.status === 'failing' ? { reason: unpublished(state.reason) } : {}),
      components: [],
      formComponents: [],
      schemaComponents: [],
    };
  });
  const disabled = config.disabled.map(
    (remote): InspectedRemote => ({
      name: remote.name,
      entry: '',
      status: 'disabled',
      components: [...remote.components],
      formComponents: [],
      schemaComponents: [],
    }),
  );
  return [...known, ...pending, ...disabled];
}

/**
 * Replaces, in a text for the inspector (a remote's reason, a slot's problem), the descriptor URL of every remote the
 * host does not register by its origin and `/…`: `https://billing.example.com/… answered 404`.
 */
export function unpublishedUrls(registry: RemoteRegistry): (text: string) => string {
  const published = new Set(registry.remotes().map((remote) => remote.entry));
  const hidden = registry.config.pending
    .filter((remote) => !published.has(remote.entry))
    .map((remote) => [remote.descriptorUrl, `${originOnly(remote.entry)}/…`] as const);
  return (text) => hidden.reduce((shown, [url, origin]) => shown.split(url).join(origin), text);
}

/** The origin of an absolute entry (a pending remote's always is); the entry itself when it is a path. */
function originOnly(entry: string): string {
  try {
    return new URL(entry).origin;
  } catch {
    return entry;
  }
}
