import type { ModuleFederation } from '@module-federation/enhanced/runtime';
import type { RemoteDescriptor } from '../../shared';
import {
  DEFAULT_RELIABILITY,
  createReliabilityPlugin,
  type ReliabilityOptions,
  type ReliabilityPlugin,
} from './reliability-plugin';

/** One component a registered remote provides. */
export interface ProvidedComponent {
  remote: string;
  component: string;
  /** A form component: usable in resource forms too (listed in the remote's `formComponents`). */
  formComponent: boolean;
  /** The release the remote is served from, as the server signed it (RemoteDescriptor.releaseTag); none: configured. */
  releaseTag?: string;
}

/** A remote module that has finished loading: what the runtime resolved it to (a fallback module on failure). */
export interface LoadedModule extends ProvidedComponent {
  module: unknown;
}

export interface RemoteModuleLoaderOptions {
  /** The Module Federation runtime instance (the host build's own, or one made with createInstance in tests). */
  instance: ModuleFederation;
  /** Timeouts, retries, fetch, logging and the fallback module of failed loads. */
  reliability: Partial<ReliabilityOptions> & Pick<ReliabilityOptions, 'fallbackModule'>;
  warn?: (message: string) => void;
}

/**
 * Remote modules without React: registers remotes with the federation runtime (fetching nothing), knows which remote
 * provides which component, and loads each module at most once per page. It runs before the async boundary (the
 * host's start-up code), so the modules a page needs can load while React and the shell are still arriving; the
 * React side (connectRegistries) turns what it provides into registry entries.
 */
export interface RemoteModuleLoader {
  /** Registers remotes with the runtime; returns the components they newly provide (first provider wins). */
  registerRemotes(remotes: readonly RemoteDescriptor[]): ProvidedComponent[];
  /** Every component provided so far, in registration order. */
  provided(): ProvidedComponent[];
  /** The remote that provides a component, or null. */
  remoteOf(component: string): string | null;
  /** The entry (manifest URL) of the remote that provides a component, or null. */
  entryOf(component: string): string | null;
  /** The module of a provided component: one load per component and page, shared by every caller. */
  load(remote: string, component: string): Promise<unknown>;
  /**
   * Starts loading the named components' modules (unknown names are skipped). Settles once they have loaded or
   * failed, never rejects: a failure is the renderer's to report when a slot asks for the module.
   */
  prefetch(components: Iterable<string>): Promise<void>;
  /** Calls `listener` with components as remotes provide them. Returns the unsubscribe function. */
  onProvide(listener: (added: ProvidedComponent[]) => void): () => void;
  /**
   * Calls `listener` for every module that finished loading: at once for those already loaded, then as each one
   * does. It runs before any other continuation of that load, so a caller can act before a waiting component renders.
   */
  onLoad(listener: (loaded: LoadedModule) => void): () => void;
  isQuarantined(remote: string): boolean;
  readonly plugin: ReliabilityPlugin;
}

/**
 * Settles once the host's own shared modules (React) are loaded in the runtime's share scope. A remote's entry
 * registers its copies there as it initialises; one that initialises before the host's copy is loaded (a remote
 * registered by its entry script starts before the async boundary) has its own React taken, and downloaded, instead
 * of the host's. Loading the host's first costs a few microtasks: it is in the entry chunk (eager). With the host's
 * `shareStrategy: 'loaded-first'` (webpack.config.ts) this contacts no remote; the runtime's default would load
 * every registered remote's entry to compare versions.
 */
function hostSharesLoaded(instance: ModuleFederation): Promise<void> {
  const names = Object.keys(instance.options.shared);
  // A share that fails to load is the runtime's to report when a remote asks for it; it must not block the remote.
  return Promise.all(names.map((name) => instance.loadShare(name).catch(() => undefined))).then(() => undefined);
}

