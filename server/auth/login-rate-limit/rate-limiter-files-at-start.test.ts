/**
 * What a start loads of rate-limiter-flexible: the files of the classes the server uses (http/rate-limiter-classes.ts),
 * never the package's index, which requires every store it supports (36 files, node:cluster among them).
 *
 * The real start-up in a child process (startServer with the demo, on a new SQLite file), until it listens; the child
 * then lists the package's files in its module cache and exits.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { makeTempDir, type TempDir } from '../../../testing/temp-dir';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

jest.setTimeout(60_000);

/** The child's code: the start, then the files of rate-limiter-flexible its module cache holds, as JSON. */
const START_AND_LIST = `
const { startServer } = require('./server/start-server');
const { withDemo } = require('./server/demo');
startServer(process.env, withDemo()).then(
  () => {
    const files = Object.keys(require.cache).flatMap((file) => {
      const found = /node_modules\\/rate-limiter-flexible\\/(.+)$/.exec(file);
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

let dir: TempDir;
beforeEach(() => {
  dir = makeTempDir('rate-limiter-files-');
});
afterEach(() => dir.remove());

it('loads the files of the rate limiters it uses, not the package index with every store', async () => {
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
      DATABASE_PATH: path.join(dir.path, 'app.db'),
      DEMO_PASSWORD: 'rate-limiter-files-password',
    },
    maxBuffer: 10 * 1024 * 1024,
  });
  const line = stdout.split('\n').find((text) => text.startsWith('FILES '));
  if (line === undefined) throw new Error(`The start listed no files:\n${stdout}`);
  const files = JSON.parse(line.slice('FILES '.length)) as string[];
  // The sign-in limits on SQLite (this start's store) and the memory limiter are there: the listing works.
  expect(files).toEqual(expect.arrayContaining(['lib/RateLimiterSQLite.js', 'lib/RateLimiterMemory.js']));
  expect(files).not.toContain('index.js');
  expect(files.filter((file) => /Mongo|MySQL|Dynamo|Cluster|Etcd|Prisma|Drizzle|Memcache|Valkey/.test(file))).toEqual(
    [],
  );
});
