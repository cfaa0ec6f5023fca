import { createInstance } from '@module-federation/enhanced/runtime';
import { SIGN_IN_SIDEBAR_MEDIA, type RemotesPayload, type SlotsPayload } from '../../shared';
import { createFallbackModule } from '../core/fallback-module';
import { HOST_MESSAGES } from '../loader/messages';
import { createFakeApi, UNAUTHENTICATED, type FakeApi } from '../../testing/host/fake-api';
import {
  fakeContainer,
  fakeManifest,
  fakeContainersPlugin,
  uniqueName,
  useFederationTestEnvironment,
  TestResponse,
  type FakeContainer,
} from '../../testing/host/fake-remote';
import { startHost, type StartHostOptions } from './start-host';

const consoleWarn = useFederationTestEnvironment();

const PUBLIC_SLOTS: SlotsPayload = {
  slots: {
    'header-banner': [{ component: 'MaintenanceNotice', props: {} }],
    'login-before-form': [{ component: 'Callout', props: {}, content: { component: 'LoginNotice', props: {} } }],
    'login-sidebar': [{ component: 'LoginSidebarPromo', props: {} }],
  },
};

interface Setup {
  fake: FakeApi;
  manifests: string[];
  containers: Map<string, FakeContainer>;
  marketing: string;
  records: string;
  options: StartHostOptions;
}

function setup(pathname: string, remoteList: { status?: number; body?: unknown } | null = null): Setup {
  const marketing = uniqueName('team_marketing');
  const records = uniqueName('team_records');
  const remotes: RemotesPayload = {
    remotes: [
      {
        name: marketing,
        entry: `/remotes/${marketing}/mf-manifest.json`,
        components: ['MaintenanceNotice', 'Callout', 'LoginNotice', 'LoginSidebarPromo', 'FooterLinks'],
        formComponents: [],
      },
      { name: records, entry: `/remotes/${records}/mf-manifest.json`, components: ['Timeline'], formComponents: [] },
    ],
  };
  const fake = createFakeApi({
    'GET /me': UNAUTHENTICATED,
    'GET /slots': { body: PUBLIC_SLOTS },
    'GET /api/remotes': remoteList ?? { body: remotes },
  });
  const manifests: string[] = [];
  const containers = new Map<string, FakeContainer>();
  const component = () => null;
  containers.set(
    marketing,
    fakeContainer({
      MaintenanceNotice: { default: component },
      Callout: { default: component },
      LoginNotice: { default: component },
      LoginSidebarPromo: { default: component },
      FooterLinks: { default: component },
    }),
  );
  containers.set(records, fakeContainer({ Timeline: { default: component } }));
  const instance = createInstance({
    name: uniqueName('test_host'),
    remotes: [],
    plugins: [fakeContainersPlugin(containers)],
  });
  const options: StartHostOptions = {
    client: fake.client,
    instance,
    pathname,
    matchesMedia: () => false,
    fallbackModule: createFallbackModule,
    reliability: {
      fetch: async (url) => {
        manifests.push(url);
        const remote = remotes.remotes.find((candidate) => url.endsWith(candidate.entry));
        if (!remote) return new TestResponse('{}', 404) as unknown as Response;
        return new TestResponse(JSON.stringify(fakeManifest(remote.name, remote.components))) as unknown as Response;
      },
      log: () => undefined,
    },
  };
  return { fake, manifests, containers, marketing, records, options };
}

function requested(fake: FakeApi): string[] {
  return fake.requests.map((request) => `${request.method} ${request.path}`);
}

