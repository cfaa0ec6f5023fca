import { lazy } from 'react';
import type { ModuleFederation } from '@module-federation/enhanced/runtime';
import type { RemoteDescriptor } from '../../../shared';
import type { ComponentRegistry, RegistrableComponent, SlotComponent } from '../component-registry';
import { GlobalComponentRegistry } from '../global-component-registry';
import { SlotComponentRegistry } from '../slot-component-registry';
import { createFallbackModule } from './fallback-module';
import { componentFromModule } from './module-shape';
import {
  DEFAULT_RELIABILITY,
  createReliabilityPlugin,
  type ReliabilityOptions,
  type ReliabilityPlugin,
} from './reliability-plugin';

export interface FederationLoaderOptions {
  /** The Module Federation runtime instance (the host build's own, or one made with createInstance in tests). */
  instance: ModuleFederation;
  slotRegistry?: ComponentRegistry;
  globalRegistry?: ComponentRegistry;
  /** Timeouts, retries, fetch and logging of remote loading; fallbacks render the slot failure view. */
  reliability?: Partial<ReliabilityOptions>;
  warn?: (message: string) => void;
}

export interface FederationLoader {
  /**
   * Registers remotes with the runtime WITHOUT fetching anything, and puts a lazy loader per component into the
   * SlotComponentRegistry (form components also into the GlobalComponentRegistry).
   */
  registerRemotes(remotes: readonly RemoteDescriptor[]): void;
  /** Fetches (on first use) the remote module of a component and returns its React component. */
  loadComponent(remote: string, component: string): Promise<SlotComponent>;
  /** The remote that provides a component, or null. */
  remoteOf(component: string): string | null;
  isQuarantined(remote: string): boolean;
  readonly plugin: ReliabilityPlugin;
}

export function createFederationLoader(options: FederationLoaderOptions): FederationLoader {
  const { instance } = options;
  const slotRegistry = options.slotRegistry ?? SlotComponentRegistry;
  const globalRegistry = options.globalRegistry ?? GlobalComponentRegistry;
  const warn = options.warn ?? ((message: string) => console.warn(message));
  const plugin = createReliabilityPlugin({
    ...DEFAULT_RELIABILITY,
    fallbackModule: createFallbackModule,
    ...options.reliability,
  });
  instance.registerPlugins([plugin]);

  const providers = new Map<string, string>();
  const registeredRemotes = new Set<string>();

  async function loadComponent(remote: string, component: string): Promise<SlotComponent> {
    const id = `${remote}/${component}`;
    const reason = plugin.quarantineReason(remote);
    // A quarantined remote is not even handed to the runtime: no request, no runtime warning.
    const module =
      reason === undefined
        ? await instance.loadRemote<unknown>(id)
        : createFallbackModule({ remote, component, error: reason, quarantined: true });
    return componentFromModule(module, id, component);
  }

  function registerRemotes(remotes: readonly RemoteDescriptor[]): void {
    const fresh = remotes.filter((remote) => {
      if (!registeredRemotes.has(remote.name)) return true;
      warn(`[slots] Remote "${remote.name}" is already registered; the second registration is ignored.`);
      return false;
    });
    instance.registerRemotes(fresh.map((remote) => ({ name: remote.name, entry: remote.entry })));

    const slotComponents: Record<string, RegistrableComponent> = {};
    const formComponents: Record<string, RegistrableComponent> = {};
    for (const remote of fresh) {
      registeredRemotes.add(remote.name);
      for (const component of remote.components) {
        const provider = providers.get(component);
        if (provider !== undefined) {
          warn(
            `[slots] Component "${component}" is provided by "${provider}" and "${remote.name}"; "${provider}" is kept.`,
          );
          continue;
        }
        providers.set(component, remote.name);
        // One lazy component per name: the remote module is fetched the first time a slot renders it.
        const loader = lazy(async () => ({ default: await loadComponent(remote.name, component) }));
        slotComponents[component] = loader;
        if (remote.formComponents.includes(component)) formComponents[component] = loader;
      }
    }
    slotRegistry.registerMany(slotComponents);
    globalRegistry.registerMany(formComponents);
  }

  return {
    registerRemotes,
    loadComponent,
    remoteOf: (component) => providers.get(component) ?? null,
    isQuarantined: (remote) => plugin.isQuarantined(remote),
    plugin,
  };
}
