import fs from 'node:fs';
import http, { type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import express, { type Express } from 'express';
import request from 'supertest';
import { waitUntil } from '../../testing/server/wait-until';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import {
  IMMUTABLE,
  isHashedBuildFile,
  REVALIDATE,
  serveBuildOutput,
  STABLE_FILE_RECHECK_MS,
} from './build-output-files';
import { writePrecompressedCopies } from './precompressed-copies';

let dir: TempDir;
let clock = 0;

beforeEach(() => {
  dir = makeTempDir('slots-build-output-');
  clock = 1_000_000;
  write('remoteEntry.js', 'var entry = 1;');
  write('main.0123abcdef.js', 'console.log("hashed");');
  write('main.0123abcdef.js.map', '{"version":3}');
  write('nested/mf-manifest.json', '{"name":"team"}');
  write('nested/mf-stats.json', '{"exposes":[{"path":"./src/Secret.tsx"}]}');
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
  // What the remotes' CORS answer sets before the files are served: the files' own Vary must add to it.
  app.use((_req, res, next) => {
    res.vary('Origin');
    next();
  });
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

  it('keeps the files that reveal the source (maps, mf-stats.json) back unless sourceMaps, however they are spelt', async () => {
    const hidden = appServing(false);
    for (const target of [
      '/files/nested/mf-stats.json',
      '/files/nested/MF-STATS.JSON',
      '/files/nested%2fmf-stats.json',
      '/files/main.0123abcdef.js.map',
      '/files/main.0123abcdef.js.MAP',
    ]) {
      const response = await request(hidden).get(target);
      expect({ target, status: response.status }).toEqual({ target, status: 404 });
      expect(response.text).not.toContain('Secret.tsx');
    }
    // The rest of the folder is served as before.
    await request(hidden).get('/files/nested/mf-manifest.json').expect(200);
    const shown = appServing(true);
    expect((await request(shown).get('/files/nested/mf-stats.json').expect(200)).text).toContain('Secret.tsx');
    await request(shown).get('/files/main.0123abcdef.js.map').expect(200);
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

/** A script large enough to be compressed, and the raw bytes of answers (supertest would decode them). */
const SCRIPT = 'export function greet(name) { return "Hello, " + name + "!"; }\n'.repeat(100);

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

async function rawRequests(
  app: Express,
  run: (get: (target: string, headers?: OutgoingHttpHeaders, method?: string) => Promise<RawAnswer>) => Promise<void>,
): Promise<void> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  const get = (target: string, headers: OutgoingHttpHeaders = {}, method = 'GET') =>
    new Promise<RawAnswer>((resolve, reject) => {
      http
        .request({ host: '127.0.0.1', port, path: target, method, headers, agent: false }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
          );
        })
        .on('error', reject)
        .end();
    });
  try {
    await run(get);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

const BROWSER = { 'accept-encoding': 'gzip, deflate, br, zstd' };

describe('serveBuildOutput, compressed', () => {
  beforeEach(() => write('app.0123abcdef.js', SCRIPT));

  it('sends a text file as it is until its copies are made, then brotli to a browser, with its own ETag', async () => {
    await rawRequests(appServing(), async (get) => {
      const first = await get('/files/app.0123abcdef.js', BROWSER);
      expect(first.headers['content-encoding']).toBeUndefined();
      expect(first.body.toString()).toBe(SCRIPT);
      expect(first.headers.vary).toBe('Origin, Accept-Encoding');
      await waitUntil(
        async () => (await get('/files/app.0123abcdef.js', BROWSER)).headers['content-encoding'] === 'br',
      );

      const brotli = await get('/files/app.0123abcdef.js', BROWSER);
      expect(brotli.status).toBe(200);
      expect(zlib.brotliDecompressSync(brotli.body).toString()).toBe(SCRIPT);
      expect(brotli.headers['content-length']).toBe(String(brotli.body.length));
      expect(brotli.body.length).toBeLessThan(SCRIPT.length / 10);
      expect(brotli.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(brotli.headers['cache-control']).toBe(IMMUTABLE);
      expect(brotli.headers.vary).toBe('Origin, Accept-Encoding');
      expect(brotli.headers.etag).not.toBe(first.headers.etag);
      expect(brotli.headers.etag).toMatch(/^"[A-Za-z0-9_-]+-br"$/);

      // Each representation revalidates against its own ETag.
      const unchanged = await get('/files/app.0123abcdef.js', { ...BROWSER, 'if-none-match': brotli.headers.etag });
      expect(unchanged.status).toBe(304);
      expect(unchanged.headers.etag).toBe(brotli.headers.etag);
      expect(unchanged.headers.vary).toBe('Origin, Accept-Encoding');
      const plainEtag = await get('/files/app.0123abcdef.js', { ...BROWSER, 'if-none-match': first.headers.etag });
      expect(plainEtag.status).toBe(200);
      expect(plainEtag.headers['content-encoding']).toBe('br');

      const head = await get('/files/app.0123abcdef.js', BROWSER, 'HEAD');
      expect(head.headers['content-encoding']).toBe('br');
      expect(head.headers['content-length']).toBe(String(brotli.body.length));
      expect(head.body.length).toBe(0);
    });
  });

  it('sends gzip to a client that takes only gzip, and the file as it is to one that takes neither', async () => {
    await rawRequests(appServing(), async (get) => {
      await get('/files/app.0123abcdef.js', BROWSER);
      await waitUntil(
        async () => (await get('/files/app.0123abcdef.js', BROWSER)).headers['content-encoding'] === 'br',
      );

      const gzip = await get('/files/app.0123abcdef.js', { 'accept-encoding': 'gzip' });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(zlib.gunzipSync(gzip.body).toString()).toBe(SCRIPT);
      expect(gzip.headers.etag).toMatch(/-gzip"$/);

      for (const headers of [{}, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'br;q=0, gzip;q=0' }]) {
        const plain = await get('/files/app.0123abcdef.js', headers);
        expect({ headers, encoding: plain.headers['content-encoding'], body: plain.body.toString() }).toEqual({
          headers,
          encoding: undefined,
          body: SCRIPT,
        });
        expect(plain.headers.vary).toBe('Origin, Accept-Encoding');
      }
    });
  });

  it('sends the copies the build wrote beside a hashed file from its first request, and never those files alone', async () => {
    // What `npm run build` leaves: the copies beside the hashed file, none beside a stable-named one.
    write('remoteEntry.js', SCRIPT);
    expect(await writePrecompressedCopies(dir.path, isHashedBuildFile)).toBe(1);
    expect(fs.existsSync(path.join(dir.path, 'app.0123abcdef.js.br'))).toBe(true);
    expect(fs.existsSync(path.join(dir.path, 'app.0123abcdef.js.gz'))).toBe(true);
    expect(fs.existsSync(path.join(dir.path, 'remoteEntry.js.br'))).toBe(false);
    await rawRequests(appServing(), async (get) => {
      const first = await get('/files/app.0123abcdef.js', BROWSER);
      expect(first.headers['content-encoding']).toBe('br');
      expect(zlib.brotliDecompressSync(first.body).toString()).toBe(SCRIPT);
      const gzipped = await get('/files/app.0123abcdef.js', { 'accept-encoding': 'gzip' });
      expect(gzipped.headers['content-encoding']).toBe('gzip');
      expect(zlib.gunzipSync(gzipped.body).toString()).toBe(SCRIPT);
      expect((await get('/files/app.0123abcdef.js')).body.toString()).toBe(SCRIPT);
      // A stable-named file may change in place: the server compresses it, after its first request.
      expect((await get('/files/remoteEntry.js', BROWSER)).headers['content-encoding']).toBeUndefined();
      // The copies are answers to their file's path, not files of their own.
      expect((await get('/files/app.0123abcdef.js.br', BROWSER)).status).toBe(404);
      expect((await get('/files/app.0123abcdef.js.gz')).status).toBe(404);
    });
  });

  it('leaves small files alone, and never serves the copies of a file that was rebuilt since', async () => {
    write('remoteEntry.js', SCRIPT);
    await rawRequests(appServing(), async (get) => {
      const small = await get('/files/main.0123abcdef.js', BROWSER);
      expect(small.headers['content-encoding']).toBeUndefined();
      expect(small.headers.vary).toBe('Origin');

      await get('/files/remoteEntry.js', BROWSER);
      await waitUntil(async () => (await get('/files/remoteEntry.js', BROWSER)).headers['content-encoding'] === 'br');
      const rebuilt = `${SCRIPT}// rebuilt\n`;
      write('remoteEntry.js', rebuilt);
      clock += STABLE_FILE_RECHECK_MS;
      const fresh = await get('/files/remoteEntry.js', BROWSER);
      expect(fresh.headers['content-encoding']).toBeUndefined();
      expect(fresh.body.toString()).toBe(rebuilt);
      await waitUntil(async () => (await get('/files/remoteEntry.js', BROWSER)).headers['content-encoding'] === 'br');
      expect(zlib.brotliDecompressSync((await get('/files/remoteEntry.js', BROWSER)).body).toString()).toBe(rebuilt);
    });
  });
});