describe('startHost', () => {
  it('on the sign-in page: requests side by side, then loads the modules of the public slots it will render', async () => {
    const s = setup('/login');
    const startup = startHost(s.options);
    expect(requested(s.fake)).toEqual(['GET /me', 'GET /slots', 'GET /api/remotes']);

    await startup.remotesReady;
    expect(startup.modules.remoteOf('Callout')).toBe(s.marketing);
    const loaded: string[] = [];
    startup.modules.onLoad((done) => loaded.push(done.component));
    await waitFor(() => loaded.length === 3);

    expect(loaded.sort()).toEqual(['Callout', 'LoginNotice', 'MaintenanceNotice']);
    // Narrow screen: no sidebar, so its component is not fetched; nothing of the other remote either.
    expect(s.containers.get(s.marketing)?.get).not.toHaveBeenCalledWith('./LoginSidebarPromo');
    expect(s.containers.get(s.records)?.get).not.toHaveBeenCalled();
    expect(s.manifests).toEqual([`http://localhost/remotes/${s.marketing}/mf-manifest.json`]);
    expect(requested(s.fake)).toEqual(['GET /me', 'GET /slots', 'GET /api/remotes']);
  });

  it('asks the window whether the sidebar shows by default, with the sign-in page media query', async () => {
    /** What start-up loads ahead on the sign-in page, with no `matchesMedia` option: `count` modules. */
    const loadedAhead = async (count: number) => {
      const s = setup('/login');
      const { matchesMedia: _default, ...options } = s.options;
      const startup = startHost(options);
      const loaded: string[] = [];
      startup.modules.onLoad((done) => loaded.push(done.component));
      await waitFor(() => loaded.length === count);
      await new Promise((resolve) => setTimeout(resolve, 20));
      return loaded;
    };
    // No matchMedia (an old browser, a test): nothing under a media query is loaded ahead.
    expect(await loadedAhead(3)).not.toContain('LoginSidebarPromo');

    const queries: string[] = [];
    Object.defineProperty(window, 'matchMedia', {
      configurable: true,
      value: (query: string) => {
        queries.push(query);
        return { matches: true };
      },
    });
    try {
      expect(await loadedAhead(4)).toContain('LoginSidebarPromo');
      expect(queries).toEqual([SIGN_IN_SIDEBAR_MEDIA]);
    } finally {
      Reflect.deleteProperty(window, 'matchMedia');
    }
  });

  it('loads the sidebar component too when the sidebar shows', async () => {
    const s = setup('/login');
    const startup = startHost({ ...s.options, matchesMedia: () => true });
    const loaded: string[] = [];
    startup.modules.onLoad((done) => loaded.push(done.component));
    await waitFor(() => loaded.length === 4);
    expect(loaded).toContain('LoginSidebarPromo');
  });

  it('elsewhere: no slots guess and no module loaded, the remotes registered all the same', async () => {
    const s = setup('/resources/articles');
    const startup = startHost(s.options);
    expect(startup.source.earlySlots).toBeNull();
    await startup.remotesReady;
    await new Promise((resolve) => setTimeout(resolve, 20));

    // Signed out and the remotes known, the slot source asks for the public slots the sign-in page will show.
    expect(requested(s.fake)).toEqual(['GET /me', 'GET /api/remotes', 'GET /slots']);
    expect(startup.source.snapshot().source).toBe('slots');
    expect(startup.modules.provided().map((item) => item.component)).toContain('Timeline');
    expect(s.manifests).toEqual([]);
  });

  it('signed in: loads the modules of the slots GET /meta places on this page, and only those', async () => {
    const s = setup('/resources/articles/4/edit');
    s.fake.routes.set('GET /me', { body: { user: { username: 'admin' } } });
    s.fake.routes.set('GET /meta', {
      body: {
        dashboards: [],
        modules: [],
        slots: {
          'resource-edit-actions': [{ component: 'Timeline', props: {} }],
          'header-banner': [{ component: 'MaintenanceNotice', props: {} }],
          // The view page's location: not rendered on the edit page, so not loaded.
          'resource-page-actions': [{ component: 'FooterLinks', props: {} }],
        },
      },
    });
    const startup = startHost(s.options);
    const loaded: string[] = [];
    startup.modules.onLoad((done) => loaded.push(done.component));
    await waitFor(() => loaded.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 20));

    expect(loaded.sort()).toEqual(['MaintenanceNotice', 'Timeline']);
    expect(requested(s.fake)).toEqual(['GET /me', 'GET /api/remotes', 'GET /meta']);
  });

  it('settles remotesReady and logs once when the remote list cannot be loaded', async () => {
    const consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const s = setup('/login', { status: 503, body: { error: { code: 'unavailable', message: 'Down.' } } });
      const startup = startHost(s.options);
      await startup.remotesReady;
      await new Promise((resolve) => setTimeout(resolve, 20));

      expect(consoleError.mock.calls).toEqual([[HOST_MESSAGES.remoteListFailureLog, { error: 'Down.' }]]);
      expect(startup.modules.provided()).toEqual([]);
      expect(s.manifests).toEqual([]);
    } finally {
      consoleError.mockRestore();
    }
  });

  it('resolves a component of an unreachable remote to the React fallback module', async () => {
    const s = setup('/resources/articles');
    const startup = startHost({
      ...s.options,
      reliability: { ...s.options.reliability, fetch: async () => new TestResponse('{}', 500) as unknown as Response },
    });
    await startup.remotesReady;
    const module = (await startup.modules.load(s.marketing, 'Callout')) as Record<string, unknown>;
    expect(typeof module.default).toBe('function');
    expect((module.default as { displayName?: string }).displayName).toBe(`RemoteFallback(${s.marketing}/Callout)`);
    expect(startup.modules.isQuarantined(s.marketing)).toBe(true);
  });
});

