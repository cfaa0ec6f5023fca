import http2 from 'node:http2';
import net from 'node:net';
import path from 'node:path';
import type { SlotsPayload } from '../shared';
import { describeWithPostgres, PostgresServer } from '../testing/server/postgres-server';
import { makeSelfSignedCert } from '../testing/server/self-signed-cert';
import { waitUntil } from '../testing/server/wait-until';
import { STORES_CLOSE_TIMEOUT_MESSAGE } from './process/graceful-shutdown';
import { POSTGRES_STOPPED_MESSAGE } from './storage/postgres-outage-log';
import { makeTempDir, type TempDir } from '../testing/temp-dir';
import { printedUrl, runServerEntry } from '../testing/server/server-entry-run';

const ENTRY = 'testing/server/start-server-entry.ts';

jest.setTimeout(60_000);

describe('startServer', () => {
  let dir: TempDir;

  beforeEach(() => {
    dir = makeTempDir();
  });

  afterEach(() => {
    dir.remove();
  });

  it('starts the product with the entry’s registrations, runs afterReady before listening, and stops on SIGTERM', async () => {
    const started = runServerEntry(ENTRY, {
      DATABASE_PATH: path.join(dir.path, 'app.db'),
      DEMO_PASSWORD: 'entry-demo-password',
    });
    try {
      const url = await printedUrl(started);
      const output = started.output();
      expect(output).toContain('after ready: 2 tenants');
      expect(output.indexOf('after ready')).toBeLessThan(output.indexOf('Slots platform is ready'));
      expect(output).toContain('Sign in as "admin" with the password set in DEMO_PASSWORD.');

      const slots = (await (await fetch(`${url}/slots`)).json()) as SlotsPayload;
      // Demo content first, then the entry's own registration.
      expect(slots.slots['login-sidebar']?.map((entry) => entry.component)).toEqual([
        'LoginSidebarPromo',
        'EntryPromo',
      ]);
      expect((await fetch(`${url}/readyz`)).status).toBe(200);

      started.kill('SIGTERM');
      expect(await started.exited).toBe(0);
      expect(started.output()).toContain('"msg":"stopped"');
      // Every store closed: no line names one left open.
      expect(started.output()).not.toContain('notClosed');
    } finally {
      started.kill('SIGKILL');
    }
  });

  it('says to open PUBLIC_URL, logs it, and answers its origin as its own: sign-in and the remotes’ files', async () => {
    const PAGES = 'https://admin.example.com';
    const started = runServerEntry(ENTRY, { DATABASE_PATH: path.join(dir.path, 'app.db'), PUBLIC_URL: `${PAGES}/` });
    try {
      const url = await printedUrl(started);
      expect(started.output()).toContain(`open ${PAGES}/ (this server listens on ${url}/)`);
      // The log's line may reach the output after the start message, written straight to stdout: waited for.
      const listening = () =>
        started.logLines<{ msg?: string; publicUrl?: string }>().find((line) => line.msg === 'listening');
      await waitUntil(() => Promise.resolve(listening() !== undefined), 10_000, 'the log line "listening"');
      expect(listening()?.publicUrl).toBe(`${PAGES}/`);
      // https pages, but no TRUST_PROXY nor TLS here: the cookie would go without Secure, and the start says so.
      expect(started.output()).toContain(`"msg":"PUBLIC_URL is ${PAGES}, but this server sees no TLS`);

      // A proxy that rewrites Host: the browser's Origin is the pages', not this server's address.
      const signIn = (origin: string) =>
        fetch(`${url}/login`, {
          method: 'POST',
          headers: { Origin: origin, 'Content-Type': 'application/json' },
          body: JSON.stringify({ username: 'admin', password: 'not-the-password' }),
        });
      expect((await signIn(PAGES)).status).toBe(401);
      expect((await signIn('https://elsewhere.example')).status).toBe(403);

      const manifest = await fetch(`${url}/remotes/team_marketing/mf-manifest.json`, { headers: { Origin: PAGES } });
      expect(manifest.status).toBe(200);
      expect(manifest.headers.get('access-control-allow-origin')).toBe(PAGES);
      started.kill('SIGTERM');
      expect(await started.exited).toBe(0);
    } finally {
      started.kill('SIGKILL');
    }
  });

  it('checks the tenants that rules name once the demo is seeded: no warning for "acme" on the first start', async () => {
    const started = runServerEntry(ENTRY, {
      DATABASE_PATH: path.join(dir.path, 'app.db'),
      DEMO_PASSWORD: 'entry-demo-password',
    });
    try {
      const url = await printedUrl(started);
      const unknownTenant = (name: string) => `names the unknown tenant \\"${name}\\"`;
      const deadline = Date.now() + 10_000;
      while (!started.output().includes(unknownTenant('acmee')) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // Nor does a request (an app used directly checks on its first one): once each.
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
      started.kill('SIGTERM');
      expect(await started.exited).toBe(0);
      const output = started.output();
      expect(output.split(unknownTenant('acmee'))).toHaveLength(2);
      expect(output).not.toContain(unknownTenant('acme'));
    } finally {
      started.kill('SIGKILL');
    }
  });

  it('speaks HTTPS with HTTP/2 given TLS_CERT_FILE and TLS_KEY_FILE, says so, and still stops cleanly on SIGTERM', async () => {
    const cert = makeSelfSignedCert();
    const started = runServerEntry(ENTRY, {
      DATABASE_PATH: path.join(dir.path, 'app.db'),
      DEMO_PASSWORD: 'entry-demo-password',
      TLS_CERT_FILE: cert.certFile,
      TLS_KEY_FILE: cert.keyFile,
    });
    try {
      const url = await printedUrl(started);
      expect(url).toMatch(/^https:\/\//);
      const client = http2.connect(url, { rejectUnauthorized: false });
      try {
        const status = await new Promise<number>((resolve, reject) => {
          const stream = client.request({ ':path': '/readyz' });
          stream.on('response', (headers) => resolve(Number(headers[':status'])));
          stream.on('error', reject);
          stream.resume();
        });
        expect(status).toBe(200);
        expect(client.alpnProtocol).toBe('h2');
        // The open HTTP/2 connection does not hold the shutdown: it gets a GOAWAY and closes.
        started.kill('SIGTERM');
        expect(await started.exited).toBe(0);
      } finally {
        client.destroy();
      }
      expect(started.output()).toContain('"protocols":"h2, http/1.1 (TLS)"');
    } finally {
      started.kill('SIGKILL');
      cert.dir.remove();
    }
  });

  it('refuses to start with TLS_CERT_FILE alone, naming what is missing', async () => {
    const started = runServerEntry(ENTRY, {
      DATABASE_PATH: path.join(dir.path, 'app.db'),
      TLS_CERT_FILE: '/nonexistent/cert.pem',
    });
    expect(await started.exited).toBe(1);
    expect(started.output()).toContain('TLS_CERT_FILE is set but TLS_KEY_FILE is not');
    expect(started.output()).not.toContain('Slots platform is ready');
  });

  it('refuses a port taken, or a HOST that is no address here, naming the setting to change', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as net.AddressInfo;
    try {
      const started = runServerEntry(ENTRY, { DATABASE_PATH: path.join(dir.path, 'app.db'), PORT: String(port) });
      expect(await started.exited).toBe(1);
      expect(started.output()).toContain(`PORT=${port} is taken on 127.0.0.1: another process listens there.`);
    } finally {
      taken.close();
    }
    const elsewhere = runServerEntry(ENTRY, { DATABASE_PATH: path.join(dir.path, 'app.db'), HOST: '192.0.2.1' });
    expect(await elsewhere.exited).toBe(1);
    expect(elsewhere.output()).toContain('HOST=192.0.2.1 is not an address of this machine');
  });

  it('says a port taken by a connection, where nothing listens, is among the ports of outgoing connections', async () => {
    // A connection's own end: a port Linux gave from its range for outgoing connections, bound and not listening.
    const listener = net.createServer();
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const connection = net.connect((listener.address() as net.AddressInfo).port, '127.0.0.1');
    await new Promise((resolve) => connection.once('connect', resolve));
    const port = connection.localPort!;
    try {
      const started = runServerEntry(ENTRY, { DATABASE_PATH: path.join(dir.path, 'app.db'), PORT: String(port) });
      expect(await started.exited).toBe(1);
      expect(started.output()).toContain(`PORT=${port} is taken on 127.0.0.1, though nothing listens there`);
      expect(started.output()).toMatch(/among the ports Linux gives outgoing connections \(\d+ to \d+, /);
      expect(started.output()).toMatch(/Choose a PORT below \d+\./);
    } finally {
      connection.destroy();
      listener.close();
    }
  });

  it('fails the start when a registration throws, with nothing left running', async () => {
    const started = runServerEntry(ENTRY, {
      DATABASE_PATH: path.join(dir.path, 'app.db'),
      START_ENTRY_FAIL: 'configure',
    });
    expect(await started.exited).toBe(1);
    expect(started.output()).toContain('The entry could not start: registration refused by the entry');
    expect(started.output()).not.toContain('Slots platform is ready');
  });
});

interface LogLine {
  level: number;
  msg: string;
  outcome?: string;
  notClosed?: string[];
}

/**
 * A shutdown that stops waiting for the stores says which it left unclosed: the frozen PostgreSQL, named as the
 * operator set it, where the line alone asked "a database or Redis not answering?" (server/process/graceful-shutdown.ts).
 */
describeWithPostgres()('startServer stopped while its PostgreSQL is frozen', () => {
  let postgres: PostgresServer | undefined;

  beforeAll(async () => {
    postgres = await PostgresServer.start();
  }, 60_000);

  afterAll(async () => {
    postgres?.thaw();
    await postgres?.remove();
  });

  it('names the database it could not close on the timeout’s line and on the last one', async () => {
    const server = postgres as PostgresServer;
    const started = runServerEntry(ENTRY, {
      DATABASE_URL: await server.createDatabase('frozen_stores'),
      SESSION_SECRET: 'a-session-secret-of-enough-characters',
      DEMO_PASSWORD: 'entry-demo-password',
      SHUTDOWN_TIMEOUT_MS: '1000',
      // Far above the shutdown's bound: closing the pool would wait for its statements this long.
      DATABASE_STATEMENT_TIMEOUT_MS: '40000',
    });
    try {
      await printedUrl(started);
      server.freeze();
      // The health watch's probe holds a connection of the pool once the outage is logged.
      await waitUntil(
        async () => started.logLines<LogLine>().some(({ msg }) => msg === POSTGRES_STOPPED_MESSAGE),
        30_000,
        'the outage logged',
      ).catch((error: unknown) => {
        throw new Error(`${String(error)}\n${started.output()}`);
      });
      started.kill('SIGTERM');
      expect(await started.exited).toBe(1);
      const database = `PostgreSQL "frozen_stores" on 127.0.0.1:${server.port}`;
      const lines = started.logLines<LogLine>();
      expect(lines).toContainEqual(
        expect.objectContaining({ level: 50, msg: STORES_CLOSE_TIMEOUT_MESSAGE, notClosed: [database] }),
      );
      expect(lines.at(-1)).toMatchObject({ msg: 'stopped', outcome: 'failed', notClosed: [database] });
      // Before the stores were closed, nothing is named.
      expect(lines.find(({ msg }) => msg === 'shutting down: no longer ready')).not.toHaveProperty('notClosed');
    } finally {
      started.kill('SIGKILL');
      server.thaw();
    }
  });
});
