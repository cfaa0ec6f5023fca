/**
 * The restore lets go of the database only once the backup is in its place: a process that takes the file the
 * instant the restore's lock is gone finds the backup there, never the database it replaces, nor no file at all.
 * Released before the rename, a server starting in between ran on the old file, which the rename then turned into the
 * kept one (db-restore-meanwhile.test.ts sees only how such a start ends, and passed with either order).
 */
import fs from 'node:fs';
import path from 'node:path';
import { firstReadOnceUnlocked } from '../../testing/server/sqlite-first-read';
import { serversDatabase, tenantsIn } from '../../testing/server/servers-sqlite-database';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { restoreSqlite } from './sqlite-restore';

jest.setTimeout(60_000);

let dir: TempDir;
beforeEach(() => {
  dir = makeTempDir('slots-restore-release-');
});
afterEach(() => {
  jest.restoreAllMocks();
  dir.remove();
});

/** Stops this thread (the restore's) for `ms`, as a slow disk's rename does; other processes go on. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

it('lets another process have the database only once the backup is in its place', async () => {
  const database = path.join(dir.path, 'app.db');
  const backup = path.join(dir.path, 'backup.db');
  serversDatabase(database, 'current');
  serversDatabase(backup, 'backed-up');
  // The rename over the database takes half a second: the moment between it and the release, a few microseconds
  // that another process would win only now and then, lasts long enough for the reader to be there, whichever the
  // order. The rename itself is the real one.
  const rename = fs.renameSync.bind(fs);
  jest.spyOn(fs, 'renameSync').mockImplementation((from, to) => {
    if (to === database) pause(500);
    rename(from, to);
  });
  const reader = firstReadOnceUnlocked(database);
  await reader.ready;

  const restored = await restoreSqlite(backup, database, { now: new Date('2026-11-30T15:04:05Z') });

  const read = await reader.read;
  // It tried while the restore held the file (refused), and its first read was the backup's.
  expect(read).toEqual({ refused: read.refused, outcome: 'read', tenants: ['backed-up'] });
  expect(read.refused).toBeGreaterThan(0);
  expect(tenantsIn(restored.kept as string)).toEqual(['current']);
});
