import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { HostApp } from './app/host-app';
import { connectRegistries, reportCaughtError, type SlotRuntime } from './core';
import type { HostStartup } from './startup/start-host';

/**
 * Renders the shell at once, from the requests the start-up code already made (host/startup). The remotes'
 * components join the registries as soon as the remotes are known (the boot data of index.html, else GET
 * /api/remotes); slots render once that and the slot data are known. A remote is fetched only for components the
 * page's slots render.
 */
export function renderHost(startup: HostStartup): void {
  connectRegistries(startup.modules);
  const runtime: Partial<SlotRuntime> = { remoteOf: (component) => startup.modules.remoteOf(component) };
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element to render the admin into.');
  createRoot(container, { onCaughtError: reportCaughtError }).render(
    <StrictMode>
      <HostApp
        client={startup.client}
        runtime={runtime}
        startup={{
          me: startup.requests.me,
          publicSlots: startup.requests.publicSlots,
          meta: startup.requests.meta,
          remotesReady: startup.remotesReady ?? undefined,
        }}
      />
    </StrictMode>,
  );
}
