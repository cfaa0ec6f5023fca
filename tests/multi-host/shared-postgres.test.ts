/**
 * Several hosts, one PostgreSQL: two real server processes, each in a working folder of its own with no file in
 * common, share only DATABASE_URL and SESSION_SECRET. Users, tenants, records and sessions must all live in
 * PostgreSQL, so whichever host a request reaches answers the same, and losing one host loses nothing.
 */
import { spawn } from 'node:child_process';
import { ERROR_MESSAGES } from '../../shared';
import type { MePayload, MetaPayload, RecordListPayload, RecordPayload } from '../../shared';
import { PostgresServer, describeWithPostgres } from '../../testing/server/postgres-server';
import { DEMO_PASSWORD, DEMO_USERNAME, type AppServer } from '../../testing/system/app-server';
import { REPO_ROOT } from '../../testing/system/repo-root';
import { requestJson, signIn } from '../multi-instance/support/session-client';
import { localStateFilesIn, startPostgresHost } from './support/postgres-host';
import { queryPostgres } from './support/postgres-query';

jest.setTimeout(120_000);

const describePostgres = describeWithPostgres();

/** Low, so the test reaches it in a few attempts. */
const LOGIN_LIMIT = 4;
const HOST_ENV = { LOGIN_RATE_LIMIT: String(LOGIN_LIMIT) };

/** `npm run user:add -- <username>` as an operator runs it, the password piped to stdin. */
function runUserAdd(
  databaseUrl: string,
  username: string,
  password: string,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', 'user:add', '--', username], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl, DATABASE_PATH: undefined },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
    child.stdin.end(`${password}\n`);
  });
}

describePostgres('two hosts sharing only PostgreSQL', () => {
  let postgres: PostgresServer | undefined;
  let databaseUrl: string;
  let first: AppServer | undefined;
  let second: AppServer | undefined;

  beforeAll(async () => {
    postgres = await PostgresServer.start();
    databaseUrl = await postgres.createDatabase('multi_host');
    // One after the other here; starting together is the migrations suite's question.
    first = await startPostgresHost(databaseUrl, { env: HOST_ENV });
    second = await startPostgresHost(databaseUrl, { env: HOST_ENV });
  });

  afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop()]);
    await postgres?.remove();
  });

  const hosts = (): [AppServer, AppServer] => [first as AppServer, second as AppServer];

  it('serves a session made on one host on the other, and a record saved on one is read on both', async () => {
    const [a, b] = hosts();
    const cookie = await signIn(a.url, DEMO_USERNAME, DEMO_PASSWORD);

    const meta = await requestJson(b.url, '/meta', { cookie });
    expect(meta.status).toBe(200);
    expect(Object.keys((meta.body as MetaPayload).slots)).toContain('tenant-switcher');
    const me = await requestJson(b.url, '/me', { cookie });
    expect((me.body as MePayload).user.username).toBe(DEMO_USERNAME);
    const sessions = await queryPostgres<{ sess: unknown }>(databaseUrl, 'SELECT sess FROM sessions');
    expect(sessions.some((row) => JSON.stringify(row.sess).includes('"passport"'))).toBe(true);

    const list = await requestJson(b.url, '/api/resources/articles/records', { cookie });
    expect(list.status).toBe(200);
    const [article] = (list.body as RecordListPayload).records;
    if (article === undefined) throw new Error('The demo seeding left no article in PostgreSQL.');
    const label = `Saved on host B at ${Date.now()}`;
    const saved = await requestJson(b.url, `/api/resources/articles/records/${article.id}`, {
      method: 'PUT',
      cookie,
      body: { label },
    });
    expect(saved.status).toBe(200);
    expect((saved.body as RecordPayload).record.label).toBe(label);

    for (const host of [a, b]) {
      const read = await requestJson(host.url, `/api/resources/articles/records/${article.id}`, { cookie });
      expect(read.status).toBe(200);
      expect((read.body as RecordPayload).record).toMatchObject({ id: article.id, label, title: article.title });
    }
  });

  it('carries a change of tenant made on one host to the other', async () => {
    const [a, b] = hosts();
    const cookie = await signIn(b.url, DEMO_USERNAME, DEMO_PASSWORD);
    const switched = await requestJson(a.url, '/tenant', { method: 'POST', cookie, body: { tenant: 'globex' } });
    expect(switched.status).toBe(200);
    expect(((await requestJson(b.url, '/me', { cookie })).body as MePayload).user.currentTenant).toBe('globex');
  });

  it('counts failed sign-ins across both hosts in PostgreSQL, then refuses with 429 on either', async () => {
    const username = 'multi-host-intruder';
    const [a, b] = hosts();
    for (let attempt = 0; attempt < LOGIN_LIMIT; attempt += 1) {
      const refused = await requestJson((attempt % 2 === 0 ? a : b).url, '/login', {
        method: 'POST',
        body: { username, password: `wrong-${attempt}` },
      });
      expect(refused.status).toBe(401);
    }
    for (const host of [a, b]) {
      const limited = await requestJson(host.url, '/login', {
        method: 'POST',
        body: { username, password: 'one-more-guess' },
      });
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({ error: { code: 'too_many_requests', message: ERROR_MESSAGES.tooManyAttempts } });
    }
    const counters = await queryPostgres<{ key: string }>(databaseUrl, 'SELECT key FROM login_rate_limits');
    expect(counters.some((row) => row.key.includes(username))).toBe(true);
  });

  it('writes no SQLite file and no session-secret file into either working folder', () => {
    for (const host of hosts()) {
      expect(localStateFilesIn(host.tempDir.path)).toEqual([]);
    }
  });

  it('adds an account with npm run user:add against DATABASE_URL; it signs in on both hosts', async () => {
    const [a, b] = hosts();
    const password = 'multi-host-editor-password';
    const run = await runUserAdd(databaseUrl, 'multi-host-editor', password);
    expect(run.output).toContain('Created the staff account "multi-host-editor"');
    expect(run.code).toBe(0);
    expect(run.output).not.toContain(password);

    for (const host of [a, b]) {
      const cookie = await signIn(host.url, 'multi-host-editor', password);
      const me = await requestJson(host.url, '/me', { cookie });
      expect((me.body as MePayload).user.username).toBe('multi-host-editor');
      expect((await requestJson(host.url, '/meta', { cookie })).status).toBe(200);
    }
  });

  it('keeps a session when one host is killed (SIGKILL): valid on the other, and on the killed one after its restart', async () => {
    const [a, b] = hosts();
    const cookie = await signIn(a.url, DEMO_USERNAME, DEMO_PASSWORD);
    expect((await requestJson(b.url, '/meta', { cookie })).status).toBe(200);

    process.kill(a.process.pid, 'SIGKILL');
    expect((await a.process.exited).signal).toBe('SIGKILL');

    const onSurvivor = await requestJson(b.url, '/meta', { cookie });
    expect(onSurvivor.status).toBe(200);
    expect(((await requestJson(b.url, '/me', { cookie })).body as MePayload).user.username).toBe(DEMO_USERNAME);

    // The same host again: its own folder, the same shared database; the start must also cope with the data
    // (demo account, records) that is already there.
    first = await startPostgresHost(databaseUrl, { tempDir: a.tempDir, env: HOST_ENV });
    const onRestarted = await requestJson(first.url, '/meta', { cookie });
    expect(onRestarted.status).toBe(200);
    expect(((await requestJson(first.url, '/me', { cookie })).body as MePayload).user.username).toBe(DEMO_USERNAME);
    expect(localStateFilesIn(first.tempDir.path)).toEqual([]);
  });
});
