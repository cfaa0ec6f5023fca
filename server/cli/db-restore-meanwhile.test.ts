/**
 * A server starting while db:restore runs: it opens the database file before the backup is renamed over it and
 * waits for the restore's lock, which is let go only after the rename. It must not run on the file it opened, which
 * is then the kept one, with its -wal and -shm named after the database (the restored file's next start would replay
 * them onto the backup): SQLite refuses its first write to a file no longer at its path (the restore left it in
 * rollback-journal mode), and the start says why and to start again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { runServerCommand } from '../../testing/server/run-server-command';
import { serversDatabase, tenantsIn } from '../../testing/server/servers-sqlite-database';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { AppDatabase } from '../storage/app-database';

jest.setTimeout(120_000);

let dir: TempDir;
beforeEach(() => {
  dir = makeTempDir('slots-restore-meanwhile-');
});
afterEach(() => dir.remove());

it('a server opening the database during the restore does not run on the kept file: its start says so', async () => {
  const database = path.join(dir.path, 'app.db');
  const backup = path.join(dir.path, 'backup.db');
  serversDatabase(database, 'current');
  serversDatabase(backup, 'backed-up', { fillerMiB: 64 });
  const run = runServerCommand('db-restore.ts', [backup, '--yes'], {
    DATABASE_URL: '',
    DATABASE_PATH: database,
    SESSION_SECRET: '',
  });
  // The copy of the backup beside the database: made once the restore holds the database, renamed over it last.
  while (!fs.readdirSync(dir.path).some((name) => name.startsWith('app.db.restoring-'))) {
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  // The server's own opening, which waits for the restore's lock (busy_timeout) with the old file open.
  let opened: AppDatabase | undefined;
  let refusal: unknown;
  try {
    opened = AppDatabase.open(database);
  } catch (error) {
    refusal = error;
  } finally {
    opened?.close();
  }
  const restored = await run;
  expect([restored.code, restored.stderr]).toEqual([0, '']);
  expect(opened).toBeUndefined();
  expect(refusal).toEqual(
    new Error(
      `SQLite ${database} was replaced while this start opened it (db:restore put a backup in its place): nothing ` +
        'was written to it. Start again, which opens the file there now.',
    ),
  );

  const kept = fs.readdirSync(dir.path).find((name) => name.startsWith('app.db.before-restore-')) as string;
  expect(fs.readdirSync(dir.path).sort()).toEqual(['app.db', kept, 'backup.db']);
  expect(tenantsIn(path.join(dir.path, kept))).toEqual(['current']);
  // Started again, it opens the restored file.
  const again = AppDatabase.open(database);
  again.close();
  expect(tenantsIn(database)).toEqual(['backed-up']);
});
