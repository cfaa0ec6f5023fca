import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { compileServerCommands, type CompiledServerCommands } from '../../testing/server/compiled-server-commands';
import { describeWithPostgres, usePostgresDatabases, withPostgresClient } from '../../testing/server/postgres-server';
import { migrate } from '../storage/migrate';
import { MIGRATIONS, POSTGRES_MIGRATIONS, RELEASE_SCHEMA_VERSION } from '../storage/migrations';
import { migratePostgres } from '../storage/postgres-migrate';

jest.setTimeout(60_000);

// The commands compiled once, run as their npm scripts run them: node starts them in a fraction of tsx's time, and
// this file starts them nineteen times, one on PostgreSQL.
let commands: CompiledServerCommands;
beforeAll(async () => {
  commands = await compileServerCommands();
});
afterAll(() => commands?.remove());

/**
 * A DATABASE_PATH mistyped or forgotten: the commands that change an installation refuse a file that is not there
 * rather than make an empty database and change it (a token, a flag, a reload no server sees, said to succeed).
 */
describe('a command pointed at no database', () => {
  let dir: TempDir;
  let file: string;
  beforeEach(() => {
    dir = makeTempDir('slots-no-database-');
    file = path.join(dir.path, 'typo.db');
  });
  afterEach(() => dir.remove());

  it.each([
    ['team-token.ts', ['add', 'team_marketing']],
    ['team-token.ts', ['revoke', '0123456789ab']],
    ['feature-flag.ts', ['set', 'beta', 'on']],
    ['remotes-reload.ts', []],
    ['user-access.ts', ['disable', 'ann']],
    ['user-permission.ts', ['show', 'ann']],
  ])('%s %j is refused, exit 1, and makes no file', async (script, args) => {
    const run = await commands.run(script, args, { DATABASE_PATH: file });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`There is no SQLite database at ${file}: the server makes it at its first start.`);
    expect(run.stdout).toBe('');
    expect(existsSync(file)).toBe(false);
  });

  // A folder was answered with `EISDIR: illegal operation on a directory, read`, and three commands named their
  // failure as no npm script is named ("user access change failed", "token change failed", "feature flag change").
  it.each([
    ['user:disable', 'user-access.ts', ['disable', 'ann']],
    ['token:list', 'team-token.ts', ['list']],
    ['flag', 'feature-flag.ts', ['list']],
    ['user:list', 'user-list.ts', []],
    ['tenant:add', 'tenant-add.ts', ['acme']],
  ])('%s on a folder says so, named as the npm script, exit 1', async (name, script, args) => {
    mkdirSync(file);
    const run = await commands.run(script, args, { DATABASE_PATH: file, DATABASE_URL: '' });
    expect([run.code, run.stdout, run.stderr]).toEqual([
      1,
      '',
      `${name} failed: ${file} is a folder, not a SQLite database file: set DATABASE_PATH to the server's database ` +
        'file (the folder and the file name, e.g. ./data/app.db). Nothing was changed.\n',
    ]);
    expect(readdirSync(file)).toEqual([]);
  });

  // An empty file (touched, or a copy that failed) is no database either: SQLite would make a new one in it.
  it.each([
    ['tenant-list.ts', []],
    ['user-access.ts', ['disable', 'ann']],
  ])('%s %j on an empty file is refused, exit 1, and leaves it empty', async (script, args) => {
    writeFileSync(file, '');
    const run = await commands.run(script, args, { DATABASE_PATH: file, DATABASE_URL: '' });
    expect([run.code, run.stdout]).toEqual([1, '']);
    expect(run.stderr).toContain(
      `There is no SQLite database at ${file} (an empty file, 0 bytes): the server makes it at its first start.`,
    );
    expect(statSync(file).size).toBe(0);
  });

  it('user:add makes it in an empty file too, and says so', async () => {
    writeFileSync(file, '');
    const run = await commands.run('user-add.ts', ['ada'], { DATABASE_PATH: file }, 'ada-password-1234\n');
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      `Made a new database at SQLite ${file} (an empty file, 0 bytes): no server has used it yet.`,
    );
  });

  it('user:add makes it (an installation set up before its first start), and says so', async () => {
    const run = await commands.run('user-add.ts', ['ada'], { DATABASE_PATH: file }, 'ada-password-1234\n');
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`Made a new database at SQLite ${file}: no server has used it yet.`);
    expect(existsSync(file)).toBe(true);
  });
});

/**
 * A newer checkout's command run against the live database before the new server has started on it: it used to
 * migrate the file silently under the old server, which then refused to restart, and the backup taken after it was
 * already migrated.
 */
describe('a command pointed at a database of an older release', () => {
  const OLDER = RELEASE_SCHEMA_VERSION - 3;
  let dir: TempDir;
  let file: string;
  beforeEach(() => {
    dir = makeTempDir('slots-older-database-');
    file = path.join(dir.path, 'app.db');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    migrate(
      db,
      MIGRATIONS.filter((step) => step.version <= OLDER),
    );
    db.close();
  });
  afterEach(() => dir.remove());

  const schemaOf = (): number => {
    const db = new Database(file, { readonly: true });
    try {
      return Number(db.prepare('SELECT max(version) FROM schema_version').pluck().get());
    } finally {
      db.close();
    }
  };

  it.each([
    ['user-list.ts', []],
    ['user-add.ts', ['ada']],
    ['team-token.ts', ['list']],
  ])('%s %j refuses it, naming both schema versions, and leaves it as it was', async (script, args) => {
    const run = await commands.run(script, args, { DATABASE_PATH: file }, 'ada-password-1234\n');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `SQLite ${file} is at schema version ${OLDER}, older than this release's (${RELEASE_SCHEMA_VERSION}).`,
    );
    expect(run.stderr).toContain("start this release's server on it (docs/operators/upgrade.md)");
    expect(run.stderr).toContain('npm run db:backup');
    expect(run.stdout).toBe('');
    // Before schemaOf's read-only connection, which makes them: nothing looks as if a server ran on the file.
    expect(existsSync(`${file}-wal`)).toBe(false);
    expect(schemaOf()).toBe(OLDER);
  });
});

/** The same on PostgreSQL, where a workstation's newer checkout would migrate the database under every old host. */
describeWithPostgres()('a command pointed at a PostgreSQL database of an older release', () => {
  const OLDER = RELEASE_SCHEMA_VERSION - 3;
  const postgres = usePostgresDatabases('older_release', { poolSize: 2, statementTimeoutMs: 5000 });

  it('user:list refuses it, naming both schema versions, and leaves it as it was', async () => {
    const storage = await postgres.create();
    const schemaOf = (): Promise<number> =>
      withPostgresClient(storage.url, async (client) => {
        const { rows } = await client.query<{ version: number }>('SELECT max(version) AS version FROM schema_version');
        return Number(rows[0]?.version);
      });
    await withPostgresClient(storage.url, async (client) => {
      await migratePostgres(
        client,
        POSTGRES_MIGRATIONS.filter((step) => step.version <= OLDER),
      );
    });

    const run = await commands.run('user-list.ts', [], { DATABASE_URL: storage.url, DATABASE_PATH: '' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `is at schema version ${OLDER}, older than this release's (${RELEASE_SCHEMA_VERSION}).`,
    );
    expect(run.stdout).toBe('');
    expect(await schemaOf()).toBe(OLDER);
  });
});
