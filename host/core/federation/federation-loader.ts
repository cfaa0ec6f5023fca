import { lazy } from 'react';
import type { ModuleFederation } from '@module-federation/enhanced/runtime';
import type { RemoteDescriptor } from '../../../shared';
import type { ComponentRegistry, RegistrableComponent, SlotComponent } from '../component-registry';
import { GlobalComponentRegistry } from '../global-component-registry';
import { SlotComponentRegistry } from '../slot-component-registry';
import { createFallbackModule } from '../fallback-module';
import { componentFromModule } from './module-shape';
import type { ReliabilityOptions, ReliabilityPlugin } from '../../loader/reliability-plugin';
import {
  createRemoteModuleLoader,
  type LoadedModule,
  type ProvidedComponent,
  type RemoteModuleLoader,
} from '../../loader/remote-module-loader';

export type FederationLoaderOptions = {
  slotRegistry?: ComponentRegistry;
  globalRegistry?: ComponentRegistry;
  warn?: (message: string) => void;
} & (
  | {
      /** The Module Federation runtime instance (the host build's own, or one made with createInstance in tests). */
      instance: ModuleFederation;
      /** Timeouts, retries, fetch and logging of remote loading; fallbacks render the slot failure view. */
      reliability?: Partial<ReliabilityOptions>;
      modules?: undefined;
    }
  | {
      /** A module loader made earlier (the host's start-up code), whose remotes and loads this one takes over. */
      modules: RemoteModuleLoader;
      instance?: undefined;
      reliability?: undefined;
    }
);

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

/**
 * The registries' side of remote modules. Every provided component is registered as a lazy component first; once
 * its module has loaded, the registries get the component itself. So a slot that renders after the load (the
 * start-up code prefetches the sign-in page's components) never suspends, and one that suspended is revealed by an
 * ordinary update rather than a Suspense retry, which React holds back for up to 300 ms after a fallback showed.
 */
export function createFederationLoader(options: FederationLoaderOptions): FederationLoader {
  const slotRegistry = options.slotRegistry ?? SlotComponentRegistry;
  const globalRegistry = options.globalRegistry ?? GlobalComponentRegistry;
  const modules =
    options.modules ??
    createRemoteModuleLoader({
      instance: options.instance,
      reliability: { fallbackModule: createFallbackModule, ...options.reliability },
      ...(options.warn ? { warn: options.warn } : {}),
    });

  async function loadComponent(remote: string, component: string): Promise<SlotComponent> {
    return componentFromModule(await modules.load(remote, component), `${remote}/${component}`, component);
  }

  /** The lazy component registered per name, to know whether the registries still hold it. */
  const lazies = new Map<string, SlotComponent>();

  function register(components: readonly ProvidedComponent[]): void {
    const slotComponents: Record<string, RegistrableComponent> = {};
    const formComponents: Record<string, RegistrableComponent> = {};
    for (const { remote, component, form } of components) {
      // One lazy component per name: the remote module is fetched the first time a slot renders it.
      const loader = lazy(async () => ({ default: await loadComponent(remote, component) }));
      lazies.set(component, loader);
      slotComponents[component] = loader;
      if (form) formComponents[component] = loader;
    }
    slotRegistry.registerMany(slotComponents);
    globalRegistry.registerMany(formComponents);
  }

  function settle({ remote, component, form, module }: LoadedModule): void {
    // Only where this loader's lazy component still stands: a later registration of the name is left alone.
    const lazyComponent = lazies.get(component);
    if (lazyComponent === undefined || slotRegistry.get(component) !== lazyComponent) return;
    let resolved: SlotComponent;
    try {
      resolved = componentFromModule(module, `${remote}/${component}`, component);
    } catch {
      return; // The lazy component rejects with this error, which the slot's boundary shows and logs.
    }
    slotRegistry.register(component, resolved);
    if (form && globalRegistry.get(component) === lazyComponent) globalRegistry.register(component, resolved);
  }

  register(modules.provided());
  modules.onProvide(register);
  modules.onLoad(settle);

  return {
    registerRemotes: (remotes) => {
      modules.registerRemotes(remotes);
    },
    loadComponent,
    remoteOf: (component) => modules.remoteOf(component),
    isQuarantined: (remote) => modules.isQuarantined(remote),
    plugin: modules.plugin,
  };
}
