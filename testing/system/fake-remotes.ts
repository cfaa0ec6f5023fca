import type { RemoteDescriptor } from '../../shared';
import { CORS_HEADERS, startHttpFixtureServer, type HttpFixtureServer } from './http-fixture-server';
import { fakeManifest } from '../fake-manifest';

/**
 * Tiny real remotes served over HTTP for the failure tests (STYLE 13: fake remotes are real modules, not mocks of
 * webpack): one whose manifest is missing, one whose entry script never arrives, and a hand-written Module
 * Federation container (`init` + `get`, the global-var protocol of the manifest's `remoteEntry.type: "global"`)
 * whose components misbehave on purpose.
 */
export interface FakeRemote {
  /** Module Federation container name. */
  readonly name: string;
  readonly components: readonly string[];
  readonly server: HttpFixtureServer;
  /** Absolute URL of its `mf-manifest.json`. */
  readonly entry: string;
  /** The descriptor to list in REMOTES_CONFIG / GET /api/remotes. */
  descriptor(): RemoteDescriptor;
  close(): Promise<void>;
}

/** The message ThrowingWidget throws while rendering. */
export const THROWING_WIDGET_ERROR = 'ThrowingWidget failed on purpose while rendering';
/** What FixtureHello renders: proof that the hand-written container itself loads. */
export const FIXTURE_HELLO_TEXT = 'Hello from the fixture remote';

function fakeRemote(name: string, components: readonly string[], server: HttpFixtureServer): FakeRemote {
  const entry = `${server.url}/mf-manifest.json`;
  return {
    name,
    components,
    server,
    entry,
    descriptor: () => ({ name, entry, components: [...components], formComponents: [] }),
    close: () => server.close(),
  };
}

function sendJson(response: import('node:http').ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { ...CORS_HEADERS, 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  response.end(JSON.stringify(body));
}

/** A remote whose `mf-manifest.json` (and everything else) answers 404. */
export async function startMissingManifestRemote(name: string, components: readonly string[]): Promise<FakeRemote> {
  const server = await startHttpFixtureServer((_request, response) => sendJson(response, 404, { error: 'not found' }));
  return fakeRemote(name, components, server);
}

/** A remote whose manifest is fine but whose `remoteEntry.js` request is accepted and never answered. */
export async function startSilentEntryRemote(name: string, components: readonly string[]): Promise<FakeRemote> {
  const manifest = fakeManifest(name, components);
  const server = await startHttpFixtureServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://fixture').pathname;
    if (pathname === '/mf-manifest.json') sendJson(response, 200, manifest);
    else if (pathname === '/remoteEntry.js')
      response.on('close', () => undefined); // never answered
    else sendJson(response, 404, { error: 'not found' });
  });
  return fakeRemote(name, components, server);
}

/**
 * A working container with two components: `ThrowingWidget` throws while rendering, `FixtureHello` renders text.
 * Plain functions, no React import: React calls them like any function component.
 */
export async function startThrowingRemote(name: string): Promise<FakeRemote> {
  const components = ['ThrowingWidget', 'FixtureHello'] as const;
  const manifest = fakeManifest(name, components);
  const script = `(function () {
  var modules = {
    './ThrowingWidget': function () {
      function ThrowingWidget() { throw new Error(${JSON.stringify(THROWING_WIDGET_ERROR)}); }
      return { __esModule: true, default: ThrowingWidget, ThrowingWidget: ThrowingWidget };
    },
    './FixtureHello': function () {
      function FixtureHello() { return ${JSON.stringify(FIXTURE_HELLO_TEXT)}; }
      return { __esModule: true, default: FixtureHello, FixtureHello: FixtureHello };
    }
  };
  globalThis[${JSON.stringify(name)}] = {
    init: function () { return Promise.resolve(); },
    get: function (request) {
      var factory = modules[request];
      if (!factory) return Promise.reject(new Error('Module ' + request + ' does not exist in container ${name}'));
      return Promise.resolve(factory);
    }
  };
})();
`;
  const server = await startHttpFixtureServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://fixture').pathname;
    if (pathname === '/mf-manifest.json') sendJson(response, 200, manifest);
    else if (pathname === '/remoteEntry.js') {
      response.writeHead(200, { ...CORS_HEADERS, 'Content-Type': 'text/javascript; charset=utf-8' });
      response.end(script);
    } else sendJson(response, 404, { error: 'not found' });
  });
  return fakeRemote(name, components, server);
}
