import { useState, type ReactNode } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import type { MePayload, MetaPayload, SlotsPayload } from '../../shared';
import {
  ApiClientProvider,
  SessionProvider,
  SlotDataProvider,
  SlotRuntimeProvider,
  useSession,
  type ApiClient,
  type SlotRuntime,
} from '../core';
import { APP_ROUTES } from './app-routes';
import { UnsavedChangesProvider } from './unsaved-changes';
import { useSettled } from './use-settled';

/** Requests started with the page (host/startup), which the providers answer their first loads from. */
export interface AppStartup {
  /** GET /me in flight. */
  me?: Promise<MePayload> | undefined;
  /** GET /slots in flight on the guess that the visitor is signed out; used only if GET /me agrees. */
  publicSlots?: Promise<SlotsPayload> | null | undefined;
  /** GET /meta in flight since GET /me answered; used for the first signed-in slot load only. */
  meta?: Promise<MetaPayload> | null | undefined;
  /** Settles when the remotes' components are registered: slots render after it, never as unknown names before. */
  remotesReady?: Promise<unknown> | undefined;
}

export interface HostAppProps {
  client: ApiClient;
  /** Made once at start-up (a new object would re-render every slot). */
  runtime: Partial<SlotRuntime>;
  /** Made once at start-up (host/startup), before React: the providers answer their first loads from it. */
  startup: AppStartup;
}

/** The shell in the browser: the providers, the browser's history, and the routes. */
export function HostApp({ client, runtime, startup }: HostAppProps) {
  // One router for the life of the page: it owns the history listener.
  const [router] = useState(() => createBrowserRouter(APP_ROUTES));
  return (
    <AppProviders client={client} runtime={runtime} startup={startup}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}

export interface AppProvidersProps extends Omit<HostAppProps, 'startup'> {
  /** Without it, the providers make their first requests themselves. */
  startup?: AppStartup | undefined;
  children: ReactNode;
}

/**
 * API client, slot runtime, session, the page's one slot source, and the guard of unsaved changes (tests give their
 * own router).
 */
export function AppProviders({ client, runtime, startup, children }: AppProvidersProps) {
  return (
    <ApiClientProvider client={client}>
      <SlotRuntimeProvider runtime={runtime}>
        <SessionProvider client={client} initialMe={startup?.me}>
          <SessionSlotData client={client} startup={startup}>
            <UnsavedChangesProvider>{children}</UnsavedChangesProvider>
          </SessionSlotData>
        </SessionProvider>
      </SlotRuntimeProvider>
    </ApiClientProvider>
  );
}

/** GET /meta when signed in, GET /slots otherwise; fetched again on sign-in, sign-out and tenant switch. */
function SessionSlotData({
  client,
  startup,
  children,
}: {
  client: ApiClient;
  startup: AppStartup | undefined;
  children: ReactNode;
}) {
  const session = useSession();
  const remotesKnown = useSettled(startup?.remotesReady);
  return (
    <SlotDataProvider
      client={client}
      ready={session.status !== 'loading' && remotesKnown}
      authenticated={session.status === 'authenticated'}
      sessionKey={session.identity}
      refreshKey={`${session.scope}#${session.revision}`}
      onUnauthenticated={session.expire}
      initialSlots={startup?.publicSlots}
      initialMeta={startup?.meta}
    >
      {children}
    </SlotDataProvider>
  );
}
