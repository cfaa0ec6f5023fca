import '../../testing/host/router-globals';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { HOST_REFRESH_EVENT, type MePayload, type SlotMap, type SlotsPayload } from '../../shared';
import { ApiError, ComponentRegistry, createSlotFailureReporter, type SlotFailure, type SlotRuntime } from '../core';
import { createFakeApi, UNAUTHENTICATED, type FakeApi } from '../../testing/host/fake-api';
import { renderWithSlotBoundaries } from '../../testing/host/render-slots';
import { AppProviders, type AppStartup } from './host-app';
import { APP_ROUTES } from './app-routes';

const ME: MePayload = {
  user: {
    username: 'admin',
    displayName: 'Demo administrator',
    tenants: [{ id: 'acme', name: 'Acme Corp' }],
    currentTenant: 'acme',
  },
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

function api(signedIn: boolean): FakeApi {
  let session = signedIn;
  return createFakeApi({
    'GET /me': () => (session ? { body: ME } : UNAUTHENTICATED),
    'POST /logout': () => {
      session = false;
      return { status: 204 };
    },
    'GET /slots': { body: { slots: PUBLIC_SLOTS } },
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

function renderApp(fake: FakeApi, path: string, startup: AppStartup, registry?: ComponentRegistry) {
  const slotRegistry = registry ?? new ComponentRegistry('SlotComponentRegistry');
  if (!registry) slotRegistry.register('Text', Text);
  const failures: SlotFailure[] = [];
  const runtime: Partial<SlotRuntime> = {
    slotRegistry,
    globalRegistry: new ComponentRegistry('GlobalComponentRegistry'),
    reporter: createSlotFailureReporter((_message, failure) => failures.push(failure)),
  };
  renderWithSlotBoundaries(
    <AppProviders client={fake.client} runtime={runtime} startup={startup}>
      <RouterProvider router={createMemoryRouter(APP_ROUTES, { initialEntries: [path] })} />
    </AppProviders>,
  );
  return { failures };
}

const unauthenticated = () => Promise.reject(new ApiError(401, 'unauthenticated', 'Sign in to continue.'));

describe('the shell started from requests made with the page', () => {
  it('renders the sign-in page from the early GET /me and GET /slots, asking nothing again', async () => {
    const fake = api(false);
    renderApp(fake, '/login', { me: unauthenticated(), publicSlots: Promise.resolve(GUESSED) });

    await screen.findByRole('heading', { name: 'Sign in' });
    await screen.findByText('early notice');
    expect(fake.requests).toEqual([]);
  });

  it('ignores the signed-out guess of a signed-in visitor, and asks for GET /slots again after sign-out', async () => {
    const fake = api(true);
    renderApp(fake, '/', { me: Promise.resolve(ME), publicSlots: Promise.resolve(GUESSED) });

    await screen.findByText('protected');
    expect(fake.count('GET', '/meta')).toBe(1);
    expect(fake.count('GET', '/slots')).toBe(0);
    expect(fake.count('GET', '/me')).toBe(0);
    expect(screen.queryByText('early notice')).toBeNull();

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    });
    await screen.findByText('public notice');
    expect(fake.count('GET', '/slots')).toBe(1);
    expect(screen.queryByText('protected')).toBeNull();
    expect(screen.queryByText('early notice')).toBeNull();
  });

  it('asks the server again on a later session load', async () => {
    const fake = api(false);
    renderApp(fake, '/login', { me: unauthenticated(), publicSlots: Promise.resolve(GUESSED) });
    await screen.findByText('early notice');

    await act(async () => {
      window.dispatchEvent(new CustomEvent(HOST_REFRESH_EVENT));
    });
    await waitFor(() => expect(fake.count('GET', '/me')).toBe(1));
    // A new session revision refreshes the slots: from the server now, not from the guess.
    await screen.findByText('public notice');
    expect(fake.count('GET', '/slots')).toBe(1);
  });

  it('renders no slot before the remotes are known, so none is reported as an unknown component', async () => {
    const fake = api(false);
    const registry = new ComponentRegistry('SlotComponentRegistry');
    let remotesKnown: () => void = () => undefined;
    const remotesReady = new Promise<void>((resolve) => {
      remotesKnown = resolve;
    });
    const { failures } = renderApp(
      fake,
      '/login',
      { me: unauthenticated(), publicSlots: Promise.resolve(GUESSED), remotesReady },
      registry,
    );

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
    expect(fake.requests).toEqual([]);
  });

  it('renders a signed-in page from the GET /meta started with the page, asking for it nothing again', async () => {
    const fake = api(true);
    const early = {
      dashboards: [],
      modules: [],
      slots: { 'dashboard-before-cards': [{ component: 'Text', props: { text: 'early protected' } }] },
    };
    renderApp(fake, '/', { me: Promise.resolve(ME), publicSlots: null, meta: Promise.resolve(early) });

    await screen.findByText('early protected');
    expect(fake.count('GET', '/meta')).toBe(0);
    expect(fake.count('GET', '/me')).toBe(0);
  });

  it('drops the early GET /meta of a page that loaded signed out: a later sign-in asks the server', async () => {
    const fake = api(false);
    const stale = { dashboards: [], modules: [], slots: { 'dashboard-before-cards': [] } };
    renderApp(fake, '/login', {
      me: unauthenticated(),
      publicSlots: Promise.resolve(GUESSED),
      meta: Promise.resolve(stale),
    });
    await screen.findByText('early notice');

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
  });
});
