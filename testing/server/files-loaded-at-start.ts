/**
 * The files of node_modules a real server start loads: server/main.ts's order (tracing first, then startServer with
 * the demo, on a new SQLite file, port 0) in a child process, which lists its module cache once it listens and exits.
 * What the start-up tests ask of it: that a package a start does not need is never loaded (its cost is paid by every
 * start, bench/startup-phases.ts).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** The child's code: main.ts's start, then the paths under node_modules/ its module cache holds, as JSON. */
const START_AND_LIST = `
require('./server/observability/start-tracing');
const { startServer } = require('./server/start-server');
const { withDemo } = require('./server/demo');
startServer(process.env, withDemo()).then(
  () => {
    const files = Object.keys(require.cache).flatMap((file) => {
      const found = /node_modules\\/(.+)$/.exec(file);
      return found ? [found[1]] : [];
    });
    process.stdout.write('FILES ' + JSON.stringify(files.sort()) + '\\n');
    process.exit(0);
  },
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
`;

/**
 * The paths under node_modules/ (`express/index.js`, `@opentelemetry/api/build/src/index.js`) loaded by a start with
 * `env` over the defaults, its database in `folder`: the settings that switch features on (metrics, tracing, Redis,
 * PostgreSQL, remotes) are blanked first, so that only `env` switches them on.
 */
export async function filesLoadedAtStart(folder: string, env: Record<string, string> = {}): Promise<string[]> {
  const blank = Object.fromEntries(
    Object.keys(process.env)
      .filter((name) => /^(OTEL_|METRICS_|REDIS_URL$|DATABASE_URL$|REMOTES_CONFIG$)/.test(name))
      .map((name) => [name, '']),
  );
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '-e', START_AND_LIST], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      ...blank,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_PATH: path.join(folder, 'app.db'),
      DEMO_PASSWORD: 'files-loaded-at-start-password',
      ...env,
    },
    maxBuffer: 10 * 1024 * 1024,
  });
  const line = stdout.split('\n').find((text) => text.startsWith('FILES '));
  if (line === undefined) throw new Error(`The start listed no files:\n${stdout}`);
  const files = JSON.parse(line.slice('FILES '.length)) as string[];
  // A check of the listing itself: the start did load its packages, express among them.
  if (!files.some((file) => file.startsWith('express/')))
    throw new Error(`The start listed no express file:\n${stdout}`);
  return files;
}

/** The package a path under node_modules/ belongs to (`express`, `@opentelemetry/api`). */
export function packageOfFile(file: string): string {
  const [first = '', second = ''] = file.split('/');
  return first.startsWith('@') ? `${first}/${second}` : first;
}
