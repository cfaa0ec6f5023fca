/**
 * Where `npm run db:backup` refuses to write, before writing anything: the copy is written under a temporary name
 * beside the destination, opened again by name and then renamed into place, so a folder another user may change
 * hands them the backup, a symbolic link there is replaced, and the database's own companions are taken by SQLite
 * (or the server) at the next start.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { runServerCommand, type CommandRun } from '../../testing/server/run-server-command';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { migrate } from '../storage/migrate';
import { MIGRATIONS } from '../storage/migrations';

jest.setTimeout(60_000);

let dir: TempDir;
let source: string;

beforeEach(() => {
  dir = makeTempDir('slots-backup-destination-');
  source = path.join(dir.path, 'app.db');
  const db = new Database(source);
  migrate(db, MIGRATIONS);
  db.close();
});
afterEach(() => dir.remove());

function backup(destination: string): Promise<CommandRun> {
  return runServerCommand('db-backup.ts', [destination], { DATABASE_URL: '', DATABASE_PATH: source });
}

describe('npm run db:backup, its destination', () => {
  it('refuses a folder other users may change (or one above it), and writes into a sticky one', async () => {
    const shared = path.join(dir.path, 'shared');
    fs.mkdirSync(shared);
    fs.chmodSync(shared, 0o777);
    const inShared = await backup(path.join(shared, 'backup.db'));
    expect(inShared.code).toBe(1);
    expect(inShared.stderr).toBe(
      `The folder ${shared} (mode 0777, group ${fs.statSync(shared).gid}) may be changed by other users, who could ` +
        'take the backup (password hashes and sessions) as it is written. Write it to a folder only this user (and ' +
        `root) may change, e.g. beside the database: ${path.join(dir.path, 'backup.db')}. Nothing was written.\n`,
    );
    expect(fs.readdirSync(shared)).toEqual([]);

    // Another user could move a folder of this user's out of it and put one of theirs in its place.
    const below = path.join(shared, 'mine');
    fs.mkdirSync(below, { mode: 0o700 });
    const inBelow = await backup(path.join(below, 'backup.db'));
    expect([inBelow.code, inBelow.stderr]).toEqual([1, expect.stringContaining(`The folder ${shared} (mode 0777`)]);
    expect(fs.readdirSync(below)).toEqual([]);

    // As /tmp: only a file's owner may rename or delete it there.
    fs.chmodSync(shared, 0o1777);
    const sticky = await backup(path.join(shared, 'backup.db'));
    expect([sticky.code, sticky.stderr]).toEqual([0, '']);
    expect(fs.statSync(path.join(shared, 'backup.db')).mode & 0o777).toBe(0o600);
  });

  it('says what is wrong with its words before the usage, exit 2, writing nothing', async () => {
    const cases: [string[], string][] = [
      [[], 'Name the new file to write the backup to.'],
      [['--out', 'b.db'], 'Unknown option --out.'],
      [['a.db', 'b.db'], 'Give one new file, not 2: "a.db", "b.db".'],
      // A short option too, as db:copy and the account commands read it: the backup was written to a file "-o".
      [['-o', 'b.db'], 'Unknown option -o.'],
      // An option it does not take, a -h beside it or not (the help was printed, exit 0).
      [['--out', '-h'], 'Unknown option --out.'],
    ];
    for (const [args, said] of cases) {
      const run = await runServerCommand('db-backup.ts', args, { DATABASE_URL: '', DATABASE_PATH: source });
      expect([args, run.code, run.stdout, run.stderr]).toEqual([
        args,
        2,
        '',
        `${said}\nusage: npm run db:backup -- <new file>\n`,
      ]);
    }
    expect(fs.readdirSync(dir.path)).toEqual(['app.db']);
  });

  it('never replaces a symbolic link, even one to nothing', async () => {
    const link = path.join(dir.path, 'backup.db');
    fs.symlinkSync(path.join(dir.path, 'nothing-here'), link);
    const run = await backup(link);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `${link} is a symbolic link (to ${path.join(dir.path, 'nothing-here')}): a backup never replaces one. Name a new ` +
        'file. Nothing was written.\n',
    );
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.readdirSync(dir.path).sort()).toEqual(['app.db', 'backup.db']);
  });

  it('refuses the names SQLite and the server take as their own beside the database', async () => {
    for (const name of ['app.db-wal', 'app.db-journal', 'app.db-shm', 'session-secret']) {
      const run = await backup(path.join(dir.path, name));
      expect([name, run.code]).toEqual([name, 1]);
      expect(run.stderr).toContain(`${path.join(dir.path, name)} is a file beside the database that `);
      expect(run.stderr).toContain(`a backup there would be lost. Name it otherwise, e.g. `);
      expect(fs.readdirSync(dir.path)).toEqual(['app.db']);
    }
    // The same names beside another file are backups like any.
    const elsewhere = path.join(dir.path, 'backups');
    fs.mkdirSync(elsewhere, { mode: 0o700 });
    const run = await backup(path.join(elsewhere, 'app.db-wal'));
    expect([run.code, run.stderr]).toEqual([0, '']);
  });
});
