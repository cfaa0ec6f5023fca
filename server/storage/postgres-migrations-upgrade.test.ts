/**
 * migrations-upgrade.test.ts on PostgreSQL: an installation upgrades from any earlier schema with its data in it.
 * Each step's PostgreSQL SQL is its own (a generated column, a type change, a rewrite of a table), so passing on
 * SQLite says nothing of it, and on an empty database a step that its rows do not fit still passes. For each earlier
 * version, every table is given a row, a server of this release starts on the database (applying the rest of the
 * steps as at a rolling upgrade's first new host), every row is still there, and a staff member signs in.
 */
import { Client } from 'pg';
import { describeWithPostgres, usePostgresDatabases, withPostgresClient } from '../../testing/server/postgres-server';
import { createTestApp, DEMO_PASSWORD, FAST_HASH, signedInAgent } from '../../testing/server/test-app';
import { hashPassword } from '../auth/password-hash';
import { POSTGRES_MIGRATIONS, RELEASE_SCHEMA_VERSION } from './migrations';
import { migratePostgres } from './postgres-migrate';

jest.setTimeout(60_000);

interface Column {
  name: string;
  type: string;
}

/** A value every column of that type takes: one row per table, every reference to id 1 or text "{}". */
function valueFor(column: Column): unknown {
  if (/int|numeric|real|double/.test(column.type)) return 1;
  if (column.type === 'boolean') return false;
  if (column.type.startsWith('timestamp')) return new Date(0);
  if (column.type === 'tsvector') return '';
  // Text and JSON: "{}" is valid JSON for the columns that hold it, and the same key wherever a text id is referenced.
  return '{}';
}

/** Gives every table one row, an account `member` able to sign in among them; returns the tables. */
async function fillEveryTable(client: Client, passwordHash: string): Promise<string[]> {
  const { rows: tables } = await client.query<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'schema_version' ORDER BY 1",
  );
  // As a restore does: the rows reference each other by 1 and "{}", whichever table is filled first.
  await client.query("SET session_replication_role = 'replica'");
  for (const { name: table } of tables) {
    // The one-row tables the steps fill themselves (data_version, record_words_state) keep their row.
    if ((await rowCount(client, table)) > 0) continue;
    const { rows: columns } = await client.query<Column>(
      "SELECT column_name AS name, data_type AS type FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1 AND is_generated = 'NEVER' ORDER BY ordinal_position",
      [table],
    );
    const values: Record<string, unknown> = Object.fromEntries(
      columns.map((column) => [column.name, valueFor(column)]),
    );
    if (table === 'users') {
      Object.assign(values, { username: 'member', display_name: 'Member', password_hash: passwordHash });
      for (const nullable of ['role', 'disabled_at', 'sessions_since']) if (nullable in values) values[nullable] = null;
    }
    if (table === 'memberships' && 'role' in values) values.role = null;
    const names = Object.keys(values);
    await client.query(
      `INSERT INTO "${table}" (${names.map((name) => `"${name}"`).join(', ')}) OVERRIDING SYSTEM VALUE VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')}) ON CONFLICT DO NOTHING`,
      Object.values(values),
    );
  }
  await client.query("SET session_replication_role = 'origin'");
  return tables.map((table) => table.name);
}

async function rowCount(client: Client, table: string): Promise<number> {
  const { rows } = await client.query<{ count: string }>(`SELECT count(*) AS count FROM "${table}"`);
  return Number(rows[0]?.count);
}

const EARLIER_VERSIONS = POSTGRES_MIGRATIONS.slice(0, -1).map((migration) => migration.version);

describeWithPostgres()('a PostgreSQL database at an earlier schema, every table holding a row', () => {
  const postgres = usePostgresDatabases('upgrade', { poolSize: 4, statementTimeoutMs: 10_000 });

  it.each(EARLIER_VERSIONS)(
    'from version %i: upgrades at the next start, keeps its rows, lets its staff sign in',
    async (version) => {
      const storage = await postgres.create();
      await withPostgresClient(storage.url, async (client) => {
        await migratePostgres(
          client,
          POSTGRES_MIGRATIONS.filter((migration) => migration.version <= version),
        );
        const tables = await fillEveryTable(client, await hashPassword(DEMO_PASSWORD, FAST_HASH));
        const before = new Map<string, number>();
        for (const table of tables) before.set(table, await rowCount(client, table));
        expect(tables.filter((table) => before.get(table) === 0)).toEqual([]);

        const testApp = await createTestApp({ storage });
        try {
          const { rows } = await client.query<{ version: number }>(
            'SELECT max(version) AS version FROM schema_version',
          );
          expect(Number(rows[0]?.version)).toBe(RELEASE_SCHEMA_VERSION);
          for (const table of tables)
            expect([table, await rowCount(client, table)]).toEqual([table, before.get(table)]);

          const agent = await signedInAgent(testApp.app, 'member');
          expect((await agent.get('/me')).body.user).toMatchObject({ username: 'member' });
        } finally {
          await testApp.close();
        }
      });
    },
  );
});
