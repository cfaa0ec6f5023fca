import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { HostApp } from './app/host-app';
import { connectRegistries, createPropsCheck, reportCaughtError, type SlotRuntime } from './core';
import { slotDataSettled } from './loader/slot-data-settled';
import { applyFederationDebugSwitch } from './loader/federation-debug';
import type { HostStartup } from './startup/start-host';

/**
 * How long the shell waits, at most, for the remote modules the start-up code is loading for the page. Rendered
 * with them, every slot shows its component in the shell's first commit; rendered before them, each shows its
 * placeholder and renders again once its module is there, a second pass over the page that costs more than the
 * wait (about 30 ms on the warm dashboard in alternating Chromium runs). A remote that is slow or down costs the shell
 * no more than this.
 */
const SHELL_WAITS_FOR_MODULES_MS = 150;

/**
 * How long the shell waits, at most, for the page's slot data (GET /meta after GET /me on a signed-in page that
 * carries no session data) before the modules. Rendered before it, every location is empty, and the slots arriving a
 * moment later push down what is drawn. The requests left with the start-up code, before React loaded, so they have
 * usually answered by now; a server slow to answer costs the page no more than this before the shell shows without
 * them (the boot message stays until then).
 */
const SHELL_WAITS_FOR_SLOT_DATA_MS = 1000;

/**
 * The sign-in page does not wait for GET /slots beyond the modules' moment (SHELL_WAITS_FOR_MODULES_MS, one budget
 * for both): staff come to it to type, and a slow or hanging GET /slots held the form back by up to a second. Public
 * slots that arrive after the form has been drawn are placed below it, never above (layout/late-slots-below.tsx), so
 * the form does not move either.
 */
function shellWaitsOnThePage(startup: HostStartup): Promise<void> {
  if (startup.source.earlySlots !== null) {
    return atMost(
      slotDataSettled(startup.source).then(() => startup.pageModulesLoaded()),
      SHELL_WAITS_FOR_MODULES_MS,
    );
  }
  return atMost(slotDataSettled(startup.source), SHELL_WAITS_FOR_SLOT_DATA_MS).then(() =>
    atMost(startup.pageModulesLoaded(), SHELL_WAITS_FOR_MODULES_MS),
  );
}

/** `work`, or after `ms` without it, whichever comes first; never rejects. */
function atMost(work: Promise<void>, ms: number): Promise<void> {
  return Promise.race([work.catch(() => undefined), new Promise<void>((resolve) => setTimeout(resolve, ms))]);
}

/** Runs `work` once the browser has nothing else to do (after the frame that shows the shell). */
function whenIdle(work: () => void): void {
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(() => work(), { timeout: 2000 });
  else setTimeout(work, 0);
}

/**
 * Renders the shell once the page's slot data is there (or after SHELL_WAITS_FOR_SLOT_DATA_MS) and then its remote
 * modules are loaded (or after SHELL_WAITS_FOR_MODULES_MS more; on the sign-in page, both within the latter), over
 * the slot source the start-up code made (host/startup), whose requests are already on their way. The remotes'
 * components join the registries as soon as the remotes are known (the boot data of index.html, else
 * GET /api/remotes); the slot source gives out slot data once that and the session are known. A remote is fetched
 * only for components the page's slots render.
 */
export function renderHost(startup: HostStartup): void {
  connectRegistries(startup.modules);
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element to render the admin into.');
  const root = createRoot(container, { onCaughtError: reportCaughtError });
  // Made once the server says details may be shown: in production, the props check and its validator never load.
  let propsCheck: SlotRuntime['propsCheck'] = null;
  // Failed slots show details only when the server says so (its NODE_ENV), whatever mode this build was made in.
  const render = (showFailures: boolean) => {
    if (showFailures) propsCheck ??= createPropsCheck(startup.client);
    const runtime: Partial<SlotRuntime> = {
      remoteOf: (component) => startup.modules.remoteOf(component),
      showFailures,
      propsCheck,
      previewedReleases: startup.previewedReleases,
    };
    root.render(
      <StrictMode>
        <HostApp client={startup.client} runtime={runtime} source={startup.source} />
      </StrictMode>,
    );
  };
  // The modules asked for once the slots are known (a page without boot data) are waited for too.
  void shellWaitsOnThePage(startup).then(() => {
    render(startup.showSlotDetails);
    // The federation runtime's debug switch is a storage read: once the page is shown, not on its way.
    whenIdle(applyFederationDebugSwitch);
    // Without boot data the server says it with GET /api/remotes: render again once, if that changes anything.
    void startup.remotesReady?.then(() => {
      if (startup.showSlotDetails || startup.previewedReleases.length > 0) render(startup.showSlotDetails);
    });
  });
}
