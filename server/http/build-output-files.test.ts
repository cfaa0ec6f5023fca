import fs from 'node:fs';
import path from 'node:path';
import express, { type Express } from 'express';
import request from 'supertest';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { IMMUTABLE, REVALIDATE, serveBuildOutput, STABLE_FILE_RECHECK_MS } from './build-output-files';

let dir: TempDir;
let clock = 0;

beforeEach(() => {
  dir = makeTempDir('slots-build-output-');
  clock = 1_000_000;
  write('remoteEntry.js', 'var entry = 1;');
  write('main.0123abcdef.js', 'console.log("hashed");');
  write('main.0123abcdef.js.map', '{"version":3}');
  write('nested/mf-manifest.json', '{"name":"team"}');
  write('.secret', 'not for anyone');
});
afterEach(() => dir.remove());

function write(relative: string, content: string): void {
  const file = path.join(dir.path, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

function appServing(sourceMaps = false): Express {
  const app = express();
  app.use('/files', serveBuildOutput(dir.path, { sourceMaps, now: () => clock }));
  app.use((_req, res) => {
    res.status(404).json({ error: 'fell through' });
  });
  return app;
}

describe('serveBuildOutput', () => {
  it('serves files with their type, length, a strong ETag and the cache policy of their name', async () => {
    const app = appServing();
    const stable = await request(app).get('/files/remoteEntry.js').expect(200);
    expect(stable.text).toBe('var entry = 1;');
    expect(stable.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(stable.headers['content-length']).toBe('14');
    expect(stable.headers['cache-control']).toBe(REVALIDATE);
    expect(stable.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);

    const hashed = await request(app).get('/files/main.0123abcdef.js').expect(200);
    expect(hashed.headers['cache-control']).toBe(IMMUTABLE);
    const nested = await request(app).get('/files/nested/mf-manifest.json').expect(200);
    expect(nested.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(nested.body).toEqual({ name: 'team' });
  });

  it('answers 304 to a matching If-None-Match, and HEAD with headers only', async () => {
    const app = appServing();
    const first = await request(app).get('/files/remoteEntry.js').expect(200);
    await request(app)
      .get('/files/remoteEntry.js')
      .set('If-None-Match', first.headers.etag as string)
      .expect(304);
    const head = await request(app).head('/files/remoteEntry.js').expect(200);
    expect(head.headers['content-length']).toBe('14');
    expect(head.text).toBeUndefined();
  });

  it('lets directories, dotfiles, traversal, unknown files, other methods and hidden maps fall through', async () => {
    const app = appServing(false);
    for (const target of [
      '/files/',
      '/files/nested',
      '/files/.secret',
      '/files/nested/..%2f.secret',
      '/files/..%2f..%2fetc%2fpasswd',
      '/files/%2e%2e/x',
      '/files/missing.js',
      '/files/main.0123abcdef.js.map',
      '/files/bad%zz',
    ]) {
      const response = await request(app).get(target);
      expect({ target, status: response.status, body: response.body }).toEqual({
        target,
        status: 404,
        body: { error: 'fell through' },
      });
    }
    await request(app).post('/files/remoteEntry.js').expect(404);
    await request(appServing(true)).get('/files/main.0123abcdef.js.map').expect(200);
  });

  it('serves a rebuilt stable file within a second, without a restart, and forgets a removed one', async () => {
    const app = appServing();
    expect((await request(app).get('/files/remoteEntry.js')).text).toBe('var entry = 1;');
    write('remoteEntry.js', 'var entry = 2; // rebuilt');
    // Still the copy in memory until the next look at the disk...
    expect((await request(app).get('/files/remoteEntry.js')).text).toBe('var entry = 1;');
    clock += STABLE_FILE_RECHECK_MS;
    // ...then the new content, with a new ETag.
    const rebuilt = await request(app).get('/files/remoteEntry.js').expect(200);
    expect(rebuilt.text).toBe('var entry = 2; // rebuilt');
    fs.rmSync(path.join(dir.path, 'remoteEntry.js'));
    clock += STABLE_FILE_RECHECK_MS;
    await request(app).get('/files/remoteEntry.js').expect(404);
  });

  it('reads a file from disk once: later requests are answered from memory', async () => {
    const app = appServing();
    await request(app).get('/files/main.0123abcdef.js').expect(200);
    const reads = jest.spyOn(fs, 'readFileSync');
    const stats = jest.spyOn(fs, 'statSync');
    try {
      for (let index = 0; index < 5; index++) await request(app).get('/files/main.0123abcdef.js').expect(200);
      expect(reads).not.toHaveBeenCalled();
      expect(stats).not.toHaveBeenCalled();
    } finally {
      reads.mockRestore();
      stats.mockRestore();
    }
  });
});