export function createRemoteModuleLoader(options: RemoteModuleLoaderOptions): RemoteModuleLoader {
  const { instance } = options;
  const warn = options.warn ?? ((message: string) => console.warn(message));
  const plugin = createReliabilityPlugin({ ...DEFAULT_RELIABILITY, ...options.reliability });
  instance.registerPlugins([plugin]);

  const providers = new Map<string, ProvidedComponent>();
  const entries = new Map<string, string>();
  const registeredRemotes = new Set<string>();
  const loads = new Map<string, Promise<unknown>>();
  const loaded: LoadedModule[] = [];
  const provideListeners = new Set<(added: ProvidedComponent[]) => void>();
  const loadListeners = new Set<(loaded: LoadedModule) => void>();

  // A listener's mistake must not turn a loaded module into a failed load.
  function notify(listener: (loaded: LoadedModule) => void, done: LoadedModule): void {
    try {
      listener(done);
    } catch (error) {
      warn(
        `[slots] A listener of loaded remote modules failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  function registerRemotes(remotes: readonly RemoteDescriptor[]): ProvidedComponent[] {
    const fresh = remotes.filter((remote) => {
      if (!registeredRemotes.has(remote.name)) return true;
      warn(`[slots] Remote "${remote.name}" is already registered; the second registration is ignored.`);
      return false;
    });
    instance.registerRemotes(fresh.map((remote) => ({ name: remote.name, entry: remote.entry })));

    const added: ProvidedComponent[] = [];
    for (const remote of fresh) {
      registeredRemotes.add(remote.name);
      for (const component of remote.components) {
        const provider = providers.get(component);
        if (provider !== undefined) {
          warn(
            `[slots] Component "${component}" is provided by "${provider.remote}" and "${remote.name}"; ` +
              `"${provider.remote}" is kept.`,
          );
          continue;
        }
        const provided: ProvidedComponent = {
          remote: remote.name,
          component,
          formComponent: remote.formComponents.includes(component),
          ...(remote.releaseTag !== undefined ? { releaseTag: remote.releaseTag } : {}),
        };
        providers.set(component, provided);
        entries.set(component, remote.entry);
        added.push(provided);
      }
    }
    if (added.length > 0) for (const listener of [...provideListeners]) listener(added);
    return added;
  }

  let hostShares: Promise<void> | null = null;

  function load(remote: string, component: string): Promise<unknown> {
    const id = `${remote}/${component}`;
    const earlier = loads.get(id);
    if (earlier) return earlier;
    const reason = plugin.quarantineReason(remote);
    // A quarantined remote is not even handed to the runtime: no request, no runtime warning.
    const request =
      reason === undefined
        ? (hostShares ??= hostSharesLoaded(instance)).then(() => instance.loadRemote<unknown>(id))
        : Promise.resolve(options.reliability.fallbackModule({ remote, component, error: reason, quarantined: true }));
    const formComponent = providers.get(component)?.formComponent ?? false;
    // Attached first, so the listeners run before any other continuation of this load.
    const settled = request.then((module) => {
      const done: LoadedModule = { remote, component, formComponent, module };
      loaded.push(done);
      for (const listener of [...loadListeners]) notify(listener, done);
      return module;
    });
    loads.set(id, settled);
    return settled;
  }

  return {
    registerRemotes,
    provided: () => [...providers.values()],
    remoteOf: (component) => providers.get(component)?.remote ?? null,
    entryOf: (component) => entries.get(component) ?? null,
    load,
    prefetch(components) {
      const started: Promise<unknown>[] = [];
      for (const component of components) {
        const provider = providers.get(component);
        if (provider) started.push(load(provider.remote, component).catch(() => undefined));
      }
      return Promise.all(started).then(() => undefined);
    },
    onProvide(listener) {
      provideListeners.add(listener);
      return () => {
        provideListeners.delete(listener);
      };
    },
    onLoad(listener) {
      for (const done of [...loaded]) notify(listener, done);
      loadListeners.add(listener);
      return () => {
        loadListeners.delete(listener);
      };
    },
    isQuarantined: (remote) => plugin.isQuarantined(remote),
    plugin,
  };
}
