import type { InspectedRemote } from '../../shared';
import type { RemoteRegistry } from './remote-registry';

/**
 * Every configured remote with what is known of it, for the slot inspector: built-in or listed with its
 * components, answered, waiting or not available (with the reason), or disabled.
 */
export function inspectRemotes(registry: RemoteRegistry): InspectedRemote[] {
  const { config } = registry;
  const builtIn = new Set(config.sources.builtIn);
  const known = config.remotes.map((remote): InspectedRemote => {
    const built = builtIn.has(remote.name) && remote.entry === `/remotes/${remote.name}/mf-manifest.json`;
    return {
      name: remote.name,
      entry: remote.entry,
      status: built ? 'built' : 'listed',
      components: [...remote.components],
      formComponents: [...remote.formComponents],
      schemaComponents: Object.keys(config.schemas.get(remote.name) ?? {}),
    };
  });
  const pending = config.pending.map((remote): InspectedRemote => {
    const state = registry.stateOf(remote.name);
    if (state.status === 'ready') {
      const { components, formComponents } = state.descriptor;
      const schemaComponents = Object.keys(state.props);
      return {
        name: remote.name,
        entry: remote.entry,
        status: 'answered',
        components,
        formComponents,
        schemaComponents,
      };
    }
    return {
      name: remote.name,
      entry: remote.entry,
      status: state.status === 'failing' ? 'not-available' : 'waiting',
      ...(state.status === 'failing' ? { reason: state.reason } : {}),
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
