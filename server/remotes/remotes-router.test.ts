import express, { type Express } from 'express';
import request from 'supertest';
import { createHostPageRouter } from '../host-page/host-page-router';
import { createFixtureDist, exposeChunk, type FixtureDist } from '../../testing/server/fixture-dist';
import pino from 'pino';
import { createRemotesRouter, HttpDescriptorSource, loadRemotesConfig, RemoteRegistry } from './index';
import { RemotesConfigError } from '../config/remotes-config-error';

const RECORDS = {
  name: 'team_records',
  components: ['CopyLinkAction', 'SlugPreview'],
  formComponents: ['SlugPreview'],
};

let dist: FixtureDist;
beforeEach(() => {
  dist = createFixtureDist();
  dist.addRemote(RECORDS);
});
afterEach(() => dist.remove());

/**
 * The two routers mounted as the app mounts them, then a JSON 404 like the app's; `sourceMaps` as in development
 * unless told (production serves no file that reveals the source).
 */
function appWith(env: NodeJS.ProcessEnv = {}, sourceMaps = true, publicOrigin?: string): Express {
  const app = express();
  const registry = new RemoteRegistry(loadRemotesConfig({ env, distDir: dist.dir }), {
    logger: pino({ level: 'silent' }),
    source: new HttpDescriptorSource(),
  });
  app.use(createRemotesRouter({ distDir: dist.dir, registry, sourceMaps, ...(publicOrigin ? { publicOrigin } : {}) }));
  app.use(createHostPageRouter({ distDir: dist.dir, sourceMaps }));
  app.use((_req, res) => {
    res.status(404).json({ error: { code: 'not_found', message: 'Not found.' } });
  });
  return app;
}

describe('GET /api/remotes', () => {
  it('lists the built remotes with their manifest entry, components and form components', async () => {
    const response = await request(appWith()).get('/api/remotes').expect(200);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toEqual({
      remotes: [{ ...RECORDS, entry: '/remotes/team_records/mf-manifest.json' }],
      showSlotDetails: false,
    });
  });

  it('follows REMOTES_CONFIG, e.g. a remote served from another origin, without any rebuild', async () => {
    const config = dist.write(
      'remotes.json',
      JSON.stringify({
        remotes: [{ name: 'team_records', entry: 'http://127.0.0.1:4999/team_records/mf-manifest.json' }],
      }),
    );
    const response = await request(appWith({ REMOTES_CONFIG: config }))
      .get('/api/remotes')
      .expect(200);
    expect(response.body.remotes[0].entry).toBe('http://127.0.0.1:4999/team_records/mf-manifest.json');
    expect(response.body.remotes[0].components).toEqual(RECORDS.components);
  });

  it('refuses to start on a bad configuration (fail fast, not at request time)', () => {
    const config = dist.write('remotes.json', JSON.stringify({ remotes: [{ name: 'team_new', entry: '/x.json' }] }));
    expect(() => appWith({ REMOTES_CONFIG: config })).toThrow(RemotesConfigError);
  });
});

