/**
 * `npm run db:copy` as an operator runs it (a real process) from a demo installation's SQLite file into a real
 * PostgreSQL database, then the app started on PostgreSQL: same accounts and passwords, same sessions, same records
 * and ids, every table row for row.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import type { MePayload } from '../../shared';
import { describeWithPostgres, usePostgresDatabases } from '../../testing/server/postgres-server';
import { runServerCommand, type CommandRun } from '../../testing/server/run-server-command';
import {
  createDemoApp,
  createTestApp,
  DEMO_PASSWORD,
  sessionCookieOf,
  signedInAgent,
  type TestApp,
} from '../../testing/server/test-app';
import { makeTempDir } from '../../testing/temp-dir';
import { COPIED_TABLES, TABLES_NOT_COPIED } from './copy-to-postgres';
import { migrate } from './migrate';
import { MIGRATIONS } from './migrations';
import { registerSqliteSortFold } from './sort-fold';
import { BIGINT_AS_NUMBER, PostgresEngine } from './postgres-engine';
import { SqliteEngine } from './sqlite-engine';

jest.setTimeout(120_000);

function copy(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CommandRun> {
  return runServerCommand('db-copy.ts', args, { DATABASE_URL: '', DATABASE_PATH: '', ...env });
}

/** Every row of a table, in a stable order, as plain values (PostgreSQL's and SQLite's drivers agree on numbers). */
async function rowsOf(read: (query: string) => Promise<Record<string, unknown>[]>, table: string, key: string) {
  return read(`SELECT * FROM ${table} ORDER BY ${key}`);
}

const ORDER_KEYS: Record<(typeof COPIED_TABLES)[number], string> = {
  users: 'id',
  tenants: 'id',
  memberships: 'user_id, tenant_id',
  user_permissions: 'user_id, permission',
  records: 'id',
  deleted_records: 'id',
  deleted_record_deleters: 'record_id',
  remote_releases: 'id',
  remote_rollouts: 'remote',
  remote_rollout_plans: 'remote',
  remote_tokens: 'id',
  remote_audit: 'id',
  remote_config_reloads: 'id',
  slot_load_stats: 'span, start_at, remote',
  slot_load_anonymous_stats: 'span, start_at, remote',
  slot_load_visitors: 'span, start_at, visitor',
  feature_flags: 'name, tenant',
  placement_revisions: 'number',
  placement_draft: 'only_row',
  placement_audit: 'id',
};

