/**
 * `npm run db:restore`: what it refuses (changing nothing: the database and its folder stay byte for byte as they
 * were), and what it does with a whole backup of this server's, older than this release or not, over a database or
 * where there is none, and over a damaged one; cut short. On a terminal, the question it asks first:
 * db-restore-terminal.test.ts.
 */
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { compileServerCommands, type CompiledServerCommands } from '../../testing/server/compiled-server-commands';
import type { CommandRun } from '../../testing/server/run-server-command';
import { serversDatabase, tenantsIn } from '../../testing/server/servers-sqlite-database';
import { folderSnapshot } from '../../testing/folder-snapshot';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { RELEASE_SCHEMA_VERSION } from '../storage/migrations';

jest.setTimeout(60_000);

let dir: TempDir;
let database: string;
// The command compiled once, run as `npm run db:restore` runs it: node starts it in a fraction of tsx's time, and
// this file starts it some twenty-five times.
let commands: CompiledServerCommands;

beforeAll(async () => {
  commands = await compileServerCommands();
});
afterAll(() => commands?.remove());
beforeEach(() => {
  dir = makeTempDir('slots-restore-');
  database = path.join(dir.path, 'app.db');
});
afterEach(() => dir.remove());

function restore(...args: string[]): Promise<CommandRun> {
  return commands.run('db-restore.ts', args, { DATABASE_URL: '', DATABASE_PATH: database, SESSION_SECRET: '' });
}

