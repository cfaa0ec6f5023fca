import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeFixtureSpec, type FixtureSpec } from './fixture-spec';
import { REPO_ROOT } from './repo-root';
import { startServerProcess, type ServerProcess } from './server-process';
import { DEMO_PASSWORD } from '../server/test-app';
import { makeTempDir, type TempDir } from '../temp-dir';

/** The demo account the server creates on first start. */
export { DEMO_USERNAME } from '../../server/demo';
/** Given to the server as DEMO_PASSWORD (the same as the in-process test apps'), so tests can sign in at once. */
export { DEMO_PASSWORD };

export interface AppServerOptions {
  /** TypeScript entry that listens, relative to the repository root; `server/main.ts` when omitted. */
  entry?: string;
  /** `production` (the shipped behaviour) when omitted. */
  nodeEnv?: 'production' | 'development';
  /** More variables for the server (REDIS_URL, REMOTES_CONFIG, ...); `undefined` removes one. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Reuse this folder (and its database) instead of a fresh one, e.g. to restart on the same data. */
  tempDir?: TempDir;
  /**
   * Run with the temporary folder as the working directory instead of the repository root, as a host that holds
   * only the code and a folder of its own: whatever the server writes relative to its working directory lands there.
   */
  workInTempDir?: boolean;
  port?: number;
  readyTimeoutMs?: number;
  /** Serve HTTPS (HTTP/2 and HTTP/1.1) with this certificate and key (PEM files): TLS_CERT_FILE, TLS_KEY_FILE. */
  tls?: { certFile: string; keyFile: string };
  /**
   * Writes files the server needs (a REMOTES_CONFIG, a fixture spec) into its temporary folder before it starts,
   * and returns the variables that point the server at them.
   */
  prepare?: (dir: string) => Promise<Readonly<Record<string, string>>>;
}

export interface AppServer {
  readonly process: ServerProcess;
  readonly url: string;
  readonly tempDir: TempDir;
  readonly databasePath: string;
  /** Stops the server, then deletes its temporary folder unless `keepData` is set. */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

/**
 * The real server (`node --import tsx <entry>`, one process, no wrapper) on a free port with a fresh SQLite file in
 * a temporary folder. Ready when `/readyz` answers 200.
 */
export async function startAppServer(options: AppServerOptions = {}): Promise<AppServer> {
  const tempDir = options.tempDir ?? makeTempDir('slots-app-');
  const databasePath = path.join(tempDir.path, 'app.db');
  const entry = path.join(REPO_ROOT, options.entry ?? 'server/main.ts');
  let serverProcess: ServerProcess;
  try {
    const preparedEnv = (await options.prepare?.(tempDir.path)) ?? {};
    serverProcess = await startServerProcess({
      name: `app server (${path.relative(REPO_ROOT, entry)})`,
      // tsx by file URL: `--import tsx` resolves from the working directory, which may be outside the repository.
      args: ['--import', pathToFileURL(require.resolve('tsx')).href, entry],
      ...(options.workInTempDir ? { cwd: tempDir.path } : {}),
      port: options.port,
      readyTimeoutMs: options.readyTimeoutMs,
      https: options.tls !== undefined,
      env: {
        NODE_ENV: options.nodeEnv ?? 'production',
        DATABASE_PATH: databasePath,
        DEMO_PASSWORD,
        // The repository's compiler settings wherever the working directory is.
        TSX_TSCONFIG_PATH: path.join(REPO_ROOT, 'tsconfig.json'),
        // Never inherit the developer's own settings into a test server.
        REDIS_URL: undefined,
        REMOTES_CONFIG: undefined,
        SESSION_SECRET: undefined,
        METRICS_TOKEN: undefined,
        METRICS_PORT: undefined,
        OTEL_EXPORTER_OTLP_ENDPOINT: undefined,
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: undefined,
        OTEL_EXPORTER_OTLP_PROTOCOL: undefined,
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: undefined,
        TLS_CERT_FILE: options.tls?.certFile,
        TLS_KEY_FILE: options.tls?.keyFile,
        ...options.env,
        ...preparedEnv,
      },
    });
  } catch (error) {
    if (!options.tempDir) tempDir.remove();
    throw error;
  }
  return {
    process: serverProcess,
    url: serverProcess.url,
    tempDir,
    databasePath,
    stop: async ({ keepData = false } = {}) => {
      await serverProcess.stop();
      if (!keepData) tempDir.remove();
    },
  };
}

/**
 * The test entry `testing/system/fixture-server.ts`: the real server with the demo content plus the slots and
 * resources of `fixture` (written as JSON into the server's temporary folder).
 */
export function startFixtureServer(
  fixture: FixtureSpec,
  options: Omit<AppServerOptions, 'entry'> = {},
): Promise<AppServer> {
  return startAppServer({
    ...options,
    entry: 'testing/system/fixture-server.ts',
    prepare: async (dir) => ({ ...(await options.prepare?.(dir)), ...(await writeFixtureSpec(dir, fixture)) }),
  });
}
