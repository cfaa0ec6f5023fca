/**
 * The app with DATABASE_URL: two apps on one PostgreSQL stand for two hosts sharing nothing else (each its own
 * temporary folder). What one host changes counts on the other's next request; readiness follows PostgreSQL.
 * Above 300 lines for one reason: every case runs on the suite's one PostgreSQL server, which takes seconds to start.
 */
import fs from 'node:fs';
import http from 'node:http';
import { Client } from 'pg';
import pino from 'pino';
import request from 'supertest';
import type { MePayload } from '../../shared';
import { describeWithCommand } from '../../testing/describe-with-command';
import { DEFAULT_DATABASE_STATEMENT_TIMEOUT_MS } from '../config/postgres-settings';
import { READINESS_CHECK_DEADLINE_MS } from './within-deadline';
import { DATABASE_WATCH_INTERVAL_MS } from './database-health-watch';
import { StorageModule } from './storage-module';
import { describeWithPostgres, usePostgresDatabases, type PostgresStorage } from '../../testing/server/postgres-server';
import { RedisServerProcess } from '../../testing/system/redis-server-process';
import {
  addUser,
  createDemoApp,
  createTestApp,
  createTwoHosts,
  FAST_HASH,
  sessionCookieOf,
  signedInAgent,
  type TestApp,
} from '../../testing/server/test-app';
import { hashPassword } from '../auth/password-hash';
import { DEMO_TENANTS } from '../demo/demo-records';
import { openMigratedStorage } from './open-storage';
import { POSTGRES_STOPPED_MESSAGE } from './postgres-outage-log';
import type { PostgresEngine } from './postgres-engine';
import { toHttpError } from '../http/error-handler';
import { sql, type CompiledQuery, type KyselyPlugin } from 'kysely';
import { RecordPager } from '../resources/record-pager';

const PASSWORD = 'member-password-123';

