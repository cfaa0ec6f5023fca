import fs from 'node:fs';
import path from 'node:path';
import express, { type Express } from 'express';
import request from 'supertest';
import type { RemoteDescriptor, SlotMap } from '../../shared';
import { createFixtureDist, exposeChunk, type FixtureDist } from '../../testing/server/fixture-dist';
import { createHostPageRouter, HOST_NOT_BUILT_MESSAGE } from './host-page-router';

let dist: FixtureDist;
beforeEach(() => {
  dist = createFixtureDist();
});
afterEach(() => dist.remove());

function appWith(): Express {
  const app = express();
  app.get('/slots', (_req, res) => {
    res.json({ slots: {} });
  });
  app.use(createHostPageRouter({ distDir: dist.dir, sourceMaps: true }));
  app.use((_req, res) => {
    res.status(404).json({ error: { code: 'not_found', message: 'Not found.' } });
  });
  return app;
}

describe('the host shell', () => {
  it.each([
    '/',
    '/login',
    '/status',
    '/resources/articles',
    '/resources/articles/1',
    '/resources/articles/1/edit',
    '/resources/articles/deleted',
  ])('answers the client route %s with index.html, no-cache', async (route) => {
    dist.addHost();
    const response = await request(appWith()).get(route).expect(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.text).toContain('<div id="root">');
  });

  it('serves hashed assets with a year of cache', async () => {
    dist.addHost();
    const response = await request(appWith()).get('/assets/main.89abcdef01.js').expect(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['content-type']).toMatch(/javascript/);
  });

  it.each([
    '/api/nothing',
    '/meta',
    '/remotes/team_x/remoteEntry.js',
    '/assets/missing.js',
    '/favicon.ico',
    '/unknown',
  ])('never answers %s with index.html (JSON 404 instead)', async (route) => {
    dist.addHost();
    const response = await request(appWith()).get(route).expect(404);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(response.body.error.code).toBe('not_found');
  });

  it.each(['/settings', '/unknown/deeper', '/assets/missing.js'])(
    'answers a browser navigation to the unknown %s with the app (404), whose page says it is not found',
    async (route) => {
      dist.addHost();
      const response = await request(appWith())
        .get(route)
        .set('Accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8')
        .expect(404);
      expect(response.headers['content-type']).toMatch(/text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.text).toContain('<div id="root">');
    },
  );

  it.each([
    ['an API client asking for JSON', '/settings', 'application/json'],
    ['fetch() with its default Accept', '/settings', '*/*'],
    ['a browser opening an unknown API path', '/api/nothing', 'text/html,*/*;q=0.8'],
    ['a browser opening an unknown remote file', '/remotes/team_x/nothing.js', 'text/html,*/*;q=0.8'],
  ])('keeps the JSON 404 for %s', async (_who, route, accept) => {
    dist.addHost();
    const response = await request(appWith()).get(route).set('Accept', accept).expect(404);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(response.body.error.code).toBe('not_found');
  });

  it('leaves the API routes mounted before it alone', async () => {
    dist.addHost();
    const response = await request(appWith()).get('/slots').expect(200);
    expect(response.body).toEqual({ slots: {} });
  });

  it('answers the client routes with a 503 JSON saying how to build when the host is not built', async () => {
    const app = appWith();
    const response = await request(app).get('/login').expect(503);
    expect(response.body).toEqual({ error: { code: 'unavailable', message: HOST_NOT_BUILT_MESSAGE } });
    expect(HOST_NOT_BUILT_MESSAGE).toMatch(/npm run build/);
    // Built later: the same server serves it without a restart.
    dist.addHost();
    await request(app).get('/login').expect(200);
  });
});