describe('npm run db:restore', () => {
  it('says what is wrong with its words before the usage, exit 2', async () => {
    const cases: [string[], string][] = [
      [[], 'Name the backup file to restore.'],
      [['--force', 'b.db'], 'Unknown option --force.'],
      [['a.db', 'b.db'], 'Give one backup file, not 2: "a.db", "b.db".'],
      [['a.db', '--yes', 'b.db'], 'Give one backup file, not 2: "a.db", "b.db".'],
      // A short option too, as db:copy and the account commands read it (it was taken for the backup's name).
      [['-f', 'b.db'], 'Unknown option -f.'],
      // An option it does not take, a -h beside it or not (the help was printed, exit 0).
      [['--force', '-h'], 'Unknown option --force.'],
    ];
    const help = await restore('--help');
    expect([help.code, help.stderr]).toEqual([0, '']);
    expect(help.stdout).toBe(
      'Puts a backup made by db:backup in place of the SQLite database, the server stopped; the database as it was ' +
        'is kept beside it. On a terminal it asks first (--yes: it does not).\n' +
        'usage: npm run db:restore -- <backup file> [--yes]\n',
    );
    for (const [args, said] of cases) {
      const run = await restore(...args);
      expect([args, run.code, run.stdout, run.stderr]).toEqual([
        args,
        2,
        '',
        `${said}\nusage: npm run db:restore -- <backup file> [--yes]\n`,
      ]);
    }
  });

  it('refuses what is no whole backup of this release’s server, changing nothing', async () => {
    serversDatabase(database, 'current');
    const file = (name: string): string => path.join(dir.path, name);

    fs.writeFileSync(file('notes.txt'), 'not a database\n');
    fs.writeFileSync(file('empty.db'), '');
    new Database(file('blank.db')).exec('CREATE TABLE IF NOT EXISTS x (a); DROP TABLE x').close();
    new Database(file('other.db')).exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY)').close();
    serversDatabase(file('newer.db'), 'from-the-future');
    const newer = new Database(file('newer.db'));
    newer
      .prepare('INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, 0)')
      .run(RELEASE_SCHEMA_VERSION + 1, 'a step of a later release');
    newer.close();
    serversDatabase(file('branch.db'), 'branch');
    new Database(file('branch.db'))
      .exec("UPDATE schema_version SET name = 'a side branch''s step' WHERE version = 3")
      .close();
    // A page of the records' index overwritten: a file SQLite opens, which only its integrity check finds damaged.
    serversDatabase(file('damaged.db'), 'damaged');
    const damaged = new Database(file('damaged.db'));
    damaged.pragma('journal_mode = DELETE');
    damaged.exec('CREATE TABLE filler (t TEXT); CREATE INDEX filler_t ON filler (t)');
    damaged
      .prepare(
        'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO filler SELECT hex(randomblob(20)) FROM n',
      )
      .run();
    const indexPage = Number(
      damaged.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'filler_t'").pluck().get(),
    );
    damaged.close();
    const bytes = fs.readFileSync(file('damaged.db'));
    bytes.fill(0x55, (indexPage - 1) * 4096 + 200, indexPage * 4096 - 200);
    fs.writeFileSync(file('damaged.db'), bytes);
    // A server's file copied with cp while it ran: its tables were in the -wal file not copied.
    const live = new Database(file('live.db'));
    live.pragma('journal_mode = WAL');
    fs.copyFileSync(file('live.db'), file('copied.db'));
    live.close();

    const before = folderSnapshot(dir.path);
    const refusals: [string, string][] = [
      ['missing.db', `There is no file at ${file('missing.db')}.`],
      ['notes.txt', `${file('notes.txt')} does not begin with the SQLite header: it is no SQLite database`],
      ['empty.db', `${file('empty.db')} is empty: it is no SQLite database`],
      ['blank.db', `${file('blank.db')} holds no tables: it is an empty database, no backup of this server's.`],
      ['other.db', `${file('other.db')} holds tables this server does not make (invoices) and none of its own`],
      [
        'newer.db',
        `${file('newer.db')} is at schema version ${RELEASE_SCHEMA_VERSION + 1}, newer than this release knows ` +
          `(${RELEASE_SCHEMA_VERSION}): a newer release made it, and this one cannot run on it. Restore it with that ` +
          'release (or a later one), or restore a backup taken before the upgrade.',
      ],
      ['branch.db', `${file('branch.db')} records schema step 3 as "a side branch's step", but this release's step 3`],
      ['damaged.db', `${file('damaged.db')} is damaged (SQLite's integrity check: `],
      ['copied.db', `${file('copied.db')} holds no tables and says it is in WAL mode: it looks like a copy`],
      ['app.db', `${database} is the database itself: name a backup file.`],
      ['.', `${dir.path} is not a file: name the backup file db:backup wrote.`],
    ];
    for (const [name, said] of refusals) {
      const run = await restore(file(name));
      expect([name, run.code, run.stdout]).toEqual([name, 1, '']);
      expect(run.stderr).toContain(said);
      expect(run.stderr).toMatch(/ Nothing was changed\.\n$/);
      expect([name, folderSnapshot(dir.path)]).toEqual([name, before]);
    }
    expect(tenantsIn(database)).toEqual(['current']);
  });

  it('puts the backup in place, keeping the database as it was, whole, beside it', async () => {
    serversDatabase(database, 'current');
    const backup = path.join(dir.path, 'backup.db');
    serversDatabase(backup, 'backed-up');
    const backupBytes = fs.readFileSync(backup);
    // Left by a server killed with kill -9: its last writes are in the -wal only.
    const killed = new Database(database);
    killed.prepare("INSERT INTO tenants (id, name) VALUES ('in-the-log', 'x')").run();
    fs.copyFileSync(database, `${database}.saved`);
    fs.copyFileSync(`${database}-wal`, `${database}.saved-wal`);
    killed.close();
    fs.renameSync(`${database}.saved`, database);
    fs.renameSync(`${database}.saved-wal`, `${database}-wal`);

    // Run as root, the restored file is the server's user's, as the database was: one of root's, mode 0600, the
    // server could not open.
    const asRoot = process.getuid?.() === 0;
    if (asRoot) fs.chownSync(database, 1000, 1000);

    const run = await restore(backup);
    expect([run.code, run.stderr]).toEqual([0, '']);
    if (asRoot) expect([fs.statSync(database).uid, fs.statSync(database).gid]).toEqual([1000, 1000]);
    const kept = fs.readdirSync(dir.path).find((name) => name.startsWith('app.db.before-restore-'));
    expect(kept).toMatch(/^app\.db\.before-restore-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ$/);
    expect(run.stdout).toBe(
      `Restored ${backup} to SQLite ${database} (schema ${RELEASE_SCHEMA_VERSION}, 0 accounts, 0 records).\n` +
        `The database as it was is kept in ${path.join(dir.path, kept ?? '')}; delete it once the restore is checked.\n` +
        `Start the server and check its log. Sessions go on only with the ${path.join(dir.path, 'session-secret')} ` +
        'of the installation the backup was made on; without it, each ends.\n',
    );
    // No -wal of the old file is left to be replayed onto the restored one, and no copy of the restore's.
    expect(fs.readdirSync(dir.path).sort()).toEqual(['app.db', kept, 'backup.db']);
    expect(tenantsIn(database)).toEqual(['backed-up']);
    expect(tenantsIn(path.join(dir.path, kept ?? ''))).toEqual(['current', 'in-the-log']);
    expect(fs.readFileSync(backup).equals(backupBytes)).toBe(true);
    expect(fs.statSync(database).mode & 0o777).toBe(0o600);
  });

  it('takes a backup of an older schema and says the next start migrates it', async () => {
    const backup = path.join(dir.path, 'old.db');
    serversDatabase(backup, 'old', { version: 14 });
    // No database yet (a new machine): the backup becomes it.
    const run = await restore(backup);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toContain(
      `The backup is at schema 14, older than this release's (${RELEASE_SCHEMA_VERSION}): the next start migrates ` +
        'it. Until then, the other commands of this release refuse it.\n',
    );
    expect(run.stdout).not.toContain('kept in');
    expect(fs.readdirSync(dir.path).sort()).toEqual(['app.db', 'old.db']);
    expect(tenantsIn(database)).toEqual(['old']);
  });

  it('refuses a database folder other users may change, where they could take the copies it writes', async () => {
    const shared = path.join(dir.path, 'shared');
    fs.mkdirSync(shared);
    fs.chmodSync(shared, 0o777);
    database = path.join(shared, 'app.db');
    serversDatabase(database, 'current');
    const backup = path.join(dir.path, 'backup.db');
    serversDatabase(backup, 'backed-up');
    const run = await restore(backup);
    expect([run.code, run.stdout]).toEqual([1, '']);
    expect(run.stderr).toBe(
      `A restore writes the backup's copy and keeps the database as it was in ${shared}, which is not safe for ` +
        `them: The folder ${shared} (mode 0777, group ${fs.statSync(shared).gid}) may be changed by other users, who ` +
        "could take the backup (password hashes and sessions) as it is written. Let only the server's user (and " +
        'root) change that folder and those above it. Nothing was changed.\n',
    );
    expect(fs.readdirSync(shared)).toEqual(['app.db']);
  });

  it('refuses, where there is no database, a -wal left there that SQLite would replay onto the backup', async () => {
    const backup = path.join(dir.path, 'backup.db');
    serversDatabase(backup, 'backed-up');
    fs.writeFileSync(`${database}-wal`, 'left');
    const run = await restore(backup);
    expect([run.code, run.stdout]).toEqual([1, '']);
    expect(run.stderr).toBe(
      `${database}-wal is there without the database SQLite ${database}: SQLite would take them for the restored ` +
        "file's own and replay them onto it. Move them away first. Nothing was changed.\n",
    );
    expect(fs.readdirSync(dir.path).sort()).toEqual(['app.db-wal', 'backup.db']);
  });

  it('replaces a damaged database, kept as it was with its -wal and -shm', async () => {
    fs.writeFileSync(database, 'garbage that was a database');
    fs.writeFileSync(`${database}-wal`, 'its log');
    fs.writeFileSync(`${database}-shm`, 'its index');
    const backup = path.join(dir.path, 'backup.db');
    serversDatabase(backup, 'backed-up');
    const run = await restore(backup);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toContain(
      'The database as it was (damaged: it does not begin with the SQLite header; kept as it was)',
    );
    const kept = fs.readdirSync(dir.path).find((name) => /^app\.db\.before-restore-[^-]+-[^-]+-[\dTZ-]+$/.test(name));
    expect(fs.readdirSync(dir.path).sort()).toEqual(['app.db', kept, `${kept}-shm`, `${kept}-wal`, 'backup.db']);
    expect(fs.readFileSync(path.join(dir.path, `${kept}-wal`), 'utf8')).toBe('its log');
    expect(tenantsIn(database)).toEqual(['backed-up']);
  });

  it('replaces an empty (0-byte) file at the database path, kept, and says it was empty', async () => {
    fs.writeFileSync(database, '');
    const backup = path.join(dir.path, 'backup.db');
    serversDatabase(backup, 'backed-up');
    const run = await restore(backup, '--yes');
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toContain('The database as it was (damaged: it is empty (0 bytes); kept as it was) is kept in ');
    const kept = fs.readdirSync(dir.path).find((name) => name.startsWith('app.db.before-restore-')) as string;
    expect(fs.readdirSync(dir.path).sort()).toEqual(['app.db', kept, 'backup.db']);
    expect(fs.statSync(path.join(dir.path, kept)).size).toBe(0);
    expect(tenantsIn(database)).toEqual(['backed-up']);
  });
});

