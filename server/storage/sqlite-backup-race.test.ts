/**
 * A file made under the backup's name while the backup runs is kept and the backup refused: the name was free when
 * the backup began, seconds before the finished copy takes it, and a rename into place replaced whatever came
 * meanwhile ("a backup never overwrites a file").
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { makeTempDir } from '../../testing/temp-dir';
import { migrate } from './migrate';
import { MIGRATIONS } from './migrations';
import { backupSqlite, BackupRefused } from './sqlite-backup';

it('keeps a file made at the destination during the backup, and leaves no partial copy', async () => {
  const dir = makeTempDir('slots-backup-race-');
  try {
    const source = path.join(dir.path, 'app.db');
    const db = new Database(source);
    migrate(db, MIGRATIONS);
    db.close();
    const destination = path.join(dir.path, 'backup.db');

    // The backup checks the name and starts copying; SQLite's copy goes on in a later turn of the event loop.
    const backup = backupSqlite(source, destination);
    fs.writeFileSync(destination, 'made meanwhile');

    await expect(backup).rejects.toThrow(
      new BackupRefused(`${destination} exists already: a backup never overwrites a file.`),
    );
    expect(fs.readFileSync(destination, 'utf8')).toBe('made meanwhile');
    expect(fs.readdirSync(dir.path).sort()).toEqual(['app.db', 'backup.db']);
  } finally {
    dir.remove();
  }
});
