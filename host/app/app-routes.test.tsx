import '../../testing/host/router-globals';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { pageComponents, SIGN_IN_PATH, SlotLocation, type MePayload, type SlotMap } from '../../shared';
import { createFakeApi, UNAUTHENTICATED, type FakeApi, type FakeRoute } from '../../testing/host/fake-api';
import { renderAppAt, renderAppOnceSlotsAt } from '../../testing/host/render-app';

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
  'login-sidebar': [{ component: 'Text', props: { text: 'sidebar promo' } }],
  'global-before-content': [{ component: 'Text', props: { text: 'global before' } }],
};
const META_SLOTS: SlotMap = {
  ...PUBLIC_SLOTS,
  'tenant-switcher': [{ component: 'Text', props: { text: 'tenant switcher' } }],
  'dashboard-before-cards': [{ component: 'Text', props: { text: 'protected dashboard slot' } }],
};

function Text({ text }: { text: string }) {
  return <span>{text}</span>;
}

function api(signedIn: boolean): FakeApi {
  let session = signedIn;
  return createFakeApi({
    'GET /me': () => (session ? { body: ME } : UNAUTHENTICATED),
    'POST /login': (request) => {
      const { password } = request.body as { password: string };
      if (password !== 'secret') {
        return { status: 401, body: { error: { code: 'unauthenticated', message: 'Invalid username or password.' } } };
      }
      session = true;
      return { body: ME };
    },
    'POST /logout': () => {
      session = false;
      return { status: 204 };
    },
    'GET /slots': { body: { slots: PUBLIC_SLOTS } },
    'GET /meta': () =>
      session
        ? {
            body: {
              dashboards: [{ name: 'overview', label: 'Overview', cards: [{ title: 'Articles', value: 4 }] }],
              modules: [{ name: 'content', label: 'Content', resources: [{ name: 'articles', label: 'Articles' }] }],
              slots: META_SLOTS,
            },
          }
        : UNAUTHENTICATED,
    'GET /api/resources/articles': {
      body: {
        resource: {
          name: 'articles',
          label: 'Articles',
          fields: [],
          relations: [],
          listColumns: ['title', 'label'],
          sortableColumns: ['title', 'label'],
          filters: [],
          canCreate: false,
          canDelete: false,
          searchableColumns: ['title', 'label'],
        },
      },
    },
    'GET /api/resources/articles/records': {
      body: {
        records: [{ id: 1, title: 'First article', label: 'One', group: 'news' }],
        page: { sort: 'id', order: 'asc', limit: 25, q: '', search: '', filters: {}, total: { count: 1, exact: true } },
      },
    },
  });
}

function setMatchMedia(matches: boolean) {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    value: (query: string) => ({
      matches,
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }),
  });
}

function renderApp(fake: FakeApi, path: string, components: readonly string[] = ['Text']) {
  return renderAppAt(fake, path, Object.fromEntries(components.map((name) => [name, Text])));
}

afterEach(() => {
  Reflect.deleteProperty(window, 'matchMedia');
});

