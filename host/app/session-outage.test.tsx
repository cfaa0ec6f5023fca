import '../../testing/host/router-globals';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { API_CLIENT_MESSAGES, HOST_REFRESH_EVENT, type MePayload } from '../../shared';
import { ComponentRegistry, createSlotStatus, type SlotRuntime } from '../core';
import { SESSION_UNAVAILABLE_MESSAGES } from '../layout/session-unavailable';
import { SlotSource } from '../loader/slot-source';
import { createFakeApi, UNAUTHENTICATED, type FakeApi, type FakeRoute } from '../../testing/host/fake-api';
import { demoMe } from '../../testing/host/render-app';
import { renderWithSlotBoundaries } from '../../testing/host/render-slots';
import { AppProviders } from './host-app';
import { APP_ROUTES } from './app-routes';

/**
 * A session store or database outage (GET /me answers 503) or an unreachable server (a network error) must not read
 * as "signed out": the page says what failed and offers to try again, shows nothing protected meanwhile and no
 * sign-in form (which would only fail), and goes on as signed in once GET /me answers; a 401 is still signed out.
 */
const ME: MePayload = demoMe([]);
const UNAVAILABLE_MESSAGE = 'The service is temporarily unavailable. Try again shortly.';
const unavailable: FakeRoute = { status: 503, body: { error: { code: 'unavailable', message: UNAVAILABLE_MESSAGE } } };
const unreachable: FakeRoute = () => {
  throw new TypeError('Failed to fetch');
};

/** Each outage of GET /me: what the page's heading and message say of it. */
const OUTAGES: ReadonlyArray<[string, FakeRoute, string, string]> = [
  ['answers 503', unavailable, SESSION_UNAVAILABLE_MESSAGES.unavailableTitle, UNAVAILABLE_MESSAGE],
  ['cannot be reached', unreachable, SESSION_UNAVAILABLE_MESSAGES.unreachableTitle, API_CLIENT_MESSAGES.unreachable],
];

function Text({ text }: { text: string }) {
  return <span>{text}</span>;
}

function api(me: FakeRoute): FakeApi {
  return createFakeApi({
    'GET /me': me,
    'GET /slots': { body: { slots: {} } },
    'GET /meta': {
      body: {
        dashboards: [],
        modules: [],
        slots: { 'dashboard-before-cards': [{ component: 'Text', props: { text: 'protected' } }] },
      },
    },
  });
}

const stopListening: (() => void)[] = [];
beforeEach(() => {
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  for (const stop of stopListening.splice(0)) stop();
  jest.restoreAllMocks();
  jest.useRealTimers();
});

