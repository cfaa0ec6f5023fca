import { signIn } from '../../tests/multi-instance/support/session-client';
import { queryPostgres } from '../../tests/multi-host/support/postgres-query';
import { workPath, type BenchContext } from '../harness/bench-context';
import {
  sessionStoreEnv,
  startSessionBaseline,
  type SessionBaseline,
  type SessionStoreChoice,
} from '../harness/baseline-processes';
import { captureBody } from '../harness/captured-body';
import { compareAlternating, LOAD_GENERATORS, type LoadGeneratorName } from '../harness/compare-alternating';
import { BENCH_DEMO_PASSWORD, BENCH_DEMO_USERNAME, startRealServer } from '../harness/real-server';
import type { ThroughputResult } from '../report/bench-results';

/** Issue "Speed, third round": `/meta` within 5 % of the bare session route on every store, in both load generators. */
export const META_MIN_RATIO = 0.95;

/**
 * How the report names each session store and what the baseline runs on. Measuring /meta on another store
 * (PostgreSQL) is one entry here, its `kind` in SessionStoreChoice with its environment (sessionStoreEnv), its case
 * in bench/baselines/session-meta-server.ts and a `meta-<kind>` step in run.ts and bench-options.ts.
 */
const SESSION_STORES: Record<SessionStoreChoice['kind'], { label: string; baseline: string }> = {
  sqlite: {
    label: 'SQLite',
    baseline:
      "express-session + passport on the project's SqliteSessionStore (server/storage), constant JSON of the same bytes",
  },
  redis: {
    label: 'Redis',
    baseline: 'express-session + passport on connect-redis (same Redis), constant JSON of the same bytes',
  },
  postgres: {
    label: 'PostgreSQL',
    baseline:
      'express-session + passport on connect-pg-simple (same PostgreSQL server, own database), constant JSON of the same bytes',
  },
};

/**
 * `GET /meta` signed in, against a bare express-session + passport route on the same kind of session store that
 * sends the same bytes, measured with each load generator in turn against the same two processes.
 */
export async function benchMetaThroughput(
  context: BenchContext,
  store: SessionStoreChoice,
): Promise<ThroughputResult[]> {
  const name = `meta-${store.kind}`;
  const described = SESSION_STORES[store.kind];
  const server = await startRealServer(context, { name, env: sessionStoreEnv(store) });
  let baseline: SessionBaseline | undefined;
  try {
    const cookie = await signIn(server.url, BENCH_DEMO_USERNAME, BENCH_DEMO_PASSWORD);
    if (store.kind === 'postgres') await assertSessionsInPostgres(store.url);
    const body = await captureBody(`${server.url}/meta`, { Cookie: cookie }, workPath(context, `${name}-body.json`));
    baseline = await startSessionBaseline(context, `${name}-baseline`, store, body);
    const results: ThroughputResult[] = [];
    for (const generator of Object.keys(LOAD_GENERATORS) as LoadGeneratorName[]) {
      const comparison = await compareAlternating(
        { url: `${server.url}/meta`, headers: { Cookie: cookie } },
        { url: `${baseline.process.url}/meta`, headers: { Cookie: baseline.cookie } },
        context.plans.main,
        LOAD_GENERATORS[generator],
      );
      results.push({
        name: `\`GET /meta\` signed in, ${described.label} sessions`,
        target: `the server, sessions in ${described.label}`,
        baseline: described.baseline,
        bodyBytes: body.bytes.length,
        minimumRatio: META_MIN_RATIO,
        generator,
        comparison,
      });
    }
    return results;
  } finally {
    await baseline?.process.stop();
    await server.stop();
  }
}

/** A figure for PostgreSQL sessions means nothing if the server kept the session elsewhere: check its table. */
async function assertSessionsInPostgres(databaseUrl: string): Promise<void> {
  const [row] = await queryPostgres<{ count: string }>(databaseUrl, 'SELECT COUNT(*) AS count FROM sessions');
  if (Number(row?.count) < 1) {
    throw new Error('The server signed in, but its PostgreSQL database holds no session: DATABASE_URL was not used.');
  }
}
