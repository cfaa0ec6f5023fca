/**
 * What a start loads of rate-limiter-flexible: the files of the classes the server uses (http/rate-limiter-classes.ts),
 * never the package's index, which requires every store it supports (36 files, node:cluster among them).
 */
import { filesLoadedAtStart } from '../../../testing/server/files-loaded-at-start';
import { makeTempDir, type TempDir } from '../../../testing/temp-dir';

jest.setTimeout(60_000);

let dir: TempDir;
beforeEach(() => {
  dir = makeTempDir('rate-limiter-files-');
});
afterEach(() => dir.remove());

it('loads the files of the rate limiters it uses, not the package index with every store', async () => {
  const prefix = 'rate-limiter-flexible/';
  const files = (await filesLoadedAtStart(dir.path))
    .filter((file) => file.startsWith(prefix))
    .map((file) => file.slice(prefix.length));
  // The sign-in limits on SQLite (this start's store) and the memory limiter are there: the listing works.
  expect(files).toEqual(expect.arrayContaining(['lib/RateLimiterSQLite.js', 'lib/RateLimiterMemory.js']));
  expect(files).not.toContain('index.js');
  expect(files.filter((file) => /Mongo|MySQL|Dynamo|Cluster|Etcd|Prisma|Drizzle|Memcache|Valkey/.test(file))).toEqual(
    [],
  );
});
