/**
 * PostgreSQL's count compares stamps computed in SQL (the same as user-store.ts's), reads the columns of migration 13
 * instead of parsing the stored sessions, and counts the sessions a database held before those columns existed.
 */
import { sql } from 'kysely';
import { describeWithPostgres, usePostgresDatabases, withPostgresClient } from '../../testing/server/postgres-server';
import { credentialStampOf } from './user-store';
import { POSTGRES_MIGRATIONS } from '../storage/migrations';
import { openMigratedStorage } from '../storage/open-storage';
import { migratePostgres } from '../storage/postgres-migrate';
import type { StorageEngine } from '../storage/storage-engine';
import { POSTGRES_CREDENTIAL_STAMP, POSTGRES_SESSION_COUNT, postgresSessionCount } from './postgres-session-count';

jest.setTimeout(30_000);

describeWithPostgres()('postgresSessionCount', () => {
  const postgres = usePostgresDatabases('session_count', { poolSize: 2, statementTimeoutMs: 2000 });
  const engines: StorageEngine[] = [];
  afterEach(async () => {
    await Promise.all(engines.splice(0).map((engine) => engine.close()));
  });

  async function addAccount(engine: StorageEngine, username: string, passwordHash: string, since: number | null) {
    const { id } = await engine.db
      .insertInto('users')
      .values({
        username,
        display_name: username,
        password_hash: passwordHash,
        created_at: 0,
        updated_at: 0,
        sessions_since: since,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  it("computes user-store.ts's credential stamp", async () => {
    const engine = await openMigratedStorage(await postgres.create());
    engines.push(engine);
    const accounts: [string, number | null][] = [
      ['scrypt$16384$8$1$c2FsdA$aGFzaA', null],
      ['scrypt$16384$8$1$c2FsdA$aGFzaA', 1_700_000_000_123],
      ['a hash with é, ü and 🙂 in it', 0],
      ['', null],
    ];
    for (const [index, [hash, since]] of accounts.entries()) await addAccount(engine, `user${index}`, hash, since);
    const { rows } = await sql<{ hash: string; since: number | null; stamp: string }>`
      SELECT password_hash AS hash, sessions_since AS since, ${POSTGRES_CREDENTIAL_STAMP} AS stamp
      FROM users ORDER BY id`.execute(engine.db);
    expect(rows.map((row) => row.stamp)).toEqual(accounts.map(([hash, since]) => credentialStampOf(hash, since)));
  });

  it("never reads a stored session's JSON", async () => {
    const engine = await openMigratedStorage(await postgres.create());
    engines.push(engine);
    const { rows } = await sql<{ 'QUERY PLAN': string }>`EXPLAIN (VERBOSE) ${POSTGRES_SESSION_COUNT}`.execute(
      engine.db,
    );
    const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
    expect(plan).toContain('sessions.user_id');
    // A scan may carry the whole row along (`Output: ... sessions.sess ...`); no expression of the plan opens it.
    expect(plan).not.toMatch(/sess\s*->|json/i);
  });

  it('counts the sessions stored before the upgrade that added the columns', async () => {
    const storage = await postgres.create();
    await withPostgresClient(storage.url, async (client) => {
      await migratePostgres(
        client,
        POSTGRES_MIGRATIONS.filter((step) => step.version < 13),
      );
      const { rows } = await client.query<{ id: number }>(
        `INSERT INTO users (username, display_name, password_hash, created_at, updated_at)
         VALUES ('ada', 'Ada', 'hash-of-ada', 0, 0) RETURNING id`,
      );
      const user = { id: rows[0]!.id, credentials: credentialStampOf('hash-of-ada', null) };
      for (const sid of ['one', 'two']) {
        await client.query(`INSERT INTO sessions (sid, sess, expire) VALUES ($1, $2, now() + interval '1 hour')`, [
          sid,
          JSON.stringify({ cookie: {}, passport: { user } }),
        ]);
      }
    });
    const engine = await openMigratedStorage(storage);
    engines.push(engine);
    expect(await postgresSessionCount(engine.db)()).toBe(2);
  });
});
