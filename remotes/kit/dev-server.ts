import { createReadStream, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';

/** Where a remote served by `slots-remote dev` announces its rebuilds (server-sent events). */
export const DEV_EVENTS_PATH = '/__slots_dev/events';

/** Where the host emulator's files are served (its page itself is `/`); the public path of its build. */
export const EMULATOR_PATH = '/__slots_dev/emulator/';

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
};

export interface DevServer {
  /** The origin it listens on, e.g. `http://127.0.0.1:4100`. */
  origin: string;
  /** Tells every connected page that a new build is on disk. */
  announceBuild(hash: string): void;
  close(): Promise<void>;
}

export interface DevServerOptions {
  /** The remote's development build. */
  dir: string;
  port: number;
  host: string;
  /** The host emulator's build (the `emulator/` folder of the kit's package); absent in the kit's sources. */
  emulatorDir?: string | undefined;
}

/** What `GET /` answers where the kit runs from its sources (this repository), which hold no emulator build. */
const NO_EMULATOR =
  'The host emulator is built into the packed kit (npm run kit:pack); this kit runs from its sources.\n';

/**
 * Serves a remote's development build to a host on another origin: every file with `Access-Control-Allow-Origin: *`
 * (the host fetches the manifest with `fetch`) and `no-cache`, and a server-sent event stream at
 * {@link DEV_EVENTS_PATH} that says "rebuilt" after each build, which a development host turns into a reload.
 * Beside them, the host emulator: its page at `/`, its files under {@link EMULATOR_PATH}.
 * Development only: a production remote is deployed to a static origin with CORS set for the host's origin.
 */
export function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const buildRoot = path.resolve(options.dir);
  const emulatorRoot = options.emulatorDir === undefined ? undefined : path.resolve(options.emulatorDir);
  const listeners = new Set<http.ServerResponse>();

  const server = http.createServer((req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Cache-Control', 'no-cache');
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://dev').pathname);
    if (pathname === DEV_EVENTS_PATH) {
      res.writeHead(200, { 'Content-Type': 'text/event-stream', Connection: 'keep-alive' });
      res.write(': connected\n\n');
      listeners.add(res);
      req.on('close', () => listeners.delete(res));
      return;
    }
    if (pathname === '/' && emulatorRoot === undefined) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end(NO_EMULATOR);
      return;
    }
    const [root, relative] =
      pathname === '/'
        ? [emulatorRoot!, 'index.html']
        : emulatorRoot !== undefined && pathname.startsWith(EMULATOR_PATH)
          ? [emulatorRoot, pathname.slice(EMULATOR_PATH.length)]
          : [buildRoot, pathname];
    const file = path.join(root, relative);
    const inside = file.startsWith(`${root}${path.sep}`);
    const size = inside ? fileSize(file) : undefined;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
    } else if (size === undefined) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`Not found: ${pathname}\n`);
    } else {
      res.writeHead(200, {
        'Content-Type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
        'Content-Length': size,
      });
      if (req.method === 'HEAD') res.end();
      else createReadStream(file).pipe(res);
    }
  });

  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(listenRefusal(error, options)));
    server.listen(options.port, options.host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : options.port;
      resolve({
        origin: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`,
        announceBuild(hash) {
          for (const listener of listeners) listener.write(`event: build\ndata: ${JSON.stringify({ hash })}\n\n`);
        },
        close() {
          for (const listener of listeners) listener.end();
          return new Promise((done) => server.close(() => done()));
        },
      });
    });
  });
}

/**
 * Node's `listen EADDRINUSE: address already in use 127.0.0.1:4100` names neither the likely cause nor the option
 * that avoids it: a port taken is said in words with the `--port` to give, anything else as Node said it.
 */
function listenRefusal(error: NodeJS.ErrnoException, { host, port }: DevServerOptions): Error {
  if (error.code !== 'EADDRINUSE') return error;
  return new Error(
    `Port ${port} of ${host} is in use, by another server (another slots-remote dev, say): stop it, or serve on ` +
      'another port with npm run dev -- --port <port>.',
  );
}

function fileSize(file: string): number | undefined {
  try {
    const stats = statSync(file);
    return stats.isFile() ? stats.size : undefined;
  } catch {
    return undefined;
  }
}
