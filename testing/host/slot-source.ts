import type { CurrentUser } from '../../shared';
import { SlotSource } from '../../host/loader/slot-source';
import { UNAUTHENTICATED, type FakeApi, type FakeRoute } from './fake-api';

/** The user the fake API signs in, member of one tenant. */
export const TEST_USER: CurrentUser = Object.freeze({
  username: 'admin',
  displayName: 'Admin',
  tenants: [{ id: 'acme', name: 'Acme' }],
  currentTenant: 'acme',
});

export interface TestSlotSourceOptions {
  /** Whether GET /me says someone is signed in (unless the test set its own route). */
  signedIn?: boolean;
  /** The page's path: `/login` asks GET /slots early; others GET /meta after GET /me. `/` by default. */
  pathname?: string;
  remotesReady?: Promise<unknown> | null;
}

/**
 * The page's slot source over a fake API, as start-up makes it without session data: GET /me answers the session
 * asked for, POST /login signs TEST_USER in and POST /logout out (where the test did not route them itself).
 */
export function createTestSlotSource(api: FakeApi, options: TestSlotSourceOptions = {}): SlotSource {
  const routes: Record<string, FakeRoute> = {
    'GET /me': options.signedIn ? { body: { user: TEST_USER } } : UNAUTHENTICATED,
    'POST /login': { body: { user: TEST_USER } },
    'POST /logout': { status: 204 },
  };
  for (const [route, answer] of Object.entries(routes)) if (!api.routes.has(route)) api.routes.set(route, answer);
  return new SlotSource({
    client: api.client,
    pathname: options.pathname ?? '/',
    sessionData: null,
    remotesReady: options.remotesReady ?? null,
  });
}
