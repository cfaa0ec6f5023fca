/**
 * Real HTTP origins of remotes and an app whose REMOTES_CONFIG declares them, made and closed test by test: for the
 * tests of what the server's requests for a remote's descriptor come to (server/remotes/descriptor-status*.test.ts).
 * `remoteOriginsPerTest` registers the `beforeEach` / `afterEach` that make the folder and close what was started.
 */
import fs from 'node:fs';
import path from 'node:path';
import { REMOTE_DESCRIPTOR_FILE } from '../../shared';
import { fakeManifest } from '../fake-manifest';
import { startHttpFixtureServer, type HttpFixtureServer } from '../system/http-fixture-server';
import { makeTempDir, type TempDir } from '../temp-dir';
import { createTestApp, type TestApp, type TestAppOptions } from './test-app';

/** The bearer token of `/metrics` in the apps `start` makes. */
export const METRICS_TOKEN = 'metrics-token-for-the-tests-0123';
/** How long the apps `start` makes wait for a descriptor. */
export const DESCRIPTOR_TIMEOUT_MS = 250;

type FixtureHandler = Parameters<typeof startHttpFixtureServer>[0];

export type OriginAnswer = 'descriptor' | '404' | 'silent';

export interface RemoteOrigins {
  /** This test's folder (REMOTES_CONFIG is its `remotes.json`). */
  readonly dir: TempDir;
  /**
   * An origin that serves `name`'s descriptor (with a manifest and entry script), answers 404, or never answers; as
   * `answer` says at each request when a function.
   */
  origin(answer: OriginAnswer | (() => OriginAnswer), name: string): Promise<HttpFixtureServer>;
  /** An origin the test made itself, closed after the test as the others. */
  closing(server: HttpFixtureServer): HttpFixtureServer;
  /** Writes REMOTES_CONFIG with these remotes, as they are. */
  declare(remotes: unknown[]): void;
  /** An app on REMOTES_CONFIG, the metrics token and the descriptor deadline (unless `overrides`), closed after. */
  start(overrides?: TestAppOptions): Promise<TestApp>;
  /** `start` with REMOTES_CONFIG declaring each remote by the manifest at its origin. */
  startWith(remotes: Array<{ name: string; origin: string }>, overrides?: TestAppOptions): Promise<TestApp>;
}

export function remoteOriginsPerTest(tempPrefix: string): RemoteOrigins {
  let dir: TempDir | undefined;
  const apps: TestApp[] = [];
  const origins: HttpFixtureServer[] = [];
  beforeEach(() => {
    dir = makeTempDir(tempPrefix);
  });
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
    await Promise.all(origins.splice(0).map((origin) => origin.close()));
    dir?.remove();
    dir = undefined;
  });

  const configFile = () => path.join(remotes.dir.path, 'remotes.json');
  const remotes: RemoteOrigins = {
    get dir() {
      if (!dir) throw new Error('remoteOriginsPerTest: no test is running');
      return dir;
    },
    async origin(answer, name) {
      return remotes.closing(await startHttpFixtureServer(answering(answer, name)));
    },
    closing(server) {
      origins.push(server);
      return server;
    },
    declare(entries) {
      fs.writeFileSync(configFile(), JSON.stringify({ remotes: entries }));
    },
    async start(overrides = {}) {
      const testApp = await createTestApp({
        env: { REMOTES_CONFIG: configFile() },
        remoteDescriptorTimeoutMs: DESCRIPTOR_TIMEOUT_MS,
        metrics: { token: METRICS_TOKEN },
        ...overrides,
      });
      apps.push(testApp);
      return testApp;
    },
    async startWith(declared, overrides) {
      remotes.declare(declared.map(({ name, origin }) => ({ name, entry: `${origin}/${name}/mf-manifest.json` })));
      return remotes.start(overrides);
    },
  };
  return remotes;
}

function answering(answerNow: OriginAnswer | (() => OriginAnswer), name: string): FixtureHandler {
  return (req, res) => {
    const answer = typeof answerNow === 'function' ? answerNow() : answerNow;
    if (answer === 'silent') return; // closed by the fixture's close()
    if (answer !== '404' && req.url === `/${name}/mf-manifest.json`) {
      res.writeHead(200).end(JSON.stringify(fakeManifest(name, ['Banner'])));
      return;
    }
    if (answer !== '404' && req.url === `/${name}/remoteEntry.js`) {
      res.writeHead(200).end(`var ${name} = {};`);
      return;
    }
    if (answer === '404' || req.url !== `/${name}/${REMOTE_DESCRIPTOR_FILE}`) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ name, components: ['Banner'] }));
  };
}
