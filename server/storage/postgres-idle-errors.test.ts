import { sql } from 'kysely';
import { Client } from 'pg';
import { describeWithPostgres, usePostgresDatabases } from '../../testing/server/postgres-server';
import { waitUntil } from '../../testing/server/wait-until';
import { openStorage } from './open-storage';

jest.setTimeout(60_000);

/**
 * Idle connections that PostgreSQL drops (a restart, an administrator ending them): each failure is reported once.
 * Its error reached both the connection's own listener and the pool's, which re-emits it: a stop of PostgreSQL with
 * five idle connections logged eight warnings, each with its stack.
 */
describeWithPostgres()('PostgresEngine, idle connections dropped', () => {
  const databases = usePostgresDatabases('idle_errors', { poolSize: 4, statementTimeoutMs: 5000 });

  it('reports each dropped idle connection once', async () => {
    const settings = await databases.create();
    const reported: Error[] = [];
    const engine = openStorage(settings, (error) => reported.push(error));
    try {
      // Four connections at once, then idle in the pool.
      await Promise.all([1, 2, 3, 4].map(() => sql`SELECT pg_sleep(0.1)`.execute(engine.db)));
      const admin = new Client({ connectionString: settings.url });
      await admin.connect();
      try {
        const ended = await admin.query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'slots-server'",
        );
        expect(ended.rowCount).toBe(4);
      } finally {
        await admin.end();
      }
      await waitUntil(async () => reported.length >= 4);
      // Time for a second report of each, had there been one.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(reported).toHaveLength(4);
      expect(new Set(reported).size).toBe(4);
    } finally {
      await engine.close();
    }
  });
});
