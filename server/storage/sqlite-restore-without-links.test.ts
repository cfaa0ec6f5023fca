/**
 * A restore on a file system without hard links keeps the database by copying it, and holds the database until the
 * backup is in its place: the copy's descriptor, closed before the rename, dropped the restore's lock (closing any
 * descriptor of a file drops every POSIX lock the process holds on it), and a server starting then took the file that
 * was about to become the kept one.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { serversDatabase, tenantsIn } from '../../testing/server/servers-sqlite-database';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { restoreSqlite } from './sqlite-restore';

let dir: TempDir;
beforeEach(() => {
  dir = makeTempDir('slots-restore-no-links-');
});
afterEach(() => {
  jest.restoreAllMocks();
  dir.remove();
});

/** What another process, not waiting, is told when it reads the file: `SQLITE_BUSY` while a restore holds it. */
function readFromAnotherProcess(file: string): string {
  const script =
    "const Database = require('better-sqlite3'); const db = new Database(process.argv[1]);" +
    "db.pragma('busy_timeout = 0'); try { db.prepare('SELECT count(*) FROM tenants').get(); console.log('read'); }" +
    ' catch (error) { console.log(error.code); } finally { db.close(); }';
  return execFileSync(process.execPath, ['-e', script, file], { encoding: 'utf8' }).trim();
}

it('keeps the database by copying it where links are refused, and holds it until the backup is in place', async () => {
  const database = path.join(dir.path, 'app.db');
  const backup = path.join(dir.path, 'backup.db');
  serversDatabase(database, 'current');
  serversDatabase(backup, 'backed-up');
  // A file system without hard links (some network shares): the edge, not the restore, is stood in for.
  jest.spyOn(fs, 'linkSync').mockImplementation(() => {
    throw Object.assign(new Error('EPERM: operation not permitted, link'), { code: 'EPERM' });
  });
  const rename = fs.renameSync.bind(fs);
  const atTheRename: string[] = [];
  jest.spyOn(fs, 'renameSync').mockImplementation((from, to) => {
    if (to === database) atTheRename.push(readFromAnotherProcess(database));
    rename(from, to);
  });

  const restored = await restoreSqlite(backup, database, { now: new Date('2026-11-30T15:04:05Z') });

  expect(atTheRename).toEqual(['SQLITE_BUSY']);
  expect(restored.kept).toBe(`${database}.before-restore-2026-11-30T15-04-05Z`);
  expect(tenantsIn(restored.kept as string)).toEqual(['current']);
  expect(fs.statSync(restored.kept as string).mode & 0o777).toBe(0o600);
  expect(readFromAnotherProcess(database)).toBe('read');
});
