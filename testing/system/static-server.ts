import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { CORS_HEADERS, startHttpFixtureServer, type HttpFixtureServer } from './http-fixture-server';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/**
 * Serves the files under `root` at `/` with CORS headers: a second origin for a built remote, the way a team
 * would deploy its remote on its own static host.
 */
export function startStaticServer(root: string): Promise<HttpFixtureServer> {
  const base = path.resolve(root);
  return startHttpFixtureServer((request, response) => {
    void (async () => {
      const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://fixture').pathname);
      const file = path.resolve(base, `.${pathname}`);
      const inside = file.startsWith(base + path.sep);
      const info = inside ? await stat(file).catch(() => null) : null;
      if (!info || !info.isFile()) {
        response.writeHead(404, { ...CORS_HEADERS, 'Content-Type': 'text/plain' }).end('not found');
        return;
      }
      response.writeHead(200, {
        ...CORS_HEADERS,
        'Content-Type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
        'Content-Length': String(info.size),
      });
      createReadStream(file).pipe(response);
    })();
  });
}
