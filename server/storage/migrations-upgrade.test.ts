/**
 * An installation upgrades from any earlier schema with its data in it: every step is applied to tables that hold
 * rows, as on an operator's database, never only to the empty tables of a fresh file (a step adding a NOT NULL
 * column without a default, or rebuilding a table its rows do not fit, passes on an empty database and stops the
 * first start of a new version on a real one). For each earlier version, every table is given a row, the server is
 * started on the file (the rest of the steps run as they do at an upgrade), and a staff member signs in.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { makeTempDir } from '../../testing/temp-dir';
import { createTestApp, DEMO_PASSWORD, FAST_HASH, signedInAgent } from '../../testing/server/test-app';
import { hashPassword } from '../auth/password-hash';
import { migrate } from './migrate';
import { MIGRATIONS } from './migrations';

interface Column {
  name: string;
  type: string;
}

/** A value every column of that declared type takes: one row per table, every reference to id 1 or text "{}". */
function valueFor(column: Column): number | string | Buffer {
  const type = column.type.toUpperCase();
  if (type.includes('INT') || type.includes('REAL') || type.includes('NUM')) return 1;
  if (type.includes('BLOB')) return Buffer.from([0]);
  // Text columns: "{}" is valid JSON for those that hold it, and the same key wherever a text id is referenced.
  return '{}';
}

/** Gives every table of the file one row, an account `member` able to sign in among them; returns the tables. */
function fillEveryTable(db: Database.Database, passwordHash: string): string[] {
  const all = db
    .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .all() as { name: string; sql: string }[];
  // A full-text table's own tables (record_words_data, ...) are SQLite's to write: the row goes to the table itself.
  const virtual = all.filter((table) => /^CREATE VIRTUAL TABLE/i.test(table.sql)).map((table) => `${table.name}_`);
  const tables = all
    .map((table) => table.name)
    .filter((name) => name !== 'schema_version' && !virtual.some((prefix) => name.startsWith(prefix)));
  db.pragma('foreign_keys = OFF');
  for (const table of tables) {
    const columns = db.prepare(`SELECT name, type FROM pragma_table_info(?)`).all(table) as Column[];
    const values: Record<string, unknown> = Object.fromEntries(
      columns.map((column) => [column.name, valueFor(column)]),
    );
    if (table === 'users')
      Object.assign(values, { username: 'member', display_name: 'Member', password_hash: passwordHash });
    if (table === 'memberships' && 'role' in values) values.role = null;
    if (table === 'users' && 'role' in values) values.role = null;
    if (table === 'users' && 'disabled_at' in values) values.disabled_at = null;
    if (table === 'users' && 'sessions_since' in values) values.sessions_since = null;
    const names = Object.keys(values);
    db.prepare(
      `INSERT OR IGNORE INTO "${table}" (${names.map((name) => `"${name}"`).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
    ).run(...Object.values(values));
  }
  db.pragma('foreign_keys = ON');
  expect(db.pragma('foreign_key_check')).toEqual([]);
  return tables;
}

function rowCount(db: Database.Database, table: string): number {
  return db.prepare(`SELECT COUNT(*) FROM "${table}"`).pluck().get() as number;
}

const EARLIER_VERSIONS = MIGRATIONS.slice(0, -1).map((migration) => migration.version);

describe.each(EARLIER_VERSIONS)('a database at schema version %i, every table holding a row', (version) => {
  it('upgrades at the next start, keeps its rows, and lets its staff sign in', async () => {
    const dir = makeTempDir('slots-upgrade-');
    const file = path.join(dir.path, 'app.db');
    let tables: string[];
    {
      const db = new Database(file);
      try {
        migrate(
          db,
          MIGRATIONS.filter((migration) => migration.version <= version),
        );
        tables = fillEveryTable(db, await hashPassword(DEMO_PASSWORD, FAST_HASH));
      } finally {
        db.close();
      }
    }
    const testApp = await createTestApp({ dir });
    try {
      const db = testApp.app.database.db;
      expect(db.prepare('SELECT MAX(version) FROM schema_version').pluck().get()).toBe(MIGRATIONS.at(-1)!.version);
      for (const table of tables) expect([table, rowCount(db, table)]).toEqual([table, 1]);
      expect(db.pragma('foreign_key_check')).toEqual([]);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');

      const agent = await signedInAgent(testApp.app, 'member');
      expect((await agent.get('/me')).body.user).toMatchObject({ username: 'member' });
    } finally {
      await testApp.close();
    }
  });
});
