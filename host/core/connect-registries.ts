import { lazy } from 'react';
import { HOST_MESSAGES } from '../loader/messages';
import type { LoadedModule, ProvidedComponent, RemoteModuleLoader } from '../loader/remote-module-loader';
import {
  GlobalComponentRegistry,
  isReactComponent,
  SlotComponentRegistry,
  type ComponentRegistry,
  type RegistrableComponent,
  type SlotComponent,
} from './component-registry';
import { remoteReleaseTags } from './remote-release-tags';
import { SlotLoadError } from './slot-boundary';

/** Where provided components go: all of them into `slotRegistry`, form components into `globalRegistry` too. */
export interface ConnectedRegistries {
  slotRegistry: ComponentRegistry;
  globalRegistry: ComponentRegistry;
  /** Where each remote's signed release goes, for the slot events (remote-release-tags.ts by default). */
  releaseTags?: Map<string, string>;
}

function describeModule(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value !== 'object') return `a ${typeof value}`;
  const keys = Object.keys(value);
  return keys.length === 0
    ? 'a module with no exports'
    : `a module exporting ${keys.map((key) => `"${key}"`).join(', ')}`;
}

/** What connectRegistries uses of a module loader: the kit's slot tests give one of their own, over the same path. */
export type ConnectableModules = Pick<RemoteModuleLoader, 'provided' | 'onProvide' | 'onLoad' | 'load'>;

/**
 * The React component a federated module provides for `component`: its named export of that name, else its
 * default export. Anything else throws a SlotLoadError naming the module (`<remote>/<component>`).
 */
export function componentFromModule(module: unknown, id: string, component: string): SlotComponent {
  if (module !== null && typeof module === 'object') {
    const exports = module as Record<string, unknown>;
    const named = exports[component];
    if (isReactComponent(named)) return named as SlotComponent;
    const fallback = exports.default;
    if (isReactComponent(fallback)) return fallback as SlotComponent;
  }
  throw new SlotLoadError(HOST_MESSAGES.invalidModule(id, describeModule(module)));
}

/** The React component of a provided component: its module, loaded once per page, checked for its shape. */
export async function loadComponent(
  modules: Pick<RemoteModuleLoader, 'load'>,
  remote: string,
  component: string,
): Promise<SlotComponent> {
  return componentFromModule(await modules.load(remote, component), `${remote}/${component}`, component);
}

/**
 * Puts what the module loader provides into the registries, now and as remotes are registered later. Every provided
 * component is registered as a lazy component first; once its module has loaded, the registries get the component
 * itself. So a slot that renders after the load (the start-up code prefetches the sign-in page's components) never
 * suspends, and one that suspended is revealed by an ordinary update rather than a Suspense retry, which React holds
 * back for up to 300 ms after a fallback showed.
 */
export function connectRegistries(
  modules: ConnectableModules,
  { slotRegistry, globalRegistry, releaseTags = remoteReleaseTags }: ConnectedRegistries = {
    slotRegistry: SlotComponentRegistry,
    globalRegistry: GlobalComponentRegistry,
  },
): void {
  /** The lazy component registered per name, to know whether the registries still hold it. */
  const lazies = new Map<string, SlotComponent>();

  function register(components: readonly ProvidedComponent[]): void {
    const slotComponents: Record<string, RegistrableComponent> = {};
    const formComponents: Record<string, RegistrableComponent> = {};
    for (const { remote, component, formComponent, releaseTag } of components) {
      if (releaseTag !== undefined) releaseTags.set(remote, releaseTag);
      // One lazy component per name: the remote module is fetched the first time a slot renders it.
      const loader = lazy(async () => ({ default: await loadComponent(modules, remote, component) }));
      lazies.set(component, loader);
      slotComponents[component] = loader;
      if (formComponent) formComponents[component] = loader;
    }
    slotRegistry.registerMany(slotComponents);
    globalRegistry.registerMany(formComponents);
  }

  function settle({ remote, component, formComponent, module }: LoadedModule): void {
    // Only where this lazy component still stands: a later registration of the name is left alone.
    const lazyComponent = lazies.get(component);
    if (lazyComponent === undefined || slotRegistry.get(component) !== lazyComponent) return;
    let resolved: SlotComponent;
    try {
      resolved = componentFromModule(module, `${remote}/${component}`, component);
    } catch {
      return; // The lazy component rejects with this error, which the slot's boundary shows and logs.
    }
    slotRegistry.register(component, resolved);
    if (formComponent && globalRegistry.get(component) === lazyComponent) globalRegistry.register(component, resolved);
  }

  register(modules.provided());
  modules.onProvide(register);
  modules.onLoad(settle);
}
