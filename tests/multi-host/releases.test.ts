/**
 * Releases across two real server processes sharing only PostgreSQL: a team token made with `npm run token:add`
 * (its last line), a release published to one host, activated there by the demo operator, and served by the other
 * host within two seconds, with the audit trail the same on both.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { REMOTE_DESCRIPTOR_FILE, type RemoteHistoryPayload, type RemotesPayload } from '../../shared';
import { PostgresServer, describeWithPostgres } from '../../testing/server/postgres-server';
import { DEMO_PASSWORD, DEMO_USERNAME, type AppServer } from '../../testing/system/app-server';
import { REPO_ROOT } from '../../testing/system/repo-root';
import { fakeManifest } from '../../testing/fake-manifest';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { requestJson, signIn } from '../multi-instance/support/session-client';
import { startPostgresHost } from './support/postgres-host';

jest.setTimeout(120_000);

/** `npm run token:add -- <remote>` as an operator runs it; resolves to its output. */
function tokenAdd(
  databaseUrl: string,
  remotesConfig: string,
  remote: string,
): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', 'token:add', '--', remote], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl, DATABASE_PATH: undefined, REMOTES_CONFIG: remotesConfig },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout }));
  });
}

describeWithPostgres()('releases on two hosts sharing only PostgreSQL', () => {
  let postgres: PostgresServer | undefined;
  let databaseUrl: string;
  let first: AppServer | undefined;
  let second: AppServer | undefined;
  let origin: http.Server;
  let originUrl: string;
  /** REMOTES_CONFIG listing team_billing, as every host and the CLI are given it: releases are of declared remotes. */
  let declared: TempDir;
  let remotesConfig: string;

  beforeAll(async () => {
    origin = http.createServer((req, res) => {
      if (req.url?.endsWith(REMOTE_DESCRIPTOR_FILE)) {
        res.writeHead(200).end(JSON.stringify({ name: 'team_billing', components: ['InvoiceBanner'] }));
      } else if (req.url?.endsWith('/mf-manifest.json')) {
        res.writeHead(200).end(JSON.stringify(fakeManifest('team_billing', ['InvoiceBanner'])));
      } else if (req.url?.endsWith('/remoteEntry.js')) res.writeHead(200).end('var team_billing = {};');
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
    postgres = await PostgresServer.start();
    databaseUrl = await postgres.createDatabase('releases_hosts');
    declared = makeTempDir('slots-multi-host-declared-');
    remotesConfig = path.join(declared.path, 'remotes.json');
    const listed = { name: 'team_billing', entry: `${originUrl}/listed/remoteEntry.js`, components: ['InvoiceBanner'] };
    fs.writeFileSync(remotesConfig, JSON.stringify({ remotes: [listed] }));
    first = await startPostgresHost(databaseUrl, { env: { REMOTES_CONFIG: remotesConfig } });
    second = await startPostgresHost(databaseUrl, { env: { REMOTES_CONFIG: remotesConfig } });
  });

  afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop()]);
    await postgres?.remove();
    declared?.remove();
    await new Promise<void>((resolve) => origin.close(() => resolve()));
  });

  it('publishes on one host with a CLI token, activates there, and the other serves it within two seconds', async () => {
    const a = first as AppServer;
    const b = second as AppServer;
    const added = await tokenAdd(databaseUrl, remotesConfig, 'team_billing');
    expect(added.code).toBe(0);
    const token = added.stdout.trimEnd().split('\n').at(-1) as string;

    const entry = `${originUrl}/1.0.0/mf-manifest.json`;
    const published = await fetch(`${a.url}/api/remotes/team_billing/releases`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ version: '1.0.0', entry }),
    });
    expect(published.status).toBe(201);

    const cookie = await signIn(a.url, DEMO_USERNAME, DEMO_PASSWORD);
    const activated = await requestJson(a.url, '/api/remotes/team_billing/activate', {
      method: 'POST',
      cookie,
      body: { version: '1.0.0' },
    });
    expect(activated.status).toBe(200);
    // Counted from the activation's answer: what it takes the other host to see it, not the activation itself.
    const started = Date.now();
    for (;;) {
      const remotes = (await requestJson(b.url, '/api/remotes')).body as RemotesPayload;
      if (remotes.remotes.some((remote) => remote.entry === entry)) break;
      if (Date.now() - started > 2000) throw new Error('the other host did not serve the release within 2 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    const otherCookie = await signIn(b.url, DEMO_USERNAME, DEMO_PASSWORD);
    const history = (await requestJson(b.url, '/api/remotes/team_billing/history', { cookie: otherCookie }))
      .body as RemoteHistoryPayload;
    expect(history.entries.map((item) => [item.action, item.actor])).toEqual([
      ['activate', DEMO_USERNAME],
      ['publish', expect.stringMatching(/^token:/)],
      ['token-add', 'cli'],
    ]);
  });
});
