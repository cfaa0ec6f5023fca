import '../../testing/host/router-globals';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import {
  HOST_REFRESH_EVENT,
  type MePayload,
  type SessionBootData,
  type SlotMap,
  type SlotsPayload,
} from '../../shared';
import { ComponentRegistry, createSlotStatus, type SlotFailure, type SlotRuntime } from '../core';
import { SlotSource } from '../loader/slot-source';
import { createFakeApi, UNAUTHENTICATED, type FakeApi } from '../../testing/host/fake-api';
import { renderWithSlotBoundaries } from '../../testing/host/render-slots';
import { AppProviders } from './host-app';
import { APP_ROUTES } from './app-routes';

const ME: MePayload = {
  user: {
    username: 'admin',
    displayName: 'Demo administrator',
    tenants: [{ id: 'acme', name: 'Acme Corp' }],
    currentTenant: 'acme',
  },
  // The server's answers carry the time the session has left: the shell asks nothing more for its warning.
  session: { idleEndsInMs: 30 * 60_000, absoluteEndsInMs: 12 * 3_600_000, idleTimeoutMs: 30 * 60_000 },
};
const PUBLIC_SLOTS: SlotMap = {
  'login-before-form': [{ component: 'Text', props: { text: 'public notice' } }],
};
const GUESSED: SlotsPayload = {
  slots: { 'login-before-form': [{ component: 'Text', props: { text: 'early notice' } }] },
};

function Text({ text }: { text: string }) {
  return <span>{text}</span>;
}

/** The fake server; GET /slots answers `GUESSED` the first time (the early request), the public slots after. */
function api(signedIn: boolean): FakeApi {
  let session = signedIn;
  let slotsAnswered = 0;
  return createFakeApi({
    'GET /me': () => (session ? { body: ME } : UNAUTHENTICATED),
    'POST /logout': () => {
      session = false;
      return { status: 204 };
    },
    'GET /slots': () => ({ body: slotsAnswered++ === 0 ? GUESSED : { slots: PUBLIC_SLOTS } }),
    'GET /meta': () =>
      session
        ? {
            body: {
              dashboards: [],
              modules: [],
              slots: {
                ...PUBLIC_SLOTS,
                'dashboard-before-cards': [{ component: 'Text', props: { text: 'protected' } }],
              },
            },
          }
        : UNAUTHENTICATED,
  });
}

const stopListening: (() => void)[] = [];
afterEach(() => {
  for (const stop of stopListening.splice(0)) stop();
});

interface Startup {
  sessionData?: SessionBootData | null;
  remotesReady?: Promise<unknown> | null;
}

/** The shell over a slot source made as start-up makes it for `path`: its early requests go to the fake server. */
function renderApp(fake: FakeApi, path: string, startup: Startup = {}, registry?: ComponentRegistry) {
  const slotRegistry = registry ?? new ComponentRegistry('SlotComponentRegistry');
  if (!registry) slotRegistry.register('Text', Text);
  const failures: SlotFailure[] = [];
  const runtime: Partial<SlotRuntime> = {
    slotRegistry,
    globalRegistry: new ComponentRegistry('GlobalComponentRegistry'),
    ...createSlotStatus({ log: (_message, failure) => failures.push(failure) }),
  };
  const source = new SlotSource({ client: fake.client, pathname: path, sessionData: null, ...startup });
  stopListening.push(source.session.listen(window));
  renderWithSlotBoundaries(
    <AppProviders client={fake.client} runtime={runtime} source={source}>
      <RouterProvider router={createMemoryRouter(APP_ROUTES, { initialEntries: [path] })} />
    </AppProviders>,
  );
  return { failures };
}

const requested = (fake: FakeApi) => fake.requests.map((request) => `${request.method} ${request.path}`);

