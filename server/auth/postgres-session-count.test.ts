/**
 * PostgreSQL's count compares stamps computed in SQL (the same as user-store.ts's), reads the columns of migration 13
 * instead of parsing the stored sessions, and counts the sessions a database held before those columns existed.
 */
import { sql } from 'kysely';
import { describeWithPostgres, usePostgresDatabases, withPostgresClient } from '../../testing/server/postgres-server';
import { credentialStampOf, credentialStampOfRow } from './user-store';
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

  type Kept = { stamp_kept: string | null; stamp_kept_while: string | null };
  const NONE_KEPT: Kept = { stamp_kept: null, stamp_kept_while: null };

  async function addAccount(
    engine: StorageEngine,
    username: string,
    passwordHash: string,
    since: number | null,
    kept: Kept = NONE_KEPT,
  ) {
    const { id } = await engine.db
      .insertInto('users')
      .values({
        username,
        display_name: username,
        password_hash: passwordHash,
        created_at: 0,
        updated_at: 0,
        sessions_since: since,
        ...kept,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  it("computes user-store.ts's credential stamp, a stamp kept over a new hash of the same password included", async () => {
    const engine = await openMigratedStorage(await postgres.create());
    engines.push(engine);
    const upgraded = 'scrypt$N=4096,r=8,p=1$c2FsdA$aGFzaA';
    const accounts: [string, number | null, Kept][] = [
      ['scrypt$16384$8$1$c2FsdA$aGFzaA', null, NONE_KEPT],
      ['scrypt$16384$8$1$c2FsdA$aGFzaA', 1_700_000_000_123, NONE_KEPT],
      ['a hash with é, ü and 🙂 in it', 0, NONE_KEPT],
      ['', null, NONE_KEPT],
      // Kept: the row's own stamp is still the one written with it.
      [upgraded, null, { stamp_kept: 'kept-stamp-00001', stamp_kept_while: credentialStampOf(upgraded, null) }],
      [upgraded, 5, { stamp_kept: 'kept-stamp-00002', stamp_kept_while: credentialStampOf(upgraded, 5) }],
      // Void: the hash or sessions_since changed since (a host of an earlier release wrote them).
      [upgraded, 6, { stamp_kept: 'kept-stamp-00003', stamp_kept_while: credentialStampOf(upgraded, 5) }],
      ['another', null, { stamp_kept: 'kept-stamp-00004', stamp_kept_while: credentialStampOf(upgraded, null) }],
      [upgraded, null, { stamp_kept: null, stamp_kept_while: credentialStampOf(upgraded, null) }],
    ];
    for (const [index, [hash, since, kept]] of accounts.entries())
      await addAccount(engine, `user${index}`, hash, since, kept);
    const { rows } = await sql<{ stamp: string }>`
      SELECT ${POSTGRES_CREDENTIAL_STAMP} AS stamp FROM users ORDER BY id`.execute(engine.db);
    const expected = accounts.map(([password_hash, sessions_since, kept]) =>
      credentialStampOfRow({ password_hash, sessions_since, ...kept }),
    );
    expect(rows.map((row) => row.stamp)).toEqual(expected);
    expect(expected.slice(4, 6)).toEqual(['kept-stamp-00001', 'kept-stamp-00002']);
    expect(expected.slice(6)).toEqual([
      credentialStampOf(upgraded, 6),
      credentialStampOf('another', null),
      credentialStampOf(upgraded, null),
    ]);
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