describe('npm run db:restore, cut short', () => {
  it('by Ctrl-C, removes its copy and leaves the database as it was', async () => {
    serversDatabase(database, 'current');
    const backup = path.join(dir.path, 'backup.db');
    serversDatabase(backup, 'backed-up');
    const padded = new Database(backup);
    padded.exec('CREATE TABLE padding (id INTEGER PRIMARY KEY, bytes BLOB)');
    padded
      .prepare(
        'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) ' +
          'INSERT INTO padding (bytes) SELECT zeroblob(4000) FROM n',
      )
      .run(150 * 256);
    padded.close();
    const before = folderSnapshot(dir.path);

    const child = spawn(process.execPath, ['--enable-source-maps', commands.file('db-restore.ts'), backup], {
      cwd: commands.root,
      env: { ...process.env, DATABASE_URL: '', DATABASE_PATH: database },
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const ended = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('close', (_code, signal) => resolve(signal)),
    );
    const started = (): boolean => fs.readdirSync(dir.path).some((name) => name.includes('.restoring-'));
    while (!started() && child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 5));
    child.kill('SIGINT');
    expect({ signal: await ended, stdout }).toEqual({ signal: 'SIGINT', stdout: '' });
    expect(folderSnapshot(dir.path)).toEqual(before);
  });
});
