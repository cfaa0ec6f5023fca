/**
 * An entry REMOTES_CONFIG gives a built-in or listed remote while a release of that remote is in force is not served
 * (the release wins): the log says so, at the start and on a reload, once per change, never for a built-in remote
 * the file leaves alone.
 */
import pino from 'pino';
import { createFixtureDist, type FixtureDist } from '../../testing/server/fixture-dist';
import { createTestApp, type TestApp } from '../../testing/server/test-app';
import { waitUntil } from '../../testing/server/wait-until';

const RELEASED_ENTRY = 'https://cdn.example/team_news/r1/mf-manifest.json';
const NOT_SERVED = 'is not served: release';

let dist: FixtureDist;
let configFile: string;
let lines: string[];
const apps: TestApp[] = [];

beforeEach(() => {
  dist = createFixtureDist();
  dist.addRemote({ name: 'team_news', components: ['NewsTicker'], formComponents: [] });
  configFile = dist.write('remotes.json', JSON.stringify({ remotes: [] }));
  lines = [];
});
afterEach(async () => {
  // One database for all of them: the first's folder.
  for (const testApp of apps) await testApp.close({ keepData: true });
  apps[0]?.dir.remove();
  apps.length = 0;
  dist.remove();
});

/** The warnings logged that an entry is not served. */
function unservedWarnings(): Array<{ remote: string; entry: string; release: string; msg: string }> {
  return lines
    .map((line) => JSON.parse(line) as { level: number; msg: string; remote: string; entry: string; release: string })
    .filter((line) => line.level === 40 && line.msg.includes(NOT_SERVED));
}

function writeEntry(entry: string | undefined): void {
  dist.write('remotes.json', JSON.stringify({ remotes: entry === undefined ? [] : [{ name: 'team_news', entry }] }));
}

async function start(dir?: TestApp['dir']): Promise<TestApp> {
  const testApp = await createTestApp({
    distDir: dist.dir,
    env: { REMOTES_CONFIG: configFile },
    releasePollMs: 20,
    logger: pino({ level: 'info' }, { write: (line: string) => void lines.push(line) }),
    ...(dir ? { dir } : {}),
  });
  apps.push(testApp);
  return testApp;
}

it('warns at the start and on a reload, once per entry, that the release in force is served instead', async () => {
  // The built-in remote with a release in force, the file leaving its entry alone: as it should be, no warning.
  const first = await start();
  const { store: releases, snapshot: releaseSnapshot } = first.app.releases;
  const descriptor = { remote: 'team_news', components: ['NewsTicker'], formComponents: [], props: {} };
  await releases.publish({ ...descriptor, version: 'r1', entry: RELEASED_ENTRY, publishedBy: 'test' });
  await releases.changeRollout({
    remote: 'team_news',
    action: 'activate',
    actor: 'test',
    next: { active: 'r1', canary: null },
  });
  await releaseSnapshot.refresh();
  expect(first.app.remotes.registry.isReleased('team_news')).toBe(true);
  expect(unservedWarnings()).toEqual([]);
  await first.app.close();

  // Restarted with the file giving the remote an entry of its own: said at the start.
  writeEntry('https://cdn.example/team_news/v2/mf-manifest.json');
  const second = await start(first.dir);
  expect(unservedWarnings()).toEqual([
    expect.objectContaining({
      remote: 'team_news',
      entry: 'https://cdn.example/team_news/v2/mf-manifest.json',
      release: 'r1',
      msg: expect.stringContaining('POST /api/remotes/team_news/deactivate'),
    }),
  ]);

  // Not again: an unchanged reload, the polls that follow.
  expect(await second.app.reloadRemotesConfig()).toBe(true);
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(unservedWarnings()).toHaveLength(1);

  // The entry changed again, the release still in force: said once more, of the new entry.
  writeEntry('https://cdn.example/team_news/v3/mf-manifest.json');
  expect(await second.app.reloadRemotesConfig()).toBe(true);
  await waitUntil(async () => unservedWarnings().length > 1);
  expect(unservedWarnings().map(({ entry }) => entry)).toEqual([
    'https://cdn.example/team_news/v2/mf-manifest.json',
    'https://cdn.example/team_news/v3/mf-manifest.json',
  ]);
});
