import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { AppDatabase } from './app-database';
import { migrate, SchemaTooNewError } from './migrate';
import { MIGRATIONS, type Migration } from './migrations';

describe('AppDatabase', () => {
  let dir: TempDir;

  beforeEach(() => {
    dir = makeTempDir();
  });

  afterEach(() => {
    dir.remove();
  });

  it('creates missing folders, the file and the schema, in WAL mode with foreign keys on', () => {
    const file = path.join(dir.path, 'nested', 'deeper', 'app.db');
    const database = AppDatabase.open(file);
    try {
      expect(database.db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(database.db.pragma('foreign_keys', { simple: true })).toBe(1);
      const tables = database.db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .pluck()
        .all() as string[];
      expect(tables).toEqual(
        expect.arrayContaining(['memberships', 'records', 'schema_version', 'sessions', 'tenants', 'users']),
      );
      const versions = database.db.prepare('SELECT version FROM schema_version ORDER BY version').pluck().all();
      expect(versions).toEqual(MIGRATIONS.map((migration) => migration.version));
    } finally {
      database.close();
    }
  });

  it("opens SQLite's :memory: in memory, leaving no file named so where the process runs", () => {
    const stray = path.resolve(':memory:');
    const strayBefore = fs.existsSync(stray);
    const database = AppDatabase.open(':memory:');
    try {
      expect(database.db.memory).toBe(true);
      expect(database.appliedSteps).toEqual(MIGRATIONS.map((step) => step.version));
      expect(fs.existsSync(stray)).toBe(strayBefore);
    } finally {
      database.db.close();
      if (!strayBefore) fs.rmSync(stray, { force: true });
    }
  });

  it('keeps the database to its owner: a folder it creates 0700, the file and its -wal and -shm 0600', () => {
    const folder = path.join(dir.path, 'data');
    const file = path.join(folder, 'app.db');
    const database = AppDatabase.open(file);
    try {
      database.db.prepare("INSERT INTO tenants (id, name) VALUES ('t1', 'T1')").run();
      const mode = (name: string) => fs.statSync(name).mode & 0o777;
      expect(mode(folder)).toBe(0o700);
      for (const name of [file, `${file}-wal`, `${file}-shm`]) expect(mode(name).toString(8)).toBe('600');
    } finally {
      database.close();
    }
  });

  it('takes group and world access away from a database an older start left readable', () => {
    const file = path.join(dir.path, 'app.db');
    AppDatabase.open(file).close();
    fs.chmodSync(file, 0o644);
    AppDatabase.open(file).close();
    expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('600');
  });

  it('reopens an existing file without applying anything twice, keeping the data', () => {
    const file = path.join(dir.path, 'app.db');
    const first = AppDatabase.open(file);
    first.db.prepare("INSERT INTO tenants (id, name) VALUES ('t', 'T')").run();
    first.close();
    const second = AppDatabase.open(file);
    try {
      expect(second.db.prepare('SELECT COUNT(*) FROM schema_version').pluck().get()).toBe(MIGRATIONS.length);
      expect(second.db.prepare('SELECT name FROM tenants').pluck().get()).toBe('T');
    } finally {
      second.close();
    }
  });

  it("refuses another application's database file without changing it: its mode, its journal, its tables", () => {
    const file = path.join(dir.path, 'invoices.db');
    const other = new Database(file);
    other.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)');
    other.close();
    fs.chmodSync(file, 0o644);
    const before = fs.readFileSync(file);
    expect(() => AppDatabase.open(file)).toThrow(
      `SQLite ${file} holds tables this server does not make (invoices) and none of its own: it belongs to ` +
        'something else. Nothing was written to it. Point DATABASE_PATH at a file of its own (a new path); the ' +
        'server creates its tables there.',
    );
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('644');
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
  });

  it('names the file and DATABASE_PATH when the file is no database', () => {
    const file = path.join(dir.path, 'notes.txt');
    fs.writeFileSync(file, 'not a database, but long enough to be read as one '.repeat(20));
    expect(() => AppDatabase.open(file)).toThrow(
      `The file ${file} is not a SQLite database (file is not a database): point DATABASE_PATH at this server's ` +
        'database, or at a new path to start afresh. Nothing was written to it.',
    );
  });

  it('names a damaged file and the way back, where SQLite said only "database disk image is malformed"', () => {
    const whole = path.join(dir.path, 'whole.db');
    AppDatabase.open(whole).close();
    const file = path.join(dir.path, 'app.db');
    fs.writeFileSync(file, fs.readFileSync(whole).subarray(0, Math.floor(fs.statSync(whole).size / 2)));
    expect(() => AppDatabase.open(file)).toThrow(
      `SQLite ${file} is damaged (SQLite: database disk image is malformed). Keep it as it is, with the -wal ` +
        'file beside it if there is one, and restore the last backup (docs/operators/README.md#backup-and-restore).',
    );
  });

  it('refuses a database whose schema is newer than the server', () => {
    const file = path.join(dir.path, 'app.db');
    AppDatabase.open(file).close();
    const raw = new Database(file);
    raw.prepare("INSERT INTO schema_version (version, name, applied_at) VALUES (999, 'from the future', 0)").run();
    raw.close();
    expect(() => AppDatabase.open(file)).toThrow(SchemaTooNewError);
    expect(() => AppDatabase.open(file)).toThrow(
      `SQLite ${path.resolve(file)} is at schema version 999, newer than this server knows ` +
        `(${MIGRATIONS.at(-1)?.version}). Nothing was written to it. Run a newer server,`,
    );
  });

  it("leaves a newer release's backup byte for byte as it was when refusing it (a backup is not in WAL mode)", () => {
    const file = path.join(dir.path, 'backup.db');
    const raw = new Database(file);
    migrate(raw, MIGRATIONS);
    raw.prepare("INSERT INTO schema_version (version, name, applied_at) VALUES (999, 'from the future', 0)").run();
    expect(raw.pragma('journal_mode', { simple: true })).toBe('delete');
    raw.close();
    const bytes = fs.readFileSync(file);
    // An older release started on it: the refusal used to set WAL mode first, rewriting the header's journal mode.
    expect(() => AppDatabase.open(file)).toThrow(SchemaTooNewError);
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);
    expect(fs.readdirSync(dir.path)).toEqual(['backup.db']);
  });

  it('reads the turn change stamp once per event-loop turn: local writes show at once, other commits next turn', async () => {
    const file = path.join(dir.path, 'app.db');
    const database = AppDatabase.open(file);
    const other = new Database(file);
    try {
      const initial = database.turnChangeStamp();
      expect(database.turnChangeStamp()).toBe(initial);
      database.noteWrite();
      const afterLocal = database.turnChangeStamp();
      expect(afterLocal).not.toBe(initial);
      other.prepare("INSERT INTO tenants (id, name) VALUES ('x', 'X')").run();
      // Same turn: SQLite is not asked again.
      expect(database.turnChangeStamp()).toBe(afterLocal);
      await new Promise((resolve) => setImmediate(resolve));
      const afterOther = database.turnChangeStamp();
      expect(afterOther).not.toBe(afterLocal);
      expect(afterOther).toBe(database.changeStamp());
    } finally {
      other.close();
      database.close();
    }
  });

  it("refuses a copy of a running server's file taken without its -wal file, which held every table", () => {
    const live = path.join(dir.path, 'live.db');
    const server = new Database(live);
    server.pragma('journal_mode = WAL');
    // A server's first minutes, or any time before a checkpoint: what it wrote is in live.db-wal.
    server.pragma('wal_autocheckpoint = 0');
    migrate(server, MIGRATIONS);
    const copy = path.join(dir.path, 'restored', 'app.db');
    fs.mkdirSync(path.dirname(copy));
    fs.copyFileSync(live, copy);
    const bytes = fs.readFileSync(copy);
    // Opened, it became a new, empty installation: the demo made a new admin password, an application started empty.
    expect(() => AppDatabase.open(copy)).toThrow(
      `SQLite ${copy} holds no tables, yet says it is in WAL mode and has no -wal file beside it: it looks ` +
        "like a copy of a server's file taken while the server ran (with cp), without the -wal file that held its " +
        'data. Nothing was written to it.',
    );
    expect(fs.readdirSync(path.dirname(copy))).toEqual(['app.db']);
    expect(fs.readFileSync(copy).equals(bytes)).toBe(true);
    // The server's own file, its -wal file beside it, opens: whatever it holds is there.
    const same = AppDatabase.open(live);
    expect(same.appliedSteps).toEqual([]);
    same.close();
    server.close();
  });

  it('moves the change stamp on local writes and on commits of another connection', () => {
    const file = path.join(dir.path, 'app.db');
    const database = AppDatabase.open(file);
    const other = new Database(file);
    try {
      const initial = database.changeStamp();
      expect(database.changeStamp()).toBe(initial);
      database.noteWrite();
      const afterLocal = database.changeStamp();
      expect(afterLocal).not.toBe(initial);
      other.prepare("INSERT INTO tenants (id, name) VALUES ('x', 'X')").run();
      expect(database.changeStamp()).not.toBe(afterLocal);
    } finally {
      other.close();
      database.close();
    }
  });
});