describe('the shell started from requests made with the page', () => {
  it('renders the sign-in page from the early GET /me and GET /slots, asking nothing again', async () => {
    const fake = api(false);
    renderApp(fake, '/login');

    await screen.findByRole('heading', { name: 'Sign in' });
    await screen.findByText('early notice');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(requested(fake)).toEqual(['GET /me', 'GET /slots']);
  });

  it('ignores the signed-out guess of a signed-in visitor, and asks for GET /slots again after sign-out', async () => {
    const fake = api(true);
    renderApp(fake, '/login');

    await screen.findByText('protected');
    expect(fake.count('GET', '/meta')).toBe(1);
    // The guess, made with the page, only.
    expect(fake.count('GET', '/slots')).toBe(1);
    expect(fake.count('GET', '/me')).toBe(1);
    expect(screen.queryByText('early notice')).toBeNull();

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    });
    await screen.findByText('public notice');
    expect(fake.count('GET', '/slots')).toBe(2);
    expect(screen.queryByText('protected')).toBeNull();
    expect(screen.queryByText('early notice')).toBeNull();
  });

  it('asks the server again on a later session load', async () => {
    const fake = api(false);
    renderApp(fake, '/login');
    await screen.findByText('early notice');

    await act(async () => {
      window.dispatchEvent(new CustomEvent(HOST_REFRESH_EVENT));
    });
    await waitFor(() => expect(fake.count('GET', '/me')).toBe(2));
    // A new session revision refreshes the slots: from the server now, not from the guess.
    await screen.findByText('public notice');
    expect(fake.count('GET', '/slots')).toBe(2);
  });

  it('renders no slot before the remotes are known, so none is reported as an unknown component', async () => {
    const fake = api(false);
    const registry = new ComponentRegistry('SlotComponentRegistry');
    let remotesKnown: () => void = () => undefined;
    const remotesReady = new Promise<void>((resolve) => {
      remotesKnown = resolve;
    });
    const { failures } = renderApp(fake, '/login', { remotesReady }, registry);

    await screen.findByRole('heading', { name: 'Sign in' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(document.querySelector('[data-slot-component]')).toBeNull();
    expect(document.querySelector('[data-slot-location="login-before-form"]')?.getAttribute('aria-busy')).toBe('true');

    await act(async () => {
      registry.register('Text', Text);
      remotesKnown();
    });
    await screen.findByText('early notice');
    expect(failures).toEqual([]);
    expect(requested(fake)).toEqual(['GET /me', 'GET /slots']);
  });

  it('renders a signed-in page from the GET /meta started with the page, asking for it nothing again', async () => {
    const fake = api(true);
    renderApp(fake, '/');

    await screen.findByText('protected');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(requested(fake)).toEqual(['GET /me', 'GET /meta']);
  });

  it('renders a signed-in page from its session data, asking nothing', async () => {
    const fake = api(true);
    const sessionData: SessionBootData = {
      me: ME,
      meta: {
        dashboards: [],
        modules: [],
        slots: { 'dashboard-before-cards': [{ component: 'Text', props: { text: 'early protected' } }] },
      },
    };
    renderApp(fake, '/', { sessionData });

    await screen.findByText('early protected');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fake.requests).toEqual([]);
  });

  it('drops the early GET /meta of a page that loaded signed out: a later sign-in asks the server', async () => {
    const fake = api(false);
    renderApp(fake, '/login');
    await screen.findByText('early notice');
    expect(fake.count('GET', '/meta')).toBe(0);

    fake.routes.set('GET /me', { body: ME });
    fake.routes.set('GET /meta', {
      body: {
        dashboards: [],
        modules: [],
        slots: { 'dashboard-before-cards': [{ component: 'Text', props: { text: 'fresh protected' } }] },
      },
    });
    await act(async () => {
      window.dispatchEvent(new CustomEvent(HOST_REFRESH_EVENT));
    });
    await waitFor(() => expect(fake.count('GET', '/meta')).toBe(1));
    await screen.findByText('fresh protected');
  });

  it('forgets the session of a page restored from the back/forward cache at once, then asks again', async () => {
    const fake = api(true);
    renderApp(fake, '/');
    await screen.findByText('protected');

    fake.routes.set('GET /me', () => new Promise(() => undefined));
    act(() => {
      window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    });
    // Nothing protected while the server is asked again.
    expect(screen.queryByText('protected')).toBeNull();
    expect(fake.count('GET', '/me')).toBe(2);
  });
});
