import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createInstance, getInstance } from '@module-federation/enhanced/runtime';
import { App } from './app/app';
import {
  CORE_MESSAGES,
  createApiClient,
  createFederationLoader,
  fetchRemoteCatalogue,
  reportCaughtError,
  type SlotRuntime,
} from './core';

/** The name of the host's federation instance (webpack.config.ts HOST_NAME). */
const HOST_NAME = 'host';

/**
 * Start-up: learn the remotes (GET /api/remotes, bounded) and register them WITHOUT fetching any, then render.
 * A remote is fetched only when a slot on the page needs one of its components.
 */
async function start(): Promise<void> {
  const client = createApiClient();
  // The host build created the runtime instance (with the shared React); tests and non-webpack runs make one.
  const instance = getInstance() ?? createInstance({ name: HOST_NAME, remotes: [] });
  const loader = createFederationLoader({ instance });
  try {
    const { remotes, problems } = await fetchRemoteCatalogue(client);
    if (problems.length > 0) console.warn(`[slots] GET /api/remotes: ${problems.join('; ')}.`);
    loader.registerRemotes(remotes);
  } catch (error) {
    console.error(CORE_MESSAGES.catalogueFailureLog, { error: error instanceof Error ? error.message : String(error) });
  }

  const runtime: Partial<SlotRuntime> = { remoteOf: loader.remoteOf };
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element to render the admin into.');
  createRoot(container, { onCaughtError: reportCaughtError }).render(
    <StrictMode>
      <App client={client} runtime={runtime} />
    </StrictMode>,
  );
}

void start();