describe('what index.html carries for the remotes of its public slots', () => {
  const MARKETING = {
    name: 'team_marketing',
    components: ['LoginNotice', 'FooterLinks', 'LoginSidebarPromo'],
    formComponents: [],
  };
  const RECORDS = { name: 'team_records', components: ['TenantSwitcher'], formComponents: [] };
  const PUBLIC_SLOTS: { slots: SlotMap } = {
    slots: {
      'login-before-form': [{ component: 'LoginNotice', props: {} }],
      'login-sidebar': [{ component: 'LoginSidebarPromo', props: {} }],
      'global-after-content': [{ component: 'FooterLinks', props: {} }],
    },
  };

  function remotes(): RemoteDescriptor[] {
    return [MARKETING, RECORDS].map((remote) => ({ ...remote, entry: `/remotes/${remote.name}/mf-manifest.json` }));
  }

  /** What the boot data registers: the remotes built here by their entry script, not their manifest. */
  function registeredByEntry(): RemoteDescriptor[] {
    return remotes().map((remote) => ({ ...remote, entry: `/remotes/${remote.name}/remoteEntry.js` }));
  }

  function wiredApp(options: { remotes?: RemoteDescriptor[]; slots?: () => SlotMap } = {}): Express {
    const app = express();
    app.use(
      createHostPageRouter({
        distDir: dist.dir,
        sourceMaps: true,
        remotes: () => options.remotes ?? remotes(),
        publicSlots: () => {
          const publicSlots = (options.slots ?? (() => PUBLIC_SLOTS.slots))();
          return { publicSlots, publicBody: Buffer.from(JSON.stringify({ slots: publicSlots })) };
        },
      }),
    );
    return app;
  }

  function bootDataOf(html: string): unknown {
    const match = /<script type="application\/json" id="slots-boot-data">(.*?)<\/script>/.exec(html);
    return match ? JSON.parse(match[1] ?? '') : null;
  }

  function preloads(html: string): string[] {
    return [...html.matchAll(/<link rel="preload" href="([^"]+)"/g)].map((match) => match[1] ?? '');
  }

  beforeEach(() => {
    dist.addRemote(MARKETING);
    dist.addRemote(RECORDS);
    dist.addHost({ remoteHints: true });
  });

  it('on /login: preloads for the sign-in page remote files, then the boot data, where the host build put the marker', async () => {
    const html = (await request(wiredApp()).get('/login').expect(200)).text;
    // No manifest: the boot data registers the remote by its entry script, so the runtime never fetches it.
    expect(preloads(html)).toEqual([
      '/remotes/team_marketing/remoteEntry.js',
      `/remotes/team_marketing/${exposeChunk('FooterLinks')}`,
      `/remotes/team_marketing/${exposeChunk('LoginNotice')}`,
      `/remotes/team_marketing/${exposeChunk('LoginSidebarPromo')}`,
    ]);
    expect(html).toContain(
      `<link rel="preload" href="/remotes/team_marketing/${exposeChunk('LoginSidebarPromo')}" as="script" media="(min-width: 1024px)">`,
    );
    expect(html).not.toContain('slots-remote-hints');
    expect(html.indexOf('main.89abcdef01.js')).toBeLessThan(html.indexOf('/remotes/team_marketing/remoteEntry.js'));
    expect(html.indexOf('slots-boot-data')).toBeLessThan(html.indexOf('</head>'));
    expect(bootDataOf(html)).toEqual({
      remotes: registeredByEntry(),
      components: [
        { component: 'FooterLinks' },
        { component: 'LoginNotice' },
        { component: 'LoginSidebarPromo', media: '(min-width: 1024px)' },
      ],
      showSlotDetails: false,
    });
  });

  it('elsewhere: only what the layout renders on every page; never anything of team_records', async () => {
    const html = (await request(wiredApp()).get('/resources/articles/1').expect(200)).text;
    expect(preloads(html)).toEqual([
      '/remotes/team_marketing/remoteEntry.js',
      `/remotes/team_marketing/${exposeChunk('FooterLinks')}`,
    ]);
    expect((bootDataOf(html) as { components: unknown }).components).toEqual([{ component: 'FooterLinks' }]);
    // The boot data lists team_records (as GET /api/remotes does); nothing of it is preloaded.
    expect(html).not.toMatch(/<link[^>]+team_records/);
  });

  it('preconnects to a remote served elsewhere instead of preloading its files', async () => {
    const moved = remotes().map((remote) =>
      remote.name === 'team_marketing'
        ? { ...remote, entry: 'https://cdn.example.com/marketing/mf-manifest.json' }
        : remote,
    );
    const html = (
      await request(wiredApp({ remotes: moved }))
        .get('/login')
        .expect(200)
    ).text;
    expect(preloads(html)).toEqual([]);
    expect(html).toContain('<link rel="preconnect" href="https://cdn.example.com" crossorigin>');
    // Registered by its manifest (its entry's name is not known here); the one built here by its entry.
    expect((bootDataOf(html) as { remotes: unknown }).remotes).toEqual([
      moved[0],
      { ...RECORDS, entry: '/remotes/team_records/remoteEntry.js' },
    ]);
  });

  it('keeps the manifest of a built remote whose container the runtime could not find from its entry alone', async () => {
    // A container of another type, or under another global: the runtime needs the manifest to load it.
    const manifest = JSON.parse(
      fs.readFileSync(path.join(dist.dir, 'remotes/team_marketing/mf-manifest.json'), 'utf8'),
    ) as {
      metaData: { globalName: string };
    };
    manifest.metaData.globalName = 'marketing_container';
    dist.write('remotes/team_marketing/mf-manifest.json', JSON.stringify(manifest));
    const html = (await request(wiredApp()).get('/login').expect(200)).text;
    expect(preloads(html).slice(0, 2)).toEqual([
      '/remotes/team_marketing/mf-manifest.json',
      '/remotes/team_marketing/remoteEntry.js',
    ]);
    expect((bootDataOf(html) as { remotes: RemoteDescriptor[] }).remotes[0]?.entry).toBe(
      '/remotes/team_marketing/mf-manifest.json',
    );
  });

  it("preloads a production build's hashed entry as its manifest names it, and follows a rebuild that renames it", async () => {
    dist.addRemote(MARKETING, { entryFile: 'remoteEntry.0a1b2c3d4e.js' });
    const app = wiredApp();
    const first = (await request(app).get('/login').expect(200)).text;
    expect(preloads(first)[0]).toBe('/remotes/team_marketing/remoteEntry.0a1b2c3d4e.js');
    expect((bootDataOf(first) as { remotes: RemoteDescriptor[] }).remotes[0]?.entry).toBe(
      '/remotes/team_marketing/remoteEntry.0a1b2c3d4e.js',
    );

    // A rebuild writes a new manifest (another size, so the cache sees it) naming the new entry.
    dist.addRemote(MARKETING, { entryFile: 'remoteEntry.5f6e7d8c9b0a.js' });
    const rebuilt = (await request(app).get('/login').expect(200)).text;
    expect(preloads(rebuilt)[0]).toBe('/remotes/team_marketing/remoteEntry.5f6e7d8c9b0a.js');
    expect(preloads(rebuilt)).not.toContain('/remotes/team_marketing/remoteEntry.0a1b2c3d4e.js');
    expect((bootDataOf(rebuilt) as { remotes: RemoteDescriptor[] }).remotes[0]?.entry).toBe(
      '/remotes/team_marketing/remoteEntry.5f6e7d8c9b0a.js',
    );
  });

  it('follows changes of the public slots', async () => {
    let slots: SlotMap = PUBLIC_SLOTS.slots;
    const app = wiredApp({ slots: () => slots });
    expect(preloads((await request(app).get('/').expect(200)).text)).toHaveLength(2);
    slots = {};
    const html = (await request(app).get('/').expect(200)).text;
    expect(preloads(html)).toEqual([]);
    expect(bootDataOf(html)).toEqual({ remotes: registeredByEntry(), components: [], showSlotDetails: false });
  });

  it('adds nothing to a host build without the marker (a host that loads no remotes)', async () => {
    dist.addHost();
    const html = (await request(wiredApp()).get('/login').expect(200)).text;
    expect(html).not.toContain('<link rel="preload"');
    expect(html).not.toContain('slots-boot-data');
  });

  it('without the remotes and the public slots: the page as built, minus the marker', async () => {
    const html = (await request(appWith()).get('/login').expect(200)).text;
    expect(html).not.toContain('slots-remote-hints');
    expect(html).not.toContain('<link rel="preload"');
    expect(html).not.toContain('slots-boot-data');
    expect(html).toContain('<div id="root">');
  });

  it('serves a rebuilt index.html without a restart', async () => {
    const app = wiredApp();
    await request(app).get('/login').expect(200);
    dist.write(
      'host/index.html',
      '<!doctype html><html><head><meta name=slots-remote-hints></head><body>v2</body></html>',
    );
    const html = (await request(app).get('/login').expect(200)).text;
    expect(html).toContain('v2');
    expect(html).toContain('slots-boot-data');
  });
});
