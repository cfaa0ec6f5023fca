import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { HostApp } from '../../host/app/host-app';
import { reportCaughtError, type SlotRuntime } from '../../host/core';
import { createPageClient } from '../../host/loader/session-store';
import { SlotSource } from '../../host/loader/slot-source';
import { readSessionData } from '../../host/startup/read-boot-data';

/**
 * The product's own shell (HostApp, its pages and core) as each of the page benchmark's baseline hosts starts it:
 * the page's session and slot requests first, as the product's start-up code does; then `registerComponents`, each
 * baseline's own way of bringing in the remote components, which gives the runtime the shell renders with (the
 * remote of each component, so slot events report as the product's do); then the render into `#root`. One place,
 * so the baselines differ from each other only in how the components arrive.
 */
export function startBaselineShell(registerComponents: () => Partial<SlotRuntime>): void {
  const { client, follow } = createPageClient();
  const source = new SlotSource({ client, pathname: window.location.pathname, sessionData: readSessionData() });
  follow(source.session);
  source.session.listen(window);
  const runtime = registerComponents();

  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element to render the admin into.');
  createRoot(container, { onCaughtError: reportCaughtError }).render(
    <StrictMode>
      <HostApp client={client} runtime={runtime} source={source} />
    </StrictMode>,
  );
}
