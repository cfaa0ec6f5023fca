/**
 * A rolling upgrade's promise (docs/operators/deploy.md, "Rolling upgrades"): a host of the previous release, still
 * running, keeps working on a database the new release migrated, because every step of the schema is expand-only.
 * The previous release is the real one: the commit before the newest migration step was added, checked out from this
 * repository's history into a temporary work tree and run with tsx. It starts first on a fresh SQLite file; the
 * current release then starts on the same file and migrates it; the old host goes on signing in, reading /meta and
 * the records, and writing records, which the new host reads, and the other way round.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS } from '../../server/storage/migrations';
import { DEMO_PASSWORD, DEMO_USERNAME, startAppServer, type AppServer } from '../../testing/system/app-server';
import { REPO_ROOT } from '../../testing/system/repo-root';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';

jest.setTimeout(120_000);

const git = (args: readonly string[]): string =>
  execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

const newest = Math.max(...MIGRATIONS.map((migration) => migration.version));

/** The commit before the one that added the newest step to server/storage/migrations.ts. */
function previousRelease(): string {
  const added = git(['log', '--format=%H', '-S', `version: ${newest},`, '--', 'server/storage/migrations.ts'])
    .split('\n')
    .filter(Boolean)
    .at(-1);
  if (!added) throw new Error(`no commit in this repository's history adds migration step ${newest}`);
  return git(['rev-parse', `${added}^`]);
}

async function signInTo(server: AppServer): Promise<string> {
  const answer = await fetch(`${server.url}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: DEMO_USERNAME, password: DEMO_PASSWORD }),
  });
  expect(answer.status).toBe(200);
  return answer.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
}

async function call(
  server: AppServer,
  cookie: string,
  requestPath: string,
  body?: unknown,
  method = body === undefined ? 'GET' : 'POST',
): Promise<{ status: number; body: any }> {
  const answer = await fetch(`${server.url}${requestPath}`, {
    method,
    headers: {
      cookie,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: answer.status, body: (await answer.json()) as unknown };
}

const article = (title: string) => ({
  title,
  label: title.slice(0, 20),
  slug: title.toLowerCase().replace(/\W+/g, '-'),
  published: '2026-11-25',
  group: 'news',
  body: `Written by ${title}.`,
});

const titles = async (server: AppServer, cookie: string): Promise<string[]> => {
  const listed = await call(server, cookie, '/api/resources/articles/records?limit=100');
  expect(listed.status).toBe(200);
  return (listed.body.records as { title: string }[]).map((record) => record.title);
};

// A shallow clone holds no previous release to run: said in the suite's name rather than failed.
const shallow = git(['rev-parse', '--is-shallow-repository']) === 'true';
const describeWithHistory = shallow ? describe.skip : describe;

describeWithHistory(
  `a host of the previous release on a database the current release migrated${shallow ? ' (skipped: a shallow clone has no history)' : ''}`,
  () => {
    let tree: TempDir;
    let data: TempDir;
    let old: AppServer | undefined;
    let current: AppServer | undefined;

    beforeAll(() => {
      tree = makeTempDir('slots-previous-release-');
      git(['worktree', 'add', '--detach', tree.path, previousRelease()]);
      fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(tree.path, 'node_modules'));
      data = makeTempDir('slots-previous-release-data-');
    });

    afterAll(async () => {
      await old?.stop({ keepData: true });
      await current?.stop({ keepData: true });
      data?.remove();
      git(['worktree', 'remove', '--force', tree.path]);
    });

    it('keeps signing in, reading and writing while the current release runs beside it', async () => {
      old = await startAppServer({
        entry: path.relative(REPO_ROOT, path.join(tree.path, 'server', 'main.ts')),
        env: { TSX_TSCONFIG_PATH: path.join(tree.path, 'tsconfig.json') },
        tempDir: data,
      });
      const version = () => {
        const db = new Database(old!.databasePath, { readonly: true });
        try {
          return db.prepare('SELECT MAX(version) FROM schema_version').pluck().get();
        } finally {
          db.close();
        }
      };
      // Behind by the newest step at least (a commit may have added more than one).
      expect(version()).toBeLessThan(newest);
      const oldCookie = await signInTo(old);

      current = await startAppServer({ tempDir: data });
      expect(version()).toBe(newest);
      const currentCookie = await signInTo(current);

      // The old host, on the migrated database: a new sign-in, its session from before, /meta, a record written.
      expect((await call(old, await signInTo(old), '/meta')).status).toBe(200);
      expect((await call(old, oldCookie, '/meta')).status).toBe(200);
      const writtenByOld = await call(old, oldCookie, '/api/resources/articles/records', article('Old host note'));
      expect(writtenByOld.status).toBe(201);
      const writtenByCurrent = await call(
        current,
        currentCookie,
        '/api/resources/articles/records',
        article('Current host note'),
      );
      expect(writtenByCurrent.status).toBe(201);

      // Each sees what the other wrote.
      expect(await titles(current, currentCookie)).toContain('Old host note');
      expect(await titles(old, oldCookie)).toEqual(expect.arrayContaining(['Old host note', 'Current host note']));
      expect((await call(current, currentCookie, '/meta')).status).toBe(200);

      // A record the current host deletes, the old one restores: an old host copies the deleted row's columns back,
      // so a schema step may add to deleted_records only what records has too (step 18 keeps the deleter apart).
      const id = writtenByCurrent.body.record.id as number;
      const deleted = await call(current, currentCookie, `/api/resources/articles/records/${id}`, undefined, 'DELETE');
      expect(deleted.status).toBe(200);
      const restored = await call(old, oldCookie, `/api/resources/articles/records/${id}/restore`, {});
      expect([restored.status, restored.body.record?.title]).toEqual([200, 'Current host note']);
      expect(await titles(current, currentCookie)).toContain('Current host note');
    });
  },
);
