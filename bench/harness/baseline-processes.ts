import { mkdir } from 'node:fs/promises';
import type { ServerProcess } from '../../testing/system/server-process';
import { sessionCookieFrom } from '../../tests/multi-instance/support/session-client';
import { logPath, workPath, type BenchContext } from './bench-context';
import { startBenchProcess } from './bench-process';
import type { CapturedBody } from './captured-body';

/** What a static baseline is built on: a bare Express route, or bare `node:http` (the platform's limit). */
export type StaticBaselineKind = 'express' | 'node';

const STATIC_BASELINE_ENTRIES: Readonly<Record<StaticBaselineKind, string>> = {
  express: 'bench/baselines/static-bytes-server.ts',
  node: 'bench/baselines/static-bytes-node-server.ts',
};

/**
 * The bare Express route of bench/baselines/static-bytes-server.ts (or, `kind: 'node'`, the bare `node:http` server
 * of static-bytes-node-server.ts), sending `body` at `routePath` with its content headers.
 */
export function startStaticBaseline(
  context: BenchContext,
  name: string,
  body: CapturedBody,
  routePath: string,
  kind: StaticBaselineKind = 'express',
): Promise<ServerProcess> {
  return startBenchProcess({
    name: `baseline (${name})`,
    entry: STATIC_BASELINE_ENTRIES[kind],
    logFile: logPath(context, name),
    env: {
      BODY_FILE: body.file,
      ROUTE_PATH: routePath,
      CONTENT_TYPE: body.contentType,
      ETAG: body.etag ?? undefined,
      CACHE_CONTROL: body.cacheControl ?? undefined,
    },
  });
}

/** The session store of a `/meta` comparison; the baseline uses the same kind, on the same server. */
export type SessionStoreChoice =
  | { kind: 'sqlite' }
  | { kind: 'redis'; url: string }
  | {
      kind: 'postgres';
      /** The server's DATABASE_URL. */
      url: string;
      /** Another database on the same PostgreSQL server, for the baseline's session table. */
      baselineUrl: string;
    };

/**
 * What a process needs in its environment to keep its sessions in `store` (SQLite: its own database file). On
 * PostgreSQL the baseline gets a database of its own on the same server, so neither reads the other's table.
 */
export function sessionStoreEnv(
  store: SessionStoreChoice,
  role: 'server' | 'baseline' = 'server',
): Record<string, string> {
  switch (store.kind) {
    case 'sqlite':
      return {};
    case 'redis':
      return { REDIS_URL: store.url };
    case 'postgres':
      return { DATABASE_URL: role === 'server' ? store.url : store.baselineUrl };
  }
}

export interface SessionBaseline {
  process: ServerProcess;
  /** `Cookie` header value of a signed-in session on the baseline. */
  cookie: string;
}

/** The bench's bare express-session + passport app, whose `/meta` is the baseline of the server's. */
export const SESSION_BASELINE_ENTRY = 'bench/baselines/session-meta-server.ts';

/** The bare express-session + passport app of bench/baselines/session-meta-server.ts, signed in once. */
export async function startSessionBaseline(
  context: BenchContext,
  name: string,
  store: SessionStoreChoice,
  body: CapturedBody,
): Promise<SessionBaseline> {
  const dataDir = workPath(context, name);
  await mkdir(dataDir, { recursive: true });
  const baseline = await startBenchProcess({
    name: `baseline (${name})`,
    entry: SESSION_BASELINE_ENTRY,
    logFile: logPath(context, name),
    env: {
      SESSION_STORE: store.kind,
      DATABASE_PATH: `${dataDir}/baseline.db`,
      ...sessionStoreEnv(store, 'baseline'),
      BODY_FILE: body.file,
    },
  });
  try {
    return { process: baseline, cookie: await signInToSessionBaseline(baseline) };
  } catch (error) {
    await baseline.stop();
    throw error;
  }
}

/** The `Cookie` header of a session signed in on the bare session app (its `POST /login` takes no credentials). */
export async function signInToSessionBaseline(baseline: ServerProcess): Promise<string> {
  const response = await fetch(`${baseline.url}/login`, { method: 'POST' });
  const cookie = sessionCookieFrom(response.headers);
  if (response.status !== 200 || cookie === null) {
    throw new Error(`The ${baseline.name} refused the bench sign-in (${response.status}).`);
  }
  return cookie;
}
