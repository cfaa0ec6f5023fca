import { createInstance, getInstance } from '@module-federation/enhanced/runtime';
import { createRoot } from 'react-dom/client';
import { HOST_NAME, REMOTE_DESCRIPTOR_FILE, type RemoteDescriptor, type RemoteDescriptorFile } from '../../../shared';
import { createFallbackModule } from '../../../host/core/fallback-module';
import { reportCaughtError } from '../../../host/core/slot-boundary';
import { createRemoteModuleLoader } from '../../../host/loader/remote-module-loader';
import { reloadOnRemoteRebuilds } from '../../../host/loader/remote-live-reload';
import { emulatedRuntime } from '../emulated-slot';
import { EmulatorPage } from './emulator-page';

/** How often the page asks again for the descriptor while the first build is still running. */
const FIRST_BUILD_POLL_MS = 500;

async function fetchDescriptor(url: string): Promise<RemoteDescriptorFile> {
  for (;;) {
    try {
      const response = await fetch(url, { cache: 'no-store' });
      if (response.ok) return (await response.json()) as RemoteDescriptorFile;
    } catch {
      // The dev server is starting: asked again below.
    }
    await new Promise((resolve) => setTimeout(resolve, FIRST_BUILD_POLL_MS));
  }
}

/**
 * The emulated host, on the dev server's own origin: the remote's descriptor (slots-remote.json of the development
 * build), registered with the product's module loader on this page's federation instance (which shares React as
 * the product's host does), its components connected to the registries through the product's loading path, and the
 * product's live reload on each rebuild the dev server announces.
 */
export async function startEmulator(element: HTMLElement): Promise<void> {
  const root = createRoot(element, { onCaughtError: reportCaughtError });
  root.render(<p className="emulator__waiting">Waiting for the remote's first build…</p>);
  const entry = new URL('/mf-manifest.json', window.location.href).href;
  const descriptor = await fetchDescriptor(new URL(`/${REMOTE_DESCRIPTOR_FILE}`, window.location.href).href);
  const remote: RemoteDescriptor = {
    name: descriptor.name,
    entry,
    components: descriptor.components,
    formComponents: descriptor.formComponents,
    ...(descriptor.devEvents ? { devEvents: new URL(descriptor.devEvents, entry).href } : {}),
  };
  const modules = createRemoteModuleLoader({
    instance: getInstance() ?? createInstance({ name: HOST_NAME, remotes: [] }),
    reliability: { fallbackModule: createFallbackModule },
  });
  modules.registerRemotes([remote]);
  reloadOnRemoteRebuilds([remote]);
  const runtime = emulatedRuntime(descriptor, modules);
  root.render(<EmulatorPage remote={descriptor} runtime={runtime} />);
}
