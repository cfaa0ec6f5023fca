import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { SERVER_NODE_FLAGS } from '../../server/process/server-node-flags';
import { DIST_DIR } from '../../testing/system/repo-root';
import type { ServerProcess } from '../../testing/system/server-process';
import { logPath, workPath, type BenchContext } from './bench-context';
import { startBenchProcess } from './bench-process';

export const BENCH_DEMO_USERNAME = 'admin';
export const BENCH_DEMO_PASSWORD = 'bench-demo-password';

export interface RealServerOptions {
  /** Names the log file and the database folder. */
  name: string;
  /** `server/main.ts` unless a bench entry (e.g. extra slots) is needed. */
  entry?: string;
  env?: Readonly<Record<string, string | undefined>>;
  /** The server speaks HTTPS (TLS_CERT_FILE and TLS_KEY_FILE in `env`). */
  https?: boolean;
}

/**
 * The product's server as a production process on its own temporary SQLite file. Sign-in rate limiting is off:
 * the benchmarks sign in once per server, and a limit could only turn a figure into 429s.
 */
export async function startRealServer(context: BenchContext, options: RealServerOptions): Promise<ServerProcess> {
  const dataDir = workPath(context, options.name);
  await mkdir(dataDir, { recursive: true });
  return startBenchProcess({
    name: `server (${options.name})`,
    https: options.https ?? false,
    entry: options.entry ?? 'server/main.ts',
    logFile: logPath(context, options.name),
    // The flags the server ships with (its young generation's size among them), as every launcher gives them.
    nodeArgs: [
      ...SERVER_NODE_FLAGS,
      ...(context.cpuProfileDir
        ? ['--cpu-prof', `--cpu-prof-dir=${path.join(context.cpuProfileDir, options.name)}`]
        : []),
    ],
    env: {
      // The front end `npm run build` wrote, as the server run from source finds it: compiled into a folder of its
      // own (compiled-entry.ts), it would look beside itself.
      FRONTEND_DIR: DIST_DIR,
      DATABASE_PATH: `${dataDir}/app.db`,
      DEMO_PASSWORD: BENCH_DEMO_PASSWORD,
      SESSION_SECRET: 'bench-session-secret-0123456789abcdef',
      LOGIN_RATE_LIMIT: 'off',
      REDIS_URL: undefined,
      REMOTES_CONFIG: undefined,
      ...options.env,
    },
  });
}
