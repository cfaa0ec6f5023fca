/**
 * db:backup pointed at a file it cannot back up: one line naming that file and what it is, exit 1, and nothing left
 * behind (no backup, no partial copy, no copy in the temporary folder). SQLite's words alone (`file is not a
 * database`, `no such table: schema_version`) named no file, and a folder left its temporary copy behind.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { runServerCommand } from '../../testing/server/run-server-command';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { migrate } from './migrate';
import { MIGRATIONS } from './migrations';

jest.setTimeout(60_000);

describe('db:backup of a file that is no database of this server', () => {
  let dir: TempDir;
  let tmp: string;
  beforeEach(() => {
    dir = makeTempDir('slots-backup-sources-');
    tmp = path.join(dir.path, 'tmp');
    fs.mkdirSync(tmp);
    fs.mkdirSync(path.join(dir.path, 'backups'));
  });
  afterEach(() => dir.remove());

  /** Backs `source` up into backups/, checks that nothing was left anywhere, and answers what it said. */
  async function refusal(source: string): Promise<string> {
    const run = await runServerCommand('db-backup.ts', [path.join(dir.path, 'backups', 'backup.db')], {
      DATABASE_URL: '',
      DATABASE_PATH: source,
      TMPDIR: tmp,
    });
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 1, stdout: '' });
    expect(fs.readdirSync(path.join(dir.path, 'backups'))).toEqual([]);
    // tsx keeps its cache in TMPDIR too.
    expect(fs.readdirSync(tmp).filter((name) => name.startsWith('slots-backup-'))).toEqual([]);
    return run.stderr.trim();
  }

  it('a copy of the server file taken with cp while it ran, without its -wal file (the data is in that file)', async () => {
    const live = path.join(dir.path, 'live.db');
    const server = new Database(live);
    server.pragma('journal_mode = WAL');
    // As a server's first minutes: nothing checkpointed yet, every page is in live.db-wal.
    server.pragma('wal_autocheckpoint = 0');
    migrate(server, MIGRATIONS);
    const copy = path.join(dir.path, 'copied.db');
    fs.copyFileSync(live, copy);
    server.close();
    expect(await refusal(copy)).toBe(
      `${copy} holds no tables: it is no database of this server. A copy of the server's file taken with cp while ` +
        "the server ran, without the -wal file beside it, looks so (the data was in that -wal file): back up the server's " +
        'own file with db:backup instead. Nothing was written.',
    );
  });

  it('a file that is no SQLite database, a damaged one, a folder, another application’s database', async () => {
    const text = path.join(dir.path, 'notes.db');
    fs.writeFileSync(text, 'not a database\n'.repeat(100));
    expect(await refusal(text)).toBe(
      `${text} is not a SQLite database (SQLite: file is not a database). Nothing was written.`,
    );

    const whole = path.join(dir.path, 'whole.db');
    const db = new Database(whole);
    migrate(db, MIGRATIONS);
    db.close();
    const damaged = path.join(dir.path, 'damaged.db');
    fs.writeFileSync(damaged, fs.readFileSync(whole).subarray(0, Math.floor(fs.statSync(whole).size / 2)));
    expect(await refusal(damaged)).toMatch(
      new RegExp(`^${damaged.replaceAll('.', '\\.')} is damaged \\(SQLite: .+\\): no backup was made of it\\. `),
    );

    const folder = path.join(dir.path, 'data');
    fs.mkdirSync(folder);
    expect(await refusal(folder)).toBe(
      `${folder} is a folder, not a SQLite database file: set DATABASE_PATH to the database file. Nothing was written.`,
    );

    const foreign = path.join(dir.path, 'crm.db');
    const other = new Database(foreign);
    other.exec('CREATE TABLE customers (id INTEGER PRIMARY KEY); CREATE TABLE invoices (id INTEGER PRIMARY KEY)');
    other.close();
    expect(await refusal(foreign)).toBe(
      `${foreign} holds tables this server does not make (customers, invoices) and none of its own: it belongs to ` +
        'something else. Nothing was written.',
    );
  });
});
