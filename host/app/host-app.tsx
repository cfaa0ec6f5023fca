import { useState, type ReactNode } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import {
  ApiClientProvider,
  SlotRuntimeProvider,
  SlotSourceProvider,
  type ApiClient,
  type SlotRuntime,
  type SlotSource,
} from '../core';
import { APP_ROUTES } from './app-routes';
import { UnsavedChangesProvider } from '../hooks/unsaved-changes';

export interface HostAppProps {
  client: ApiClient;
  /** Made once at start-up (a new object would re-render every slot). */
  runtime: Partial<SlotRuntime>;
  /** The page's slot source and session, made before React (host/startup) with the requests it started. */
  source: SlotSource;
}

/** The shell in the browser: the providers, the browser's history, and the routes. */
export function HostApp({ client, runtime, source }: HostAppProps) {
  // One router for the life of the page: it owns the history listener.
  const [router] = useState(() => createBrowserRouter(APP_ROUTES));
  return (
    <AppProviders client={client} runtime={runtime} source={source}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}

export interface AppProvidersProps extends HostAppProps {
  children: ReactNode;
}

/** API client, slot runtime, the page's slot source, and the guard of unsaved changes (tests give their own router). */
export function AppProviders({ client, runtime, source, children }: AppProvidersProps) {
  return (
    <ApiClientProvider client={client}>
      <SlotRuntimeProvider runtime={runtime}>
        <SlotSourceProvider source={source}>
          <UnsavedChangesProvider>{children}</UnsavedChangesProvider>
        </SlotSourceProvider>
      </SlotRuntimeProvider>
    </ApiClientProvider>
  );
}
