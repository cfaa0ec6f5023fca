import type { ReactNode } from 'react';
import { BrowserRouter } from 'react-router-dom';
import {
  ApiClientProvider,
  SessionProvider,
  SlotDataProvider,
  SlotRuntimeProvider,
  useSession,
  type ApiClient,
  type SlotRuntime,
} from '../core';
import { AppRoutes } from './app-routes';

export interface AppProps {
  client: ApiClient;
  /** Made once at start-up (a new object would re-render every slot). */
  runtime: Partial<SlotRuntime>;
}

/** The shell in the browser: the providers, the browser's history, and the routes. */
export function App({ client, runtime }: AppProps) {
  return (
    <AppProviders client={client} runtime={runtime}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  );
}

/** API client, slot runtime, session, and the page's one slot source (tests give their own router). */
export function AppProviders({ client, runtime, children }: AppProps & { children: ReactNode }) {
  return (
    <ApiClientProvider client={client}>
      <SlotRuntimeProvider runtime={runtime}>
        <SessionProvider client={client}>
          <SessionSlotData client={client}>{children}</SessionSlotData>
        </SessionProvider>
      </SlotRuntimeProvider>
    </ApiClientProvider>
  );
}

/** GET /meta when signed in, GET /slots otherwise; fetched again on sign-in, sign-out and tenant switch. */
function SessionSlotData({ client, children }: { client: ApiClient; children: ReactNode }) {
  const session = useSession();
  return (
    <SlotDataProvider
      client={client}
      ready={session.status !== 'loading'}
      authenticated={session.status === 'authenticated'}
      sessionKey={session.identity}
      refreshKey={`${session.scope}#${session.revision}`}
      onUnauthenticated={session.expire}
    >
      {children}
    </SlotDataProvider>
  );
}
