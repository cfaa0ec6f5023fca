import { loadRemote } from '@module-federation/enhanced/runtime';
import { lazy } from 'react';
import {
  componentFromModule,
  GlobalComponentRegistry,
  SlotComponentRegistry,
  type RegistrableComponent,
} from '../../host/core';
import { startBaselineShell } from '../baseline-shell/start-baseline-shell';
import type { PlainRemote } from './plain-remote';

/**
 * The plain host's application, behind its async boundary: the product's own shell and slot source, as the bundled
 * host uses them (startBaselineShell), with every remote component registered as the documentation's
 * `React.lazy(() => loadRemote('<remote>/<expose>'))`: a component's module is fetched the first time a slot renders
 * it, and the slot suspends until then. The product instead starts the page's modules before the boundary and swaps
 * each lazy component for the loaded one (host/core/connect-registries.ts), which the plain side leaves out.
 */
export function renderPlainHost(remotes: readonly PlainRemote[]): void {
  startBaselineShell(() => {
    const slotComponents: Record<string, RegistrableComponent> = {};
    const formComponents: Record<string, RegistrableComponent> = {};
    const remoteOf = new Map<string, string>();
    for (const remote of remotes) {
      for (const component of remote.components) {
        const id = `${remote.name}/${component}`;
        const Component = lazy(async () => ({ default: componentFromModule(await loadRemote(id), id, component) }));
        slotComponents[component] = Component;
        if (remote.formComponents.includes(component)) formComponents[component] = Component;
        remoteOf.set(component, remote.name);
      }
    }
    SlotComponentRegistry.registerMany(slotComponents);
    GlobalComponentRegistry.registerMany(formComponents);
    // The remote of each component, so the page reports its slot loads (slot events) as the product does.
    return { remoteOf: (component) => remoteOf.get(component) ?? null };
  });
}
