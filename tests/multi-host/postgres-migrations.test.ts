/**
 * Migrations on a shared PostgreSQL: hosts started at the same moment against an empty database apply each
 * migration once (the advisory lock makes the others wait, then find nothing to do), and a host whose code is older
 * than the schema refuses to start with a message instead of serving on a schema it does not know.
 */
import { POSTGRES_MIGRATIONS } from '../../server/storage/migrations';
import { describeWithPostgres } from '../../testing/server/postgres-server';
import { useHostsOnSharedPostgres } from '../../testing/system/hosts-on-shared-postgres';
import { startPostgresHost } from './support/postgres-host';
import { queryPostgres } from './support/postgres-query';

jest.setTimeout(120_000);

const describePostgres = describeWithPostgres();

/** Where the server records the migrations it applied. */
const MIGRATIONS_TABLE = 'schema_version';

describePostgres('migrations on a shared PostgreSQL', () => {
  const shared = useHostsOnSharedPostgres('migrations_test', startPostgresHost);
  const { started } = shared;

  it('runs every migration once when two hosts start at the same moment on an empty database', async () => {
    await shared.startTogether(2);

    const rows = await queryPostgres<{ version: number }>(
      shared.databaseUrl,
      `SELECT version FROM ${MIGRATIONS_TABLE} ORDER BY version`,
    );
    // Once each: every version of the code, none twice, none skipped.
    expect(rows.map((row) => Number(row.version))).toEqual(POSTGRES_MIGRATIONS.map((migration) => migration.version));
  });

  it('closes its pool on SIGTERM: exit 0 and no connection left on the database', async () => {
    const hosts = started.splice(0);
    const exits = await Promise.all(hosts.map((host) => host.process.stop({ graceMs: 15_000 })));
    await Promise.all(hosts.map((host) => host.stop()));
    expect(exits).toEqual([
      { code: 0, signal: null },
      { code: 0, signal: null },
    ]);
    const others = await queryPostgres<{ count: string }>(
      shared.databaseUrl,
      'SELECT COUNT(*) AS count FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    expect(Number(others[0]?.count)).toBe(0);
  });

  it('refuses to start against a schema newer than its code, with a message, and changes nothing', async () => {
    const [found] = await queryPostgres<{ latest: number }>(
      shared.databaseUrl,
      `SELECT MAX(version) AS latest FROM ${MIGRATIONS_TABLE}`,
    );
    const future = Number(found?.latest) + 1;
    await queryPostgres(
      shared.databaseUrl,
      `INSERT INTO ${MIGRATIONS_TABLE} (version, name, applied_at) VALUES ($1, $2, $3)`,
      [future, 'from a newer release', Date.now()],
    );

    const start = startPostgresHost(shared.databaseUrl);
    await expect(start).rejects.toThrow(/the process exited \(code [1-9]/);
    await expect(start).rejects.toThrow(
      new RegExp(
        `PostgreSQL "[^"]+" on [^ ]+:\\d+ is at schema version ${future}, newer than this server knows ` +
          `\\(${future - 1}\\)\\. Nothing was written to it\\.`,
      ),
    );

    const rows = await queryPostgres<{ version: number }>(
      shared.databaseUrl,
      `SELECT version FROM ${MIGRATIONS_TABLE}`,
    );
    expect(rows.map((row) => Number(row.version))).toContain(future);
    expect(rows).toHaveLength(future);
  });
});