describeWithPostgres()('npm run db:copy (SQLite to PostgreSQL)', () => {
  const postgres = usePostgresDatabases('copy', { poolSize: 5, statementTimeoutMs: 5000 });

  it('names every SQLite table: copied, or left behind with a reason (a new migration must choose)', () => {
    const dir = makeTempDir('slots-copy-tables-');
    try {
      const engine = SqliteEngine.open(path.join(dir.path, 'app.db'));
      const tables = engine.file.db
        .prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .pluck()
        .all();
      void engine.close();
      const named = new Set<string>([...COPIED_TABLES, ...Object.keys(TABLES_NOT_COPIED)]);
      expect(tables.filter((table) => !named.has(table))).toEqual([]);
    } finally {
      dir.remove();
    }
  });

  it('carries a demo installation over whole: rows, ids, passwords, live sessions, search, and new ids after the old', async () => {
    const sqlite = await createDemoApp();
    let postgresApp: TestApp | undefined;
    try {
      const { app } = sqlite;
      const signedIn = await request(app.handler).post('/login').send({ username: 'admin', password: DEMO_PASSWORD });
      const cookie = sessionCookieOf(signedIn)!;
      // A record deleted (kept restorable with its id) and one deleted for good: neither id may come back.
      const kept = await app.records.insert('acme', 'authors', { title: 'Kept Author' });
      const restorable = await app.records.insert('acme', 'authors', { title: 'Restorable Author' });
      const admin = await app.users.findByUsername('admin');
      await app.records.delete('acme', 'authors', restorable.id, { deletedBy: admin!.id });
      const highest = await app.records.insert('acme', 'authors', { title: 'Highest Author' });
      const file = new Database(sqlite.databasePath);
      file.prepare('DELETE FROM records WHERE id = ?').run(highest.id);
      // The tables the demo leaves empty, filled as their features would (a release, its rollout and audit, a
      // token, a reload request, a minute of slot loads, a flag, a published placement revision and its draft).
      file.exec(`
        INSERT INTO remote_releases (remote, version, entry, descriptor, published_by, published_at)
          VALUES ('team_records', '1.2.0', 'https://cdn.example/remoteEntry.js', '{"components":[]}', 'ci', 1700000000000);
        INSERT INTO remote_rollouts (remote, active_version, canary_version, canary_percent, canary_tenants, updated_at)
          VALUES ('team_records', '1.2.0', NULL, 0, '[]', 1700000000001);
        INSERT INTO remote_rollout_plans (remote, version, steps, step, state, step_started_at, started_by, started_at,
            reason, revision)
          VALUES ('team_records', '1.2.0', '[{"share":5,"minutes":10,"visitors":0},{"share":100,"minutes":0,"visitors":0}]',
            1, 'done', 1700000000009, 'admin', 1700000000001, NULL, 2);
        INSERT INTO remote_tokens (id, remote, hash, created_at, expires_at, revoked_at)
          VALUES ('tok1', 'team_records', 'abc123', 1700000000002, NULL, NULL);
        INSERT INTO remote_audit (remote, action, actor, at, before, after)
          VALUES ('team_records', 'activate', 'admin', 1700000000003, 'null', '{"active":"1.2.0"}');
        INSERT INTO remote_config_reloads (requested_at) VALUES (1700000000004);
        INSERT INTO slot_load_stats VALUES ('minute', 1700000000000, 'team_records', '1.2.0', 'dashboard.widgets',
          'Chart', 5, 1, 0, 0, 0, 0, 0, 0, 1, 3, 2, 0, 0, 0, 0, 0, 1, 0);
        INSERT INTO slot_load_anonymous_stats (span, start_at, remote, release, location, component, rendered)
          VALUES ('minute', 1700000000000, 'team_records', '1.2.0', 'header-banner', 'Chart', 2);
        INSERT INTO slot_load_visitors VALUES ('minute', 1700000000000, 'team_records', '1.2.0', 'dashboard.widgets',
          'Chart', 'staff', '0123456789abcdef', 1, 1);
        INSERT INTO feature_flags (name, tenant, enabled, updated_at) VALUES ('beta', 'acme', 1, 1700000000005);
        INSERT INTO placement_revisions (number, document, action, restored, published_by, published_at)
          VALUES (1, '{"slots":[]}', 'publish', NULL, 'admin', 1700000000006);
        INSERT INTO placement_draft (only_row, document, updated_by, updated_at)
          VALUES (1, '{"slots":[]}', 'admin', 1700000000007);
        INSERT INTO user_permissions (user_id, permission) SELECT id, 'releases:manage' FROM users;
        INSERT INTO placement_audit (action, actor, at, revision, before, after)
          VALUES ('publish', 'admin', 1700000000008, 1, 'null', '{"slots":[]}');
      `);
      file.close();
      const tenantsBefore = (await app.tenants.list()).map((tenant) => tenant.id);
      await sqlite.close({ keepData: true });

      const storage = await postgres.create();
      const run = await copy(['--from', sqlite.databasePath, '--to', storage.url]);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/records \d+, deleted_records 1, deleted_record_deleters 1,/);
      expect(run.stdout).toMatch(/sessions 1 /);
      expect(run.stdout).toMatch(/Indexed the words of \d+ records/);

      // Row for row, every copied table.
      const source = new Database(sqlite.databasePath, { readonly: true });
      const client = new Client({ connectionString: storage.url, types: BIGINT_AS_NUMBER });
      await client.connect();
      try {
        for (const table of COPIED_TABLES) {
          const expected = await rowsOf(
            async (query) => source.prepare(query).all() as never,
            table,
            ORDER_KEYS[table],
          );
          const actual = await rowsOf(
            async (query) => (await client.query(query)).rows as Record<string, unknown>[],
            table,
            ORDER_KEYS[table],
          );
          // PostgreSQL's own column (the tenants' creation sequence) is not SQLite's.
          const comparable = actual.map(({ created_seq: _sequence, ...row }) => row);
          expect({ table, rows: comparable }).toEqual({ table, rows: expected });
          expect({ table, copied: expected.length > 0 }).toEqual({ table, copied: true });
        }
        const words = await client.query<{ count: string }>('SELECT count(*) AS count FROM record_words');
        const records = await client.query<{ count: string }>('SELECT count(*) AS count FROM records');
        expect(words.rows[0]!.count).toBe(records.rows[0]!.count);
      } finally {
        await client.end();
        source.close();
      }

      postgresApp = await createTestApp({ storage });
      const { app: moved } = postgresApp;
      // The session made on SQLite is still signed in; the password still signs in.
      const me = await request(moved.handler).get('/me').set('Cookie', cookie);
      expect(me.status).toBe(200);
      expect((me.body as MePayload).user?.username).toBe('admin');
      await signedInAgent(moved, 'admin', DEMO_PASSWORD);
      // Tenants in their creation order; records by their ids; new ids after every id SQLite handed out.
      expect((await moved.tenants.list()).map((tenant) => tenant.id)).toEqual(tenantsBefore);
      expect(tenantsBefore.length).toBeGreaterThan(1);
      expect((await moved.records.get('acme', 'authors', kept.id))?.title).toBe('Kept Author');
      expect((await moved.records.restore('acme', 'authors', restorable.id))?.id).toBe(restorable.id);
      const next = await moved.records.insert('acme', 'authors', { title: 'Made on PostgreSQL' });
      expect(next.id).toBe(highest.id + 1);
    } finally {
      await postgresApp?.close();
      sqlite.dir.remove();
    }
  });

  it('refuses a PostgreSQL database that already holds data, naming it, and changes nothing', async () => {
    const sqlite = await createDemoApp();
    const storage = await postgres.create();
    const first = await createTestApp({ storage });
    await first.app.tenants.save({ id: 'other', name: 'Other' });
    await first.close();
    try {
      await sqlite.close({ keepData: true });
      const run = await copy(['--from', sqlite.databasePath], { DATABASE_URL: storage.url });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/already holds data \(.*tenants 1.*\): copy into a new database .*Nothing was copied/);
      const client = new Client({ connectionString: storage.url });
      await client.connect();
      try {
        const tenants = await client.query<{ id: string }>('SELECT id FROM tenants');
        expect(tenants.rows).toEqual([{ id: 'other' }]);
        expect((await client.query('SELECT id FROM users')).rows).toEqual([]);
      } finally {
        await client.end();
      }
    } finally {
      sqlite.dir.remove();
    }
  });

  it('refuses, before migrating it, a database of an older release that holds data', async () => {
    const sqlite = await createDemoApp();
    const storage = await postgres.create();
    const hosts = await createTestApp({ storage });
    await hosts.app.tenants.save({ id: 'other', name: 'Other' });
    await hosts.close();
    const client = new Client({ connectionString: storage.url });
    await client.connect();
    try {
      await sqlite.close({ keepData: true });
      // As an older release left it: its last migration not applied (its objects stay: a rerun of it would fail,
      // and a copy must not try).
      const latest = async () =>
        (await client.query<{ v: number }>('SELECT max(version)::int AS v FROM schema_version')).rows[0]!.v;
      await client.query('DELETE FROM schema_version WHERE version = (SELECT max(version) FROM schema_version)');
      const older = await latest();
      const run = await copy(['--from', sqlite.databasePath], { DATABASE_URL: storage.url });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/already holds data \(.*tenants 1.*\).*Nothing was copied/);
      expect(await latest()).toBe(older);
    } finally {
      await client.end();
      sqlite.dir.remove();
    }
  });

  it("refuses another application's database, whatever its tables are called, and adds nothing to it", async () => {
    const sqlite = await createDemoApp();
    await sqlite.close({ keepData: true });
    const tablesOf = async (client: Client) =>
      (
        await client.query<{ name: string }>(
          'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1',
        )
      ).rows.map((row) => row.name);
    try {
      for (const [table, refusal] of [
        ['customers', /holds tables this server does not make \(customers\): it belongs to something else/],
        ['users', /already holds data \(users 1\)/],
      ] as const) {
        const storage = await postgres.create();
        const client = new Client({ connectionString: storage.url });
        await client.connect();
        try {
          await client.query(`CREATE TABLE ${table} (id int, email text)`);
          await client.query(`INSERT INTO ${table} VALUES (1, 'a@example.com')`);
          const run = await copy(['--from', sqlite.databasePath], { DATABASE_URL: storage.url });
          expect(run.code).toBe(1);
          expect(run.stderr).toMatch(refusal);
          expect(run.stderr).toContain('Nothing was copied.');
          expect(await tablesOf(client)).toEqual([table]);
        } finally {
          await client.end();
        }
      }
    } finally {
      sqlite.dir.remove();
    }
  });

  it('takes a database migrated and left empty (a copy that failed, run again)', async () => {
    const sqlite = await createDemoApp();
    await sqlite.close({ keepData: true });
    const storage = await postgres.create();
    const migrated = new PostgresEngine(storage, () => undefined);
    try {
      await migrated.migrate();
    } finally {
      await migrated.close();
    }
    try {
      const run = await copy(['--from', sqlite.databasePath], { DATABASE_URL: storage.url });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
    } finally {
      sqlite.dir.remove();
    }
  });

  it('warns of a file a server still runs on, and names the secret file the copied sessions need', async () => {
    // Still open, as a running server holds it; its cookies signed with the secret kept beside it (no SESSION_SECRET).
    const sqlite = await createDemoApp();
    try {
      const secretFile = path.join(path.dirname(sqlite.databasePath), 'session-secret');
      fs.writeFileSync(secretFile, `${'s'.repeat(32)}\n`, { mode: 0o600 });
      expect(fs.existsSync(`${sqlite.databasePath}-wal`)).toBe(true);
      const storage = await postgres.create();
      const run = await copy(['--from', sqlite.databasePath, '--to', storage.url], { SESSION_SECRET: '' });
      expect(run.code).toBe(0);
      expect(run.stderr).toBe(
        `Warning: ${sqlite.databasePath}-wal is there: a server may still run on SQLite ${sqlite.databasePath} (or one ` +
          'stopped without closing it). What it writes after this copy starts is not in the copy: stop every server ' +
          'on the file, then copy into a new database.\n',
      );
      const sessions = run.stdout.split('\n').find((line) => line.startsWith('  sessions '));
      expect(sessions?.replace(/^ {2}sessions \d+ /, '')).toBe(
        "(still signed in when the hosts are started with SESSION_SECRET set to this installation's secret, the " +
          `content of ${secretFile}, and no REDIS_URL)`,
      );
    } finally {
      await sqlite.close();
    }
  });

  it('leaves the file exactly as it was, a way back to the release that wrote it, whether the copy fails or not', async () => {
    const dir = makeTempDir('slots-copy-older-');
    try {
      // A file of the release before this one: every migration but the last.
      const file = path.join(dir.path, 'older.db');
      const older = new Database(file);
      registerSqliteSortFold(older);
      migrate(older, MIGRATIONS.slice(0, -1));
      older.close();
      const schemaOf = () => {
        const db = new Database(file, { readonly: true });
        try {
          return Number(db.prepare('SELECT max(version) FROM schema_version').pluck().get());
        } finally {
          db.close();
        }
      };
      const fingerprint = () => createHash('sha256').update(fs.readFileSync(file)).digest('hex');
      const before = { schema: schemaOf(), bytes: fingerprint() };
      expect(before.schema).toBe(MIGRATIONS.at(-2)!.version);

      const taken = await postgres.create();
      const first = await createTestApp({ storage: taken });
      await first.app.tenants.save({ id: 'other', name: 'Other' });
      await first.close();
      const refused = await copy(['--from', file, '--to', taken.url]);
      expect(refused.code).toBe(1);
      expect({ schema: schemaOf(), bytes: fingerprint() }).toEqual(before);

      // Its snapshot is made in the system's temporary folder, and removed.
      const temp = path.join(dir.path, 'tmp');
      fs.mkdirSync(temp);
      const copied = await copy(['--from', file, '--to', (await postgres.create()).url], { TMPDIR: temp });
      expect(copied.code).toBe(0);
      expect(copied.stdout).toContain(`Copied SQLite ${file} into PostgreSQL "`);
      expect(copied.stdout).toContain(`SQLite ${file} keeps its data, unchanged.`);
      expect({ schema: schemaOf(), bytes: fingerprint() }).toEqual(before);
      expect(fs.readdirSync(temp).filter((name) => name.startsWith('slots-db-copy-'))).toEqual([]);
      expect(fs.readdirSync(dir.path).sort()).toEqual(['older.db', 'tmp']);
    } finally {
      dir.remove();
    }
  });

  it('refuses a file of a newer release naming that file, not the snapshot it reads, and writes nothing', async () => {
    const dir = makeTempDir('slots-copy-newer-');
    try {
      const file = path.join(dir.path, 'newer.db');
      const newer = new Database(file);
      registerSqliteSortFold(newer);
      migrate(newer, MIGRATIONS);
      newer.prepare("INSERT INTO schema_version (version, name, applied_at) VALUES (999, 'from the future', 0)").run();
      newer.close();
      const target = await postgres.create();
      const refused = await copy(['--from', file, '--to', target.url]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(
        `SQLite ${file} is at schema version 999, newer than this server knows ` +
          `(${MIGRATIONS.at(-1)!.version}). Nothing was written to it.`,
      );
      expect(refused.stderr).not.toContain('slots-db-copy-');
    } finally {
      dir.remove();
    }
  });

  it('says what is missing rather than creating an empty source or guessing a target', async () => {
    const dir = makeTempDir('slots-copy-missing-');
    try {
      const missing = path.join(dir.path, 'nothing.db');
      const storage = await postgres.create();
      const noSource = await copy(['--from', missing, '--to', storage.url]);
      expect(noSource.code).toBe(1);
      expect(noSource.stderr).toContain(`There is no SQLite database at ${missing}`);
      expect(fs.existsSync(missing)).toBe(false);
      const noTarget = await copy(['--from', missing]);
      expect(noTarget.code).toBe(2);
      expect(noTarget.stderr).toMatch(/needs the PostgreSQL database to copy into: --to or DATABASE_URL/);
      const bad = await copy(['--to']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/^--to needs a PostgreSQL address\.\nusage: npm run db:copy/);
      // Given twice, neither is guessed; not a PostgreSQL address, --to is named; a folder is no database file.
      const twice = await copy(['--to', storage.url, '--to', storage.url]);
      expect([twice.code, twice.stderr]).toEqual([
        2,
        expect.stringMatching(/^--to is given twice\.\nusage: npm run db:copy/),
      ]);
      const mysql = await copy(['--from', missing, '--to', 'mysql://admin:secret@db/app']);
      expect([mysql.code, mysql.stderr]).toEqual([
        2,
        '--to must be a PostgreSQL address (postgres:// or postgresql://), got "mysql://admin:***@db/app".\n',
      ]);
      const folder = await copy(['--from', dir.path, '--to', storage.url]);
      expect([folder.code, folder.stderr]).toEqual([
        1,
        `${dir.path} is a folder, not a SQLite database file (--from, else DATABASE_PATH). Nothing was copied.\n`,
      ]);
    } finally {
      dir.remove();
    }
  });
});