describe('/remotes/<name>/ files', () => {
  it('serves the manifest and an unhashed (development) entry with no-cache, hashed chunks with a year of cache', async () => {
    const app = appWith();
    const manifest = await request(app).get('/remotes/team_records/mf-manifest.json').expect(200);
    expect(manifest.headers['cache-control']).toBe('no-cache');
    expect(manifest.headers['content-type']).toMatch(/application\/json/);
    expect(manifest.body.name).toBe('team_records');

    const entry = await request(app).get('/remotes/team_records/remoteEntry.js').expect(200);
    expect(entry.headers['cache-control']).toBe('no-cache');
    expect(entry.headers['content-type']).toMatch(/javascript/);

    const chunk = await request(app)
      .get('/remotes/team_records/__federation_expose_CopyLinkAction.0123abcd45.js')
      .expect(200);
    expect(chunk.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(chunk.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });

  it("serves a production build's hashed entry, named by its manifest, with a year of immutable cache", async () => {
    dist.addRemote(RECORDS, { entryFile: 'remoteEntry.4f0c2a9e17.js' });
    const app = appWith();
    const manifest = await request(app).get('/remotes/team_records/mf-manifest.json').expect(200);
    expect(manifest.headers['cache-control']).toBe('no-cache');
    expect(manifest.body.metaData.remoteEntry.name).toBe('remoteEntry.4f0c2a9e17.js');

    const entry = await request(app).get('/remotes/team_records/remoteEntry.4f0c2a9e17.js').expect(200);
    expect(entry.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(entry.headers['content-type']).toMatch(/javascript/);
    expect(entry.text).toBe('var team_records = {};');
  });

  it('in production, answers 404 for the build-only files that reveal the source; what pages load is served', async () => {
    dist.write('remotes/team_records/mf-stats.json', '{"exposes":[{"path":"remotes/records/components/Secret.tsx"}]}');
    dist.write('remotes/team_records/remoteEntry.js.map', '{"version":3,"sources":["Secret.tsx"]}');
    const production = appWith({}, false);
    for (const file of ['mf-stats.json', 'remoteEntry.js.map']) {
      const response = await request(production).get(`/remotes/team_records/${file}`).expect(404);
      expect(response.body.error.code).toBe('not_found');
      expect(response.text).not.toContain('Secret.tsx');
    }
    for (const file of ['mf-manifest.json', 'remoteEntry.js', exposeChunk('CopyLinkAction'), 'slots-remote.json']) {
      await request(production).get(`/remotes/team_records/${file}`).expect(200);
    }
    // Development serves them, as it serves the maps.
    await request(appWith()).get('/remotes/team_records/mf-stats.json').expect(200);
    await request(appWith()).get('/remotes/team_records/remoteEntry.js.map').expect(200);
  });

  it('lets a missing file fall through to the JSON 404, and never answers with index.html', async () => {
    dist.addHost();
    const response = await request(appWith()).get('/remotes/team_records/nope.js').expect(404);
    expect(response.body.error.code).toBe('not_found');
    await request(appWith()).get('/remotes/../host/index.html').expect(404);
  });

  it('allows only the configured host origins to read the files cross-origin', async () => {
    const config = dist.write('remotes.json', JSON.stringify({ allowedOrigins: ['http://admin.example.test'] }));
    const app = appWith({ REMOTES_CONFIG: config });
    const allowed = await request(app)
      .get('/remotes/team_records/mf-manifest.json')
      .set('Origin', 'http://admin.example.test')
      .expect(200);
    expect(allowed.headers['access-control-allow-origin']).toBe('http://admin.example.test');
    expect(allowed.headers.vary).toMatch(/Origin/);
    expect(allowed.headers['access-control-allow-credentials']).toBeUndefined();

    const other = await request(app)
      .get('/remotes/team_records/mf-manifest.json')
      .set('Origin', 'http://evil.example.test');
    expect(other.status).toBe(200);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();

    const preflight = await request(app)
      .options('/remotes/team_records/mf-manifest.json')
      .set('Origin', 'http://admin.example.test')
      .set('Access-Control-Request-Method', 'GET')
      .expect(204);
    expect(preflight.headers['access-control-allow-methods']).toBe('GET, HEAD');
  });

  it("answers the product's own pages (PUBLIC_URL) too, whatever REMOTES_CONFIG allows", async () => {
    const origins = async (app: Express) => {
      const answered: Array<string | undefined> = [];
      for (const origin of ['https://admin.example.com', 'http://admin.example.test', 'http://evil.example.test']) {
        const response = await request(app).get('/remotes/team_records/mf-manifest.json').set('Origin', origin);
        answered.push(response.headers['access-control-allow-origin']);
      }
      return answered;
    };
    expect(await origins(appWith({}, true, 'https://admin.example.com'))).toEqual([
      'https://admin.example.com',
      undefined,
      undefined,
    ]);
    const config = dist.write('remotes.json', JSON.stringify({ allowedOrigins: ['http://admin.example.test'] }));
    expect(await origins(appWith({ REMOTES_CONFIG: config }, true, 'https://admin.example.com'))).toEqual([
      'https://admin.example.com',
      'http://admin.example.test',
      undefined,
    ]);
    // Without it, only what REMOTES_CONFIG allows.
    expect(await origins(appWith({ REMOTES_CONFIG: config }))).toEqual([
      undefined,
      'http://admin.example.test',
      undefined,
    ]);
  });

  it('answers any origin with "*" when allowedOrigins is "*"', async () => {
    const config = dist.write('remotes.json', JSON.stringify({ allowedOrigins: '*' }));
    const response = await request(appWith({ REMOTES_CONFIG: config }))
      .get('/remotes/team_records/remoteEntry.js')
      .set('Origin', 'http://anywhere.example.test')
      .expect(200);
    expect(response.headers['access-control-allow-origin']).toBe('*');
  });
});
