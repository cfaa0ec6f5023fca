import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { HostApp } from '../../host/app/host-app';
import {
  componentFromModule,
  reportCaughtError,
  SlotComponentRegistry,
  type RegistrableComponent,
  type SlotRuntime,
} from '../../host/core';
import { createPageClient } from '../../host/loader/session-store';
import { SlotSource } from '../../host/loader/slot-source';
import { readSessionData } from '../../host/startup/read-boot-data';

/**
 * The benchmark's baseline host: the product's own shell (HostApp, pages, core), with the remote components imported
 * into the same bundle and registered directly, no Module Federation runtime, no /api/remotes, no remote entry.
 * It starts the page's session and slot requests before rendering, as the product's start-up code does.
 * `modules` maps a component name to its module, as the generated entry imports them; `remotes` names the remote
 * each comes from, so the page reports its slot loads (slot events) as the federated page does: the same work after
 * the page is rendered, whichever way its components arrived.
 */
export function startBundledHost(
  modules: Readonly<Record<string, unknown>>,
  remotes: Readonly<Record<string, string>>,
): void {
  const runtime: Partial<SlotRuntime> = { remoteOf: (component) => remotes[component] ?? null };
  const { client, follow } = createPageClient();
  const source = new SlotSource({ client, pathname: window.location.pathname, sessionData: readSessionData() });
  follow(source.session);
  source.session.listen(window);
  const components: Record<string, RegistrableComponent> = {};
  for (const [name, module] of Object.entries(modules)) {
    components[name] = componentFromModule(module, `bundled/${name}`, name);
  }
  SlotComponentRegistry.registerMany(components);

  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element to render the admin into.');
  createRoot(container, { onCaughtError: reportCaughtError }).render(
    <StrictMode>
      <HostApp client={client} runtime={runtime} source={source} />
    </StrictMode>,
  );
}