describe('migrate', () => {
  const steps: Migration[] = [
    { version: 1, name: 'a', sql: 'CREATE TABLE a (x INTEGER)' },
    { version: 2, name: 'b', sql: 'CREATE TABLE b (y INTEGER)' },
  ];

  it('applies the steps in order, once, and reports which it applied', () => {
    const db = new Database(':memory:');
    expect(migrate(db, steps.slice(0, 1))).toEqual([1]);
    expect(migrate(db, steps)).toEqual([2]);
    expect(migrate(db, steps)).toEqual([]);
    db.close();
  });

  it('rolls a failing step back entirely and keeps the version where it was', () => {
    const db = new Database(':memory:');
    const broken: Migration[] = [
      ...steps,
      { version: 3, name: 'broken', sql: 'CREATE TABLE c (z); SELECT * FROM nowhere' },
    ];
    expect(() => migrate(db, broken)).toThrow(/no such table: nowhere/);
    expect(db.prepare('SELECT MAX(version) FROM schema_version').pluck().get()).toBe(2);
    expect(db.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name = 'c'").pluck().get()).toBe(0);
    db.close();
  });

  it('refuses versions that do not increase', () => {
    const db = new Database(':memory:');
    expect(() => migrate(db, [steps[1] as Migration, steps[0] as Migration])).toThrow(/versions must increase/);
    db.close();
  });
});