/** The shell at `path` over a slot source made as start-up makes it (its early requests go to the fake server). */
function renderApp(fake: FakeApi, path: string) {
  const slotRegistry = new ComponentRegistry('SlotComponentRegistry');
  slotRegistry.register('Text', Text);
  const runtime: Partial<SlotRuntime> = {
    slotRegistry,
    globalRegistry: new ComponentRegistry('GlobalComponentRegistry'),
    ...createSlotStatus({ log: () => undefined }),
  };
  const source = new SlotSource({ client: fake.client, pathname: path, sessionData: null });
  stopListening.push(source.session.listen(window));
  const router = createMemoryRouter(APP_ROUTES, { initialEntries: [path] });
  renderWithSlotBoundaries(
    <AppProviders client={fake.client} runtime={runtime} source={source}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { router };
}

/** The outage as shown: its heading and the server's words, a way to try again, and neither the form nor content. */
async function expectOutage(title: string, message: string) {
  const alert = await screen.findByRole('alert');
  expect(screen.getByRole('heading', { name: title })).toBeTruthy();
  expect(alert.textContent).toContain(message);
  expect(screen.getByRole('button', { name: SESSION_UNAVAILABLE_MESSAGES.retry })).toBeTruthy();
  // Outside the alert: its "Trying again…" at each retry would have the whole alert read out again every time.
  expect(within(alert).queryByRole('button')).toBeNull();
  expect(screen.queryByRole('heading', { name: 'Sign in' })).toBeNull();
  expect(screen.queryByLabelText('Password')).toBeNull();
  expect(screen.queryByText('protected')).toBeNull();
  expect(screen.queryByRole('button', { name: 'Sign out' })).toBeNull();
}

describe.each(OUTAGES)('when GET /me %s', (_outage, route, title, message) => {
  it('a signed-in page says so with a retry, and the retry that succeeds shows the page', async () => {
    const fake = api(route);
    const { router } = renderApp(fake, '/');
    await expectOutage(title, message);
    expect(router.state.location.pathname).toBe('/');
    // Nothing was asked for the page while who is signed in is unknown.
    expect(fake.count('GET', '/meta')).toBe(0);

    fake.routes.set('GET /me', { body: ME });
    fireEvent.click(screen.getByRole('button', { name: SESSION_UNAVAILABLE_MESSAGES.retry }));
    expect(await screen.findByText('protected')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(fake.count('GET', '/meta')).toBe(1);
  });

  it('the sign-in page says so instead of the form, and moves a signed-in visitor on once GET /me answers', async () => {
    const fake = api(route);
    const { router } = renderApp(fake, '/login');
    await expectOutage(title, message);

    fake.routes.set('GET /me', { body: ME });
    fireEvent.click(screen.getByRole('button', { name: SESSION_UNAVAILABLE_MESSAGES.retry }));
    expect(await screen.findByText('protected')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
  });

  it('a later refresh that fails hides the signed-in page behind the outage, until a retry succeeds', async () => {
    const fake = api({ body: ME });
    renderApp(fake, '/');
    await screen.findByText('protected');

    fake.routes.set('GET /me', route);
    await act(async () => {
      window.dispatchEvent(new CustomEvent(HOST_REFRESH_EVENT));
    });
    await expectOutage(title, message);

    fake.routes.set('GET /me', { body: ME });
    fireEvent.click(screen.getByRole('button', { name: SESSION_UNAVAILABLE_MESSAGES.retry }));
    expect(await screen.findByText('protected')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('the outage of GET /me, over time', () => {
  it('tries again by itself after a while, and again later after another failure', async () => {
    jest.useFakeTimers();
    // The middle of each wait's spread: about two seconds, then four.
    jest.spyOn(Math, 'random').mockReturnValue(0.5);
    const fake = api(unavailable);
    renderApp(fake, '/');
    await act(async () => {
      await jest.advanceTimersByTimeAsync(0);
    });
    expect(screen.getByRole('heading', { name: SESSION_UNAVAILABLE_MESSAGES.unavailableTitle })).toBeTruthy();
    expect(fake.count('GET', '/me')).toBe(1);
    const alert = screen.getByRole('alert');
    const said = alert.textContent;

    await act(async () => {
      await jest.advanceTimersByTimeAsync(2_500);
    });
    expect(fake.count('GET', '/me')).toBe(2);
    // The same alert, its words unchanged by the retry: nothing is read out again.
    expect(screen.getByRole('alert')).toBe(alert);
    expect(alert.textContent).toBe(said);
    fake.routes.set('GET /me', { body: ME });
    await act(async () => {
      await jest.advanceTimersByTimeAsync(2_500);
    });
    expect(fake.count('GET', '/me')).toBe(2);
    await act(async () => {
      await jest.advanceTimersByTimeAsync(2_500);
    });
    expect(fake.count('GET', '/me')).toBe(3);
    expect(screen.getByText('protected')).toBeTruthy();
    // The retries were the page's own: they do not count as the person using the session.
    const asked = fake.requests.filter((request) => request.path === '/me');
    expect(asked.map((request) => request.background ?? false)).toEqual([false, true, true]);
  });

  it('tries again as soon as the browser is back online', async () => {
    const fake = api(unreachable);
    renderApp(fake, '/');
    await screen.findByRole('heading', { name: SESSION_UNAVAILABLE_MESSAGES.unreachableTitle });

    fake.routes.set('GET /me', { body: ME });
    await act(async () => {
      window.dispatchEvent(new Event('online'));
    });
    expect(await screen.findByText('protected')).toBeTruthy();
    expect(fake.count('GET', '/me')).toBe(2);
  });

  it('shows the sign-in form when the retry finds nobody signed in (401)', async () => {
    const fake = api(unavailable);
    const { router } = renderApp(fake, '/');
    await screen.findByRole('heading', { name: SESSION_UNAVAILABLE_MESSAGES.unavailableTitle });

    fake.routes.set('GET /me', UNAUTHENTICATED);
    fireEvent.click(screen.getByRole('button', { name: SESSION_UNAVAILABLE_MESSAGES.retry }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(screen.getByLabelText('Password')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('a 401 at first load still shows the sign-in form, with no outage', async () => {
    renderApp(api(UNAUTHENTICATED), '/');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: SESSION_UNAVAILABLE_MESSAGES.unavailableTitle })).toBeNull();
  });
});