describe('startHost when the session changes in the page', () => {
  const MEMBER = {
    username: 'member',
    displayName: 'Member',
    tenants: [
      { id: 'acme', name: 'Acme' },
      { id: 'globex', name: 'Globex' },
    ],
    currentTenant: 'acme',
  };

  /** GET /api/remotes answers the records remote's canary from now on: its release's entry, signed with its tag. */
  function giveRecordsCanary(s: Setup): void {
    const { body } = s.fake.routes.get('GET /api/remotes') as { body: RemotesPayload };
    const remotes = body.remotes.map((remote) =>
      remote.name === s.records
        ? { ...remote, entry: `https://cdn.example/${s.records}/2.0.0/mf-manifest.json`, releaseTag: '2.0.0.c2lnbmVk' }
        : remote,
    );
    s.fake.routes.set('GET /api/remotes', { body: { remotes } });
  }

  function started(pathname: string, signedIn = false, extra: Partial<StartHostOptions> = {}) {
    const s = setup(pathname);
    if (signedIn) s.fake.routes.set('GET /me', { body: { user: MEMBER } });
    const reloads: string[] = [];
    const startup = startHost({ ...s.options, reloadPage: () => reloads.push(pathname), ...extra });
    return { s, startup, reloads };
  }

  it('signing in to the same releases: asks the remotes again beside GET /meta, then shows signed in', async () => {
    const { s, startup, reloads } = started('/login');
    await startup.remotesReady;
    s.fake.routes.set('POST /login', { body: { user: MEMBER } });
    s.fake.routes.set('GET /meta', { body: { dashboards: [], modules: [], slots: {} } });
    await startup.source.session.signIn({ username: 'member', password: 'secret' });

    expect(startup.source.session.snapshot().status).toBe('authenticated');
    expect(requested(s.fake).filter((request) => request === 'GET /api/remotes')).toHaveLength(2);
    expect(reloads).toEqual([]);
  });

  it('switching tenant on a page of boot data: the same releases though its entries are the hashed scripts', async () => {
    const s0 = setup('/resources/articles');
    const { body } = s0.fake.routes.get('GET /api/remotes') as { body: RemotesPayload };
    // The server names the remotes it builds by their hashed entry scripts in the page, by manifest in the API.
    const bootData = {
      remotes: body.remotes.map((remote) => ({ ...remote, entry: `/remotes/${remote.name}/remoteEntry.0a1b2c3d.js` })),
      components: [],
      problems: [],
      showSlotDetails: false,
    };
    const { s, startup, reloads } = started('/resources/articles', true, { bootData });
    await waitFor(() => startup.source.session.snapshot().status === 'authenticated');
    s.fake.routes.set('GET /api/remotes', { body });
    s.fake.routes.set('POST /tenant', { body: { user: { ...MEMBER, currentTenant: 'globex' } } });
    await startup.source.session.switchTenant('globex');
    await waitFor(() => requested(s.fake).includes('GET /api/remotes'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reloads).toEqual([]);
  });

  it('signing in to a canary: loads the page again instead of showing the old releases signed in', async () => {
    const { s, startup, reloads } = started('/login');
    await startup.remotesReady;
    s.fake.routes.set('POST /login', { body: { user: MEMBER } });
    s.fake.routes.set('GET /meta', { body: { dashboards: [], modules: [], slots: {} } });
    giveRecordsCanary(s);
    let signedIn = false;
    void startup.source.session.signIn({ username: 'member', password: 'secret' }).then(() => (signedIn = true));
    await waitFor(() => reloads.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 20));

    expect(reloads).toEqual(['/login']);
    // Never shown signed in with the releases of before: the page is on its way out.
    expect([signedIn, startup.source.session.snapshot().status]).toEqual([false, 'anonymous']);
  });

  it('switching to a tenant given a canary: loads the page again once the switch is made, not before', async () => {
    const { s, startup, reloads } = started('/resources/articles', true);
    await startup.remotesReady;
    await waitFor(() => startup.source.session.snapshot().status === 'authenticated');
    // The session the page was loaded in is the one its remotes are for: nothing asked again for it.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(requested(s.fake).filter((request) => request === 'GET /api/remotes')).toHaveLength(1);

    giveRecordsCanary(s);
    s.fake.routes.set('POST /tenant', { body: { user: { ...MEMBER, currentTenant: 'globex' } } });
    await startup.source.session.switchTenant('globex');
    await waitFor(() => reloads.length > 0);
    expect(reloads).toEqual(['/resources/articles']);
  });

  it('keeps the page when the remotes cannot be asked after a switch', async () => {
    const { s, startup, reloads } = started('/resources/articles', true);
    await startup.remotesReady;
    await waitFor(() => startup.source.session.snapshot().status === 'authenticated');
    s.fake.routes.set('GET /api/remotes', { status: 503, body: { error: { code: 'unavailable', message: 'Down.' } } });
    s.fake.routes.set('POST /tenant', { body: { user: { ...MEMBER, currentTenant: 'globex' } } });
    await startup.source.session.switchTenant('globex');
    await waitFor(() => requested(s.fake).filter((request) => request === 'GET /api/remotes').length === 2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reloads).toEqual([]);
  });
});