/** Resolves once `done()` holds, polled every 100 ms; fails after `ms`. */
async function waitFor(done: () => boolean, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!done()) {
    if (Date.now() > until) throw new Error(`not done within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A node of EXPLAIN (ANALYZE, FORMAT JSON). */
interface PlanNode {
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

describeWithPostgres()('the app on PostgreSQL', () => {
  const postgres = usePostgresDatabases('app', { poolSize: 5, statementTimeoutMs: 2000 });
  let storage: PostgresStorage;
  const apps: TestApp[] = [];

  const host = async (options: { redisUrl?: string } = {}): Promise<TestApp> => {
    const testApp = await createTestApp({ storage, ...options });
    apps.push(testApp);
    return testApp;
  };

  /** Two hosts on this case's database. */
  const twoHosts = async (options: { redisUrl?: string } = {}): Promise<[TestApp, TestApp]> => {
    const hosts = await createTwoHosts(createTestApp, { storage, ...options });
    apps.push(...hosts);
    return hosts;
  };

  beforeEach(async () => {
    storage = await postgres.create();
  });

  afterEach(async () => {
    await Promise.all(apps.splice(0).map((testApp) => testApp.close()));
  });

  it('keeps nothing in the working folder: no SQLite file, sessions in PostgreSQL', async () => {
    const a = await host();
    await addUser(a.app, 'member', PASSWORD, ['north']);
    await signedInAgent(a.app, 'member', PASSWORD);
    expect(fs.readdirSync(a.dir.path)).toEqual([]);
    expect(a.app.storage.kind).toBe('postgres');
    expect(a.app.sessions.kind).toBe('postgres');
    expect(() => a.app.database).toThrow(/PostgreSQL/);
    const client = new Client({ connectionString: storage.url });
    await client.connect();
    try {
      expect((await client.query('SELECT COUNT(*)::int AS n FROM sessions')).rows[0]).toEqual({ n: 1 });
    } finally {
      await client.end();
    }
  });

  it('serves the same users, records and sessions from two hosts', async () => {
    const [a, b] = await twoHosts();
    await addUser(a.app, 'member', PASSWORD, ['north']);
    const signIn = await request(a.app.handler).post('/login').send({ username: 'member', password: PASSWORD });
    expect(signIn.status).toBe(200);
    const cookie = sessionCookieOf(signIn) as string;
    const onB = await request(b.app.handler).get('/me').set('Cookie', cookie);
    expect(onB.status).toBe(200);
    expect((onB.body as MePayload).user.username).toBe('member');

    const record = await b.app.records.insert('north', 'notes', { title: 'Written on B', label: 'B' });
    expect(await a.app.records.get('north', 'notes', record.id)).toEqual(record);
    // Signing out on B ends the session on A too.
    expect((await request(b.app.handler).post('/logout').set('Cookie', cookie)).status).toBe(204);
    expect((await request(a.app.handler).get('/me').set('Cookie', cookie)).status).toBe(401);
  });

  it('ends a session on one host at its next request once the other host changed the password or disabled the account', async () => {
    const [a, b] = await twoHosts();
    await addUser(a.app, 'member', PASSWORD, ['north']);
    const agent = await signedInAgent(a.app, 'member', PASSWORD);
    expect((await agent.get('/meta')).status).toBe(200);
    await b.app.users.upsert('member', await hashPassword('another-password-456', FAST_HASH));
    expect((await agent.get('/meta')).status).toBe(401);

    const again = await signedInAgent(a.app, 'member', 'another-password-456');
    expect((await again.get('/me')).status).toBe(200);
    expect(await b.app.users.setDisabled('member', true)).toBe(true);
    expect((await again.get('/me')).status).toBe(401);
    // The right password, on the other host: told the account is disabled there at once.
    expect(
      (await request(a.app.handler).post('/login').send({ username: 'member', password: 'another-password-456' })).body
        .error?.code,
    ).toBe('account_disabled');
  });

  describeWithCommand(
    'redis-server',
    ['--version'],
    'redis-server',
  )('with REDIS_URL as well', () => {
    it('keeps sessions in Redis and the data in PostgreSQL; a password change on one host ends them on the other', async () => {
      const redis = await RedisServerProcess.start();
      try {
        const [a, b] = await twoHosts({ redisUrl: redis.url });
        expect(a.app.sessions.kind).toBe('redis');
        expect(a.app.storage.kind).toBe('postgres');
        await addUser(a.app, 'member', PASSWORD, ['north']);
        const signIn = await request(a.app.handler).post('/login').send({ username: 'member', password: PASSWORD });
        const cookie = sessionCookieOf(signIn) as string;
        expect((await request(b.app.handler).get('/me').set('Cookie', cookie)).status).toBe(200);
        await b.app.users.upsert('member', await hashPassword('another-password-456', FAST_HASH));
        expect((await request(a.app.handler).get('/me').set('Cookie', cookie)).status).toBe(401);
      } finally {
        await Promise.all(apps.splice(0).map((testApp) => testApp.close()));
        await redis.stop();
      }
    });
  });

  it('seeds the demo once when two hosts start together', async () => {
    const [first, second] = await Promise.all([createDemoApp({ storage }), createDemoApp({ storage })]);
    apps.push(first, second);
    expect([first.demoAccount.created, second.demoAccount.created].sort()).toEqual([false, true]);
    for (const { tenant, articles, authors } of DEMO_TENANTS) {
      expect(await first.app.records.count(tenant.id, 'articles')).toBe(articles.length);
      expect(await second.app.records.count(tenant.id, 'authors')).toBe(authors.length);
    }
    expect(await first.app.users.count()).toBe(1);
    expect((await first.app.tenants.list()).map((tenant) => tenant.id)).toEqual(
      DEMO_TENANTS.map(({ tenant }) => tenant.id),
    );
  });

  it('answers /readyz 503 while PostgreSQL is down and 200 again by itself once it is back', async () => {
    const a = await host();
    await addUser(a.app, 'member', PASSWORD, ['north']);
    const agent = await signedInAgent(a.app, 'member', PASSWORD);
    expect((await request(a.app.handler).get('/readyz')).body).toEqual({ status: 'ok', checks: { database: 'ok' } });

    await postgres.server.stop();
    try {
      const down = await request(a.app.handler).get('/readyz');
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({ status: 'unavailable', checks: { database: 'failing' } });
      // A signed-in request cannot load its session: unavailable, not an error and not anonymous.
      expect((await agent.get('/meta')).status).toBe(503);
    } finally {
      await postgres.server.resume();
    }

    expect((await request(a.app.handler).get('/readyz')).status).toBe(200);
    expect((await agent.get('/meta')).status).toBe(200);

    // A crash (SIGKILL) drops the pool's connections under it: answered, logged, and replaced once it is back.
    await postgres.server.kill();
    try {
      expect((await request(a.app.handler).get('/readyz')).status).toBe(503);
    } finally {
      await postgres.server.resume();
    }
    expect((await request(a.app.handler).get('/readyz')).status).toBe(200);
    expect((await agent.get('/me')).status).toBe(200);
  }, 30_000);

  it('logs an outage once each way, and each request of it as a warning of one line without a stack', async () => {
    const lines: Array<{ level: number; msg: string; err?: unknown; req?: unknown; url?: string }> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const a = await createTestApp({ storage, logger });
    apps.push(a);
    await addUser(a.app, 'member', PASSWORD, ['north']);
    // Listening for the whole case: requests at once on servers of their own would drop each other's connections.
    const server = http.createServer(a.app.handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const agent = await signedInAgent(server, 'member', PASSWORD);

    // From here: the sign-in's last writes may still be on their way when PostgreSQL goes, and meet it going.
    lines.splice(0);
    await postgres.server.stop();
    let answers: number[];
    try {
      // Signed-in (the session in PostgreSQL), a sign-in (the counters and the account), readiness, all at once.
      answers = (
        await Promise.all([
          ...Array.from({ length: 16 }, (_, i) => agent.get(i % 2 === 0 ? '/me' : '/meta')),
          ...Array.from({ length: 2 }, () =>
            request(server).post('/login').send({ username: 'member', password: PASSWORD }),
          ),
          ...Array.from({ length: 2 }, () => request(server).get('/readyz')),
        ])
      ).map((response) => response.status);
    } finally {
      await postgres.server.resume();
    }
    expect(answers).toEqual(Array.from({ length: 20 }, () => 503));
    expect((await agent.get('/me')).status).toBe(200);
    await new Promise((resolve) => server.close(resolve));

    const told = lines.filter(({ msg }) => msg.startsWith('PostgreSQL '));
    expect(told.map(({ level, msg }) => [level, msg])).toEqual([
      [50, POSTGRES_STOPPED_MESSAGE],
      [30, expect.stringMatching(/^PostgreSQL answers again, after \d+(\.\d)? s$/)],
    ]);
    expect(told[0]?.err).toMatchObject({ message: expect.stringMatching(/ECONNREFUSED|shutting down/) });
    // The requests: one warning each (18: /readyz logs none), naming it and the reason, and nothing else. The sign-in
    // before the outage may add one, its points given back as PostgreSQL went: a line without a stack too.
    const givenBack = lines.filter(({ msg }) => msg.startsWith('could not give back'));
    expect(givenBack.length).toBeLessThanOrEqual(1);
    for (const line of givenBack) expect(line).toMatchObject({ level: 40, reason: expect.any(String) });
    for (const line of givenBack) expect(line).not.toHaveProperty('err');
    const requests = lines.filter((line) => line.req !== undefined && !givenBack.includes(line));
    expect(requests).toHaveLength(18);
    for (const line of requests) {
      expect(line).toMatchObject({ level: 40, url: expect.stringMatching(/^\/(me|meta|login)$/) });
      expect(line.msg).toMatch(/^(GET|POST) \/(me|meta|login) answered 503: the database is unavailable \(.+\)$/);
      expect(line).not.toHaveProperty('err');
    }
    // No error but the outage's start (background readers retrying may warn).
    expect(lines.filter(({ level }) => level >= 50).map(({ msg }) => msg)).toEqual([POSTGRES_STOPPED_MESSAGE]);
  }, 30_000);

  it('answers /readyz 503 within the checks’ deadline while PostgreSQL is frozen, its connections open', async () => {
    // The default statement timeout (5 s), which held the check before it had a deadline of its own.
    const a = await createTestApp({
      storage: { ...storage, statementTimeoutMs: DEFAULT_DATABASE_STATEMENT_TIMEOUT_MS },
    });
    apps.push(a);
    expect((await request(a.app.handler).get('/readyz')).status).toBe(200);
    postgres.server.freeze();
    try {
      const asked = Date.now();
      const frozen = await request(a.app.handler).get('/readyz');
      const took = Date.now() - asked;
      expect(frozen.body).toMatchObject({ status: 'unavailable', checks: { database: 'failing' } });
      expect(took).toBeGreaterThanOrEqual(READINESS_CHECK_DEADLINE_MS - 50);
      expect(took).toBeLessThan(READINESS_CHECK_DEADLINE_MS + 2_000);
    } finally {
      postgres.server.thaw();
    }
    expect((await request(a.app.handler).get('/readyz')).status).toBe(200);
  }, 30_000);

  it('logs a frozen PostgreSQL once as stopped within a bounded time, though no connection is opened, and once when it answers', async () => {
    const lines: Array<{ level: number; msg: string; err?: { message?: string } }> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    // The storage alone, production's statement timeout: nothing but the watch asks the database anything, as on a
    // quiet host whose queries (through Kysely) wait on the open connections of a frozen server, never opening one.
    const module = new StorageModule({ ...storage, statementTimeoutMs: DEFAULT_DATABASE_STATEMENT_TIMEOUT_MS }, logger);
    try {
      await module.load();
      const told = () => lines.filter(({ msg }) => msg.startsWith('PostgreSQL '));
      const bound = DATABASE_WATCH_INTERVAL_MS + READINESS_CHECK_DEADLINE_MS + 2_000;
      postgres.server.freeze();
      const frozenAt = Date.now();
      try {
        await waitFor(() => told().length === 1, bound);
      } finally {
        postgres.server.thaw();
      }
      expect(Date.now() - frozenAt).toBeLessThan(bound);
      await waitFor(() => told().length === 2, bound);
      expect(told().map(({ level, msg }) => [level, msg])).toEqual([
        [50, POSTGRES_STOPPED_MESSAGE],
        [30, expect.stringMatching(/^PostgreSQL answers again, after \d+(\.\d)? s$/)],
      ]);
      expect(told()[0]?.err?.message).toBe(`no answer within ${READINESS_CHECK_DEADLINE_MS} ms`);
    } finally {
      await module.close();
    }
  }, 40_000);

  it('builds the index of a list sort key in the background, valid once built, and serves the list meanwhile', async () => {
    const demo = await createDemoApp({ storage });
    apps.push(demo);
    const agent = await signedInAgent(demo.app);
    const list = await agent.get('/api/resources/authors/records?sort=title&order=desc&limit=2');
    expect(list.status).toBe(200);
    expect((list.body as { records: unknown[] }).records).toHaveLength(2);
    const client = new Client({ connectionString: storage.url });
    await client.connect();
    try {
      const name = `records_list_folded_${Buffer.from('title').toString('hex')}`;
      let valid: boolean | undefined;
      for (let attempt = 0; attempt < 50 && valid !== true; attempt++) {
        const { rows } = await client.query<{ valid: boolean }>(
          'SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = $1',
          [name],
        );
        valid = rows[0]?.valid;
        if (valid !== true) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(valid).toBe(true);
      // A handful of rows: the planner would scan them; forbidding that shows whether the index fits the query.
      await client.query('SET enable_seqscan = off');
      const plan = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT id FROM records WHERE tenant_id = 'acme' AND resource = 'authors'
         ORDER BY ${demo.app.storage.dialect.listSortKey('title', 'text').expression}, id LIMIT 3`,
      );
      expect(plan.rows.map((row) => row['QUERY PLAN']).join('\n')).toContain(name);
    } finally {
      await client.end();
    }
  });

  it('reads about `limit` index entries for a page deep in a thousand records tied on their key', async () => {
    const engine = (await openMigratedStorage(storage)) as PostgresEngine;
    const client = new Client({ connectionString: storage.url });
    await client.connect();
    try {
      await client.query(`INSERT INTO tenants (id, name) VALUES ('acme', 'Acme')`);
      await client.query(
        `INSERT INTO records (tenant_id, resource, data, created_at, updated_at)
         SELECT 'acme', 'members', '{"title":"M","label":"M","group":"g"}', 0, 0 FROM generate_series(1, 1000)`,
      );
      // The pager's statements, as sent (through a plugin on a view of the engine), to be explained afterwards.
      const statements: CompiledQuery[] = [];
      const executor = engine.db.getExecutor();
      const capture: KyselyPlugin = {
        transformQuery: ({ node, queryId }) => {
          statements.push(executor.compileQuery(node, queryId));
          return node;
        },
        transformResult: ({ result }) => Promise.resolve(result),
      };
      const watched = Object.create(engine, { db: { value: engine.db.withPlugin(capture) } }) as PostgresEngine;
      const pager = new RecordPager(watched, (row) => ({ id: row.id, title: '', label: '' }));
      const group = { column: 'group', kind: 'text' } as const;
      await pager.page('acme', 'members', { sort: group, descending: false, limit: 1 });
      await engine.indexBuildsSettled();
      await client.query('ANALYZE records');
      const deep = {
        key: 'g',
        id: (await client.query<{ id: number }>('SELECT max(id) - 400 AS id FROM records')).rows[0]!.id,
      };
      statements.length = 0;
      const limit = 20;
      const page = await pager.page('acme', 'members', { sort: group, descending: false, limit, after: deep });
      expect(page.records.map((record) => record.id)).toEqual(Array.from({ length: limit }, (_, i) => deep.id + 1 + i));

      // A table this small would be scanned and sorted: forbidding both shows what the index range reads.
      await client.query('SET enable_seqscan = off');
      await client.query('SET enable_sort = off');
      let read = 0;
      const count = (node: PlanNode): void => {
        if (node['Relation Name'] === 'records') {
          read += node['Actual Rows'] * node['Actual Loops'] + (node['Rows Removed by Filter'] ?? 0);
        }
        for (const child of node.Plans ?? []) count(child);
      };
      for (const statement of statements) {
        const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
          `EXPLAIN (ANALYZE, FORMAT JSON) ${statement.sql}`,
          [...statement.parameters],
        );
        count(rows[0]!['QUERY PLAN'][0]!.Plan);
      }
      // The page (limit + 1) and the probe for a previous page (1), not the 600 ties before the cursor.
      expect(read).toBeGreaterThanOrEqual(limit);
      expect(read).toBeLessThanOrEqual(limit + 4);
    } finally {
      await client.end();
      await engine.close();
    }
  });

  describe('an index left invalid', () => {
    const NAME = 'records_list_test_repair';
    const DEFINITION = 'records (tenant_id, resource, id)';
    let engine: PostgresEngine;
    let client: Client;

    beforeEach(async () => {
      engine = (await openMigratedStorage(storage)) as PostgresEngine;
      client = new Client({ connectionString: storage.url });
      await client.connect();
      await client.query(`INSERT INTO tenants (id, name) VALUES ('acme', 'Acme')`);
      await client.query(
        `INSERT INTO records (tenant_id, resource, data, created_at, updated_at)
         VALUES ('acme', 'notes', '{}', 0, 0), ('acme', 'notes', '{}', 0, 0)`,
      );
    });

    afterEach(async () => {
      await client.end();
      await engine.close();
    });

    const indexState = async () =>
      (
        await client.query<{ oid: number; valid: boolean; definition: string }>(
          `SELECT indexrelid::int AS oid, indisvalid AS valid, pg_get_indexdef(indexrelid) AS definition
             FROM pg_index WHERE indexrelid = to_regclass($1)`,
          [NAME],
        )
      ).rows[0];

    it('is dropped and built again when no backend is building it (a build interrupted with its process)', async () => {
      // A concurrent build that fails leaves its index behind, invalid, as one cut short by SIGKILL does.
      const failed = await client.query(`CREATE UNIQUE INDEX CONCURRENTLY ${NAME} ON records (tenant_id)`).then(
        () => undefined,
        (error: unknown) => error as { code?: string },
      );
      expect(failed?.code).toBe('23505');
      expect((await indexState())?.valid).toBe(false);

      await engine.ensureIndex(NAME, DEFINITION);
      await engine.indexBuildsSettled();
      const repaired = await indexState();
      expect(repaired?.valid).toBe(true);
      expect(repaired?.definition).toContain('(tenant_id, resource, id)');
      expect(repaired?.definition).not.toContain('UNIQUE');
    });

    it('is left alone while another backend is building it', async () => {
      // An open transaction that wrote to the table holds the other build in its wait, its index already there.
      const writer = new Client({ connectionString: storage.url });
      const builder = new Client({ connectionString: storage.url });
      await writer.connect();
      await builder.connect();
      try {
        await writer.query('BEGIN');
        await writer.query(
          `INSERT INTO records (tenant_id, resource, data, created_at, updated_at) VALUES ('acme', 'notes', '{}', 0, 0)`,
        );
        const otherBuild = builder.query(`CREATE INDEX CONCURRENTLY ${NAME} ON ${DEFINITION}`);
        let building = await indexState();
        for (let attempt = 0; attempt < 100 && !building; attempt++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          building = await indexState();
        }
        expect(building?.valid).toBe(false);

        await engine.ensureIndex(NAME, DEFINITION);
        await engine.indexBuildsSettled();
        expect(await indexState()).toEqual(building);

        await writer.query('COMMIT');
        await otherBuild;
        expect(await indexState()).toEqual({ ...building, valid: true });
      } finally {
        await writer.end();
        await builder.end();
      }
    });
  });

  it('cancels a statement beyond DATABASE_STATEMENT_TIMEOUT_MS, answered as unavailable', async () => {
    const engine = await openMigratedStorage({
      ...storage,
      statementTimeoutMs: 300,
    });
    try {
      const failure = await sql`SELECT pg_sleep(3)`.execute(engine.db).then(
        () => undefined,
        (error: unknown) => error as { code?: string },
      );
      expect(failure?.code).toBe('57014');
      expect(toHttpError(failure).status).toBe(503);
    } finally {
      await engine.close();
    }
  });

  it('ends the pool on close', async () => {
    const a = await host();
    expect((await request(a.app.handler).get('/readyz')).status).toBe(200);
    const pool = (a.app.storage as PostgresEngine).pool;
    expect(pool.totalCount).toBeGreaterThan(0);
    await a.app.close();
    expect(pool.ended).toBe(true);
    expect(pool.totalCount).toBe(0);
  });
});