describe('the host routes', () => {
  it('sends an anonymous visitor of a protected page to /login, signs in, and returns to the page', async () => {
    setMatchMedia(true);
    const fake = api(false);
    renderApp(fake, '/resources/articles');

    await screen.findByRole('heading', { name: 'Sign in' });
    expect(screen.queryByText('First article')).toBeNull();
    await screen.findByText('public notice');
    expect(document.querySelector('[data-slot-location="login-sidebar"]')).not.toBeNull();
    expect(fake.count('GET', '/slots')).toBe(1);
    expect(fake.count('GET', '/meta')).toBe(0);

    const username = document.querySelector('input[name="username"]') as HTMLInputElement;
    const password = document.querySelector('input[name="password"]') as HTMLInputElement;
    fireEvent.change(username, { target: { value: 'admin' } });
    fireEvent.change(password, { target: { value: 'wrong' } });
    fireEvent.submit(username.form as HTMLFormElement);
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid username or password.');

    fireEvent.change(password, { target: { value: 'secret' } });
    fireEvent.submit(username.form as HTMLFormElement);
    await screen.findByRole('link', { name: 'First article' });
    await screen.findByText('tenant switcher');
    expect(fake.count('GET', '/meta')).toBe(1);
    expect(screen.getByRole('link', { name: 'Articles' })).toBeTruthy();
  });

  it('keeps the sign-in page until GET /meta has answered, then shows the shell with its navigation in one step', async () => {
    const fake = api(false);
    const meta = fake.routes.get('GET /meta') as FakeRoute;
    let answerMeta = () => undefined as void;
    fake.routes.set(
      'GET /meta',
      (request) =>
        new Promise((resolve) => {
          answerMeta = () => void Promise.resolve(typeof meta === 'function' ? meta(request) : meta).then(resolve);
        }),
    );
    // Drawn with its public slots, as the shell draws it when GET /slots answers in time.
    await renderAppOnceSlotsAt(fake, '/login', { Text });
    const banner = await screen.findByText('global before');
    // Every state the page goes through: a signed-in shell whose navigation lacks the modules of GET /meta moves the
    // page twice (the shell, then its modules), and so does a public slot emptied meanwhile.
    const states: string[] = [];
    const observer = new MutationObserver(() => {
      const nav = document.querySelector('nav[aria-label="Main"]');
      if (nav && !nav.querySelector('[data-module="content"]')) states.push('navigation without its modules');
      if (!banner.isConnected) states.push('public slot gone');
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    try {
      const username = document.querySelector('input[name="username"]') as HTMLInputElement;
      const password = document.querySelector('input[name="password"]') as HTMLInputElement;
      fireEvent.change(username, { target: { value: 'admin' } });
      fireEvent.change(password, { target: { value: 'secret' } });
      fireEvent.submit(username.form as HTMLFormElement);
      await waitFor(() => expect(fake.count('GET', '/meta')).toBe(1));
      await act(async () => undefined);
      // Signed in on the server, GET /meta on its way: still the sign-in page, saying so, with its public slots.
      expect(screen.getByRole('button', { name: 'Signing in…' })).toBeTruthy();
      expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
      expect(screen.queryByText('protected dashboard slot')).toBeNull();
      expect(banner.isConnected).toBe(true);

      act(() => answerMeta());
      const nav = await screen.findByRole('navigation', { name: 'Main' });
      expect(nav.querySelector('[data-module="content"]')).not.toBeNull();
      await screen.findByText('protected dashboard slot');
      expect(banner.isConnected).toBe(true);
      expect(states).toEqual([]);
      expect(fake.count('GET', '/meta')).toBe(1);
    } finally {
      observer.disconnect();
    }
  });

  it('renders login-sidebar only at desktop widths, so its component is not even looked up on narrow screens', async () => {
    setMatchMedia(false);
    renderApp(api(false), '/login');
    await screen.findByText('public notice');
    expect(document.querySelector('[data-slot-location="login-sidebar"]')).toBeNull();
    expect(screen.queryByText('sidebar promo')).toBeNull();
  });

  it('removes every protected thing at sign-out and keeps it away', async () => {
    const fake = api(true);
    renderApp(fake, '/');
    await screen.findByText('protected dashboard slot');
    expect(document.querySelector('.stat-card')?.textContent).toBe('Articles4');

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    });
    await screen.findByRole('heading', { name: 'Sign in' });
    for (const text of ['protected dashboard slot', 'tenant switcher', 'Demo administrator']) {
      expect(screen.queryByText(text)).toBeNull();
    }
    expect(document.querySelector('.nav')).toBeNull();
    expect(document.querySelector('.stat-card')).toBeNull();
    await waitFor(() => expect(fake.count('POST', '/logout')).toBe(1));
    await screen.findByText('public notice');
  });

  it('asks before signing out at /logout opened in the browser, and says so when nobody is signed in', async () => {
    const fake = api(true);
    renderApp(fake, '/logout');
    await screen.findByRole('heading', { name: 'Sign out' });
    expect(screen.getByText(/You are signed in as/).textContent).toBe(
      'You are signed in as Demo administrator (admin).',
    );
    // Opening the address signs nobody out: another site could make the browser open it.
    expect(fake.count('POST', '/logout')).toBe(0);
    const buttons = screen.getAllByRole('button', { name: 'Sign out' });
    expect(buttons).toHaveLength(2); // the header's and the page's
    await act(async () => {
      fireEvent.click(buttons[1]!);
    });
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(fake.count('POST', '/logout')).toBe(1);
    expect(screen.queryByText('Demo administrator')).toBeNull();
  });

  it('tells a visitor opening /logout signed out already that they are, with the way to sign in', async () => {
    renderApp(api(false), '/logout');
    await screen.findByText(/You are signed out\./);
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(SIGN_IN_PATH);
  });

  it('puts the slots after the content in the page footer, outside the main content, and skips to it in place', async () => {
    const fake = api(true);
    fake.routes.set('GET /meta', {
      body: {
        dashboards: [],
        modules: [],
        slots: { 'global-after-content': [{ component: 'Text', props: { text: 'footer links' } }] },
      },
    });
    renderApp(fake, '/');
    const footerLinks = await screen.findByText('footer links');
    const main = screen.getByRole('main');
    expect(screen.getByRole('contentinfo').contains(footerLinks)).toBe(true);
    expect(main.contains(footerLinks)).toBe(false);

    // The skip link moves the focus and leaves the address alone (no #main for Back to undo).
    const before = window.location.href;
    fireEvent.click(screen.getByRole('link', { name: 'Skip to content' }));
    expect(document.activeElement).toBe(main);
    expect(window.location.href).toBe(before);
  });

  it('shows the global slots on the sign-in page too', async () => {
    renderApp(api(false), '/login');
    await screen.findByText('global before');
    expect(document.querySelector('[data-slot-location="global-before-content"]')).not.toBeNull();
    expect(document.querySelector('[data-slot-location="global-after-content"]')).not.toBeNull();
    expect(document.querySelector('[data-slot-location="header-banner"]')).not.toBeNull();
  });

  it.each([
    ['desktop', true],
    ['narrow', false],
  ])(
    'renders on the sign-in page (%s) exactly the components the shared page table names for it',
    async (_width, wide) => {
      // One component per public location, so each rendered component tells which location rendered it.
      const publicLocations = SlotLocation.cases().filter((location) => location.isPublic());
      const componentAt = (location: SlotLocation) => `At.${location.value}`;
      const slots: SlotMap = Object.fromEntries(
        publicLocations.map((location) => [
          location.value,
          [{ component: componentAt(location), props: { text: location.value } }],
        ]),
      );
      const expected = [...pageComponents(SIGN_IN_PATH, slots)]
        .filter(([, media]) => media === null || wide)
        .map(([component]) => component);
      setMatchMedia(wide);
      renderApp(
        createFakeApi({ 'GET /me': UNAUTHENTICATED, 'GET /slots': { body: { slots } } }),
        SIGN_IN_PATH,
        publicLocations.map(componentAt),
      );

      await screen.findByText('login-before-form');
      const rendered = [...document.querySelectorAll('[data-slot-component]')].map((element) =>
        element.getAttribute('data-slot-component'),
      );
      expect(rendered.sort()).toEqual(expected.sort());
      expect(rendered.includes(componentAt(SlotLocation.LOGIN_SIDEBAR))).toBe(wide);
    },
  );
});