describe('startHost with the boot data of index.html', () => {
  function bootFor(s: Setup, components: Array<{ component: string; media?: string }>) {
    return {
      remotes: [
        {
          name: s.marketing,
          entry: `/remotes/${s.marketing}/mf-manifest.json`,
          components: ['MaintenanceNotice', 'Callout', 'LoginNotice', 'LoginSidebarPromo', 'FooterLinks'],
          formComponents: [],
        },
        {
          name: s.records,
          entry: `/remotes/${s.records}/mf-manifest.json`,
          components: ['Timeline'],
          formComponents: [],
        },
      ],
      components,
      problems: [],
      showSlotDetails: true,
    };
  }

  it('lets failed slots show details only when the server says so, whatever this build is', () => {
    const shown = startHost({ ...setup('/login').options, bootData: bootFor(setup('/login'), []) });
    expect(shown.showSlotDetails).toBe(true);
    const s = setup('/login');
    const hidden = startHost({ ...s.options, bootData: { ...bootFor(s, []), showSlotDetails: false } });
    expect(hidden.showSlotDetails).toBe(false);
  });

  it('says which releases the session previews, as the server marked its remotes, and none otherwise', () => {
    const s = setup('/login');
    const boot = bootFor(s, []);
    const previewed = startHost({
      ...s.options,
      bootData: { ...boot, remotes: [{ ...boot.remotes[0]!, previewedVersion: '2.1.0' }, boot.remotes[1]!] },
    });
    expect(previewed.previewedReleases).toEqual([{ remote: s.marketing, version: '2.1.0' }]);
    expect(startHost({ ...setup('/login').options, bootData: bootFor(setup('/login'), []) }).previewedReleases).toEqual(
      [],
    );
  });

  it('registers its remotes at once, asks no GET /api/remotes, and loads the named components right away', async () => {
    const s = setup('/login');
    const media: string[] = [];
    const startup = startHost({
      ...s.options,
      bootData: bootFor(s, [
        { component: 'MaintenanceNotice' },
        { component: 'LoginNotice' },
        { component: 'LoginSidebarPromo', media: '(min-width: 1024px)' },
      ]),
      matchesMedia: (query) => {
        media.push(query);
        return false;
      },
    });

    expect(startup.modules.remoteOf('Timeline')).toBe(s.records);
    expect(startup.remotesReady).toBeNull();
    expect(requested(s.fake)).toEqual(['GET /me', 'GET /slots']);
    const loaded: string[] = [];
    startup.modules.onLoad((done) => loaded.push(done.component));
    // What the shell waits for before its first render: settled only once the page's modules are loaded.
    await startup.pageModulesLoaded();
    expect(loaded.sort()).toEqual(['LoginNotice', 'MaintenanceNotice']);
    await new Promise((resolve) => setTimeout(resolve, 20));

    expect(loaded.sort()).toEqual(['LoginNotice', 'MaintenanceNotice']);
    expect(media).toEqual(['(min-width: 1024px)']);
    expect(s.containers.get(s.records)?.get).not.toHaveBeenCalled();
    expect(s.manifests).toEqual([`http://localhost/remotes/${s.marketing}/mf-manifest.json`]);
    // GET /slots is still the renderer's: the boot data only says what to load early.
    expect(requested(s.fake)).toEqual(['GET /me', 'GET /slots']);
  });

  it('loads what only shows under a media query when it matches, on any page', async () => {
    const s = setup('/');
    const startup = startHost({
      ...s.options,
      bootData: bootFor(s, [{ component: 'LoginSidebarPromo', media: '(min-width: 1024px)' }]),
      matchesMedia: () => true,
    });
    const loaded: string[] = [];
    startup.modules.onLoad((done) => loaded.push(done.component));
    await waitFor(() => loaded.length === 1);
    expect(loaded).toEqual(['LoginSidebarPromo']);
    // Nothing for the modules; the signed-out visitor's public slots, once GET /me has answered.
    expect(requested(s.fake).filter((request) => request !== 'GET /slots')).toEqual(['GET /me']);
  });

  it('loads nothing ahead from a remote on another origin: its slots fetch it when they render', async () => {
    const s = setup('/login');
    const boot = bootFor(s, [{ component: 'LoginNotice' }, { component: 'Timeline' }]);
    const [marketing, records] = boot.remotes;
    const startup = startHost({
      ...s.options,
      bootData: {
        ...boot,
        remotes: [{ ...marketing!, entry: `https://cdn.example.com/${s.marketing}/mf-manifest.json` }, records!],
      },
    });
    const loaded: string[] = [];
    startup.modules.onLoad((done) => loaded.push(done.component));
    await waitFor(() => loaded.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 20));

    expect(loaded).toEqual(['Timeline']);
    expect(s.manifests).toEqual([`http://localhost/remotes/${s.records}/mf-manifest.json`]);
    expect(startup.modules.entryOf('LoginNotice')).toBe(`https://cdn.example.com/${s.marketing}/mf-manifest.json`);
  });

  it('warns once about malformed parts of it', () => {
    const s = setup('/');
    startHost({ ...s.options, bootData: { ...bootFor(s, []), problems: ['remotes[2] is not a remote descriptor'] } });
    expect(consoleWarn().mock.calls).toEqual([
      ['[slots] The boot data of index.html: remotes[2] is not a remote descriptor.'],
    ]);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('The condition did not hold in time.');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
