import { loadRemote } from '@module-federation/enhanced/runtime';
import { lazy, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { HostApp } from '../../host/app/host-app';
import {
  componentFromModule,
  GlobalComponentRegistry,
  reportCaughtError,
  SlotComponentRegistry,
  type RegistrableComponent,
  type SlotRuntime,
} from '../../host/core';
import { createPageClient } from '../../host/loader/session-store';
import { SlotSource } from '../../host/loader/slot-source';
import { readSessionData } from '../../host/startup/read-boot-data';
import type { PlainRemote } from './start-plain-host';

/**
 * The plain host's application, behind its async boundary: the product's own shell (HostApp, pages, core) and slot
 * source, as the bundled host uses them, with every remote component registered as the documentation's
 * `React.lazy(() => loadRemote('<remote>/<expose>'))`: a component's module is fetched the first time a slot renders
 * it, and the slot suspends until then. The product instead starts the page's modules before the boundary and swaps
 * each lazy component for the loaded one (host/core/connect-registries.ts), which the plain side leaves out.
 */
export function renderPlainHost(remotes: readonly PlainRemote[]): void {
  const { client, follow } = createPageClient();
  const source = new SlotSource({ client, pathname: window.location.pathname, sessionData: readSessionData() });
  follow(source.session);
  source.session.listen(window);

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
  const runtime: Partial<SlotRuntime> = { remoteOf: (component) => remoteOf.get(component) ?? null };
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element to render the admin into.');
  createRoot(container, { onCaughtError: reportCaughtError }).render(
    <StrictMode>
      <HostApp client={client} runtime={runtime} source={source} />
    </StrictMode>,
  );
}
