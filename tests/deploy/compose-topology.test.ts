/**
 * deploy/compose.yaml run for real with podman-compose: the image of this checkout (its Dockerfile on the stand-in
 * base) as both hosts, and stand-ins of the public PostgreSQL, Redis and nginx images (no registry is reachable
 * here), each passed through the variable the file reads. Shows the topology issue 49 promises: HTTPS with HTTP/2
 * through the proxy (its self-signed certificate made at start), a sign-in through it, the session answering /meta
 * on either host, migrations applied once, a host stopped mid-request finishing it, a rolling restart of the hosts
 * under a bounded load failing no request, each host's /metrics (the image's revision) kept off the proxy, PostgreSQL
 * restarted: 503s, then recovery, and a release published and
 * activated on one host served by the other. Each wait is polled with a bound. tests/deploy/fixtures/compose.test-ports.yaml publishes the hosts on
 * loopback ports for the test alone.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http2 from 'node:http2';
import path from 'node:path';
import type { RemoteHistoryPayload, RemotesPayload } from '../../shared';
import { buildAppImage } from '../../testing/containers/app-image';
import { startBoundedLoad, type LoadRequest, type LoadResult } from '../../testing/containers/bounded-load';
import { podman, PODMAN_RUNTIME } from '../../testing/containers/podman';
import { ensureStandinImage } from '../../testing/containers/standin-images';
import { ensureStandinProxyImage } from '../../testing/containers/standin-proxy';
import { describeWithCommand } from '../../testing/describe-with-command';
import { getFreePort } from '../../testing/system/free-port';
import { REPO_ROOT } from '../../testing/system/repo-root';
import { slowJsonPost } from './slow-request';
import { pollUntil } from '../../testing/containers/poll-until';
import { upstreamInProxyLog } from '../../testing/containers/two-releases';

const describeWithPodmanCompose = describeWithCommand('podman-compose', ['version'], 'podman-compose');
const log = (line: string): void => void process.stdout.write(`[compose] ${line}\n`);

const PROJECT = `slots-topology-${randomBytes(3).toString('hex')}`;
const DEMO_PASSWORD = 'compose-demo-password';
const METRICS_TOKEN = `metrics-${randomBytes(12).toString('hex')}`;
/** A remote built into the image: its files are served by every host at /remotes/<name>/. */
const REMOTE = 'team_marketing';
const FILES = [
  path.join(REPO_ROOT, 'deploy', 'compose.yaml'),
  path.join(REPO_ROOT, 'tests', 'deploy', 'fixtures', 'compose.test-ports.yaml'),
];

function compose(args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'podman-compose',
      [`--podman-args=--runtime ${PODMAN_RUNTIME}`, '-p', PROJECT, ...FILES.flatMap((file) => ['-f', file]), ...args],
      { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

interface Answer {
  status: number;
  protocol: string;
  headers: http2.IncomingHttpHeaders;
  body: string;
}

/** One request through the proxy over HTTPS and HTTP/2 (the certificate is the proxy's self-signed one). */
function throughProxy(
  port: number,
  requestPath: string,
  options: { method?: string; body?: unknown; cookie?: string; forwardedFor?: string; authorization?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(`https://localhost:${port}`, { rejectUnauthorized: false });
    session.once('error', reject);
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const stream = session.request({
      ':method': options.method ?? 'GET',
      ':path': requestPath,
      origin: `https://localhost:${port}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...(options.forwardedFor ? { 'x-forwarded-for': options.forwardedFor } : {}),
      ...(options.authorization ? { authorization: options.authorization } : {}),
    });
    stream.setTimeout(10_000, () => stream.close(http2.constants.NGHTTP2_CANCEL));
    let text = '';
    let headers: http2.IncomingHttpHeaders = {};
    stream.on('response', (received) => (headers = received));
    stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
    stream.once('error', (error) => {
      session.close();
      reject(error);
    });
    stream.once('end', () => {
      session.close();
      resolve({ status: Number(headers[':status']), protocol: session.alpnProtocol ?? '', headers, body: text });
    });
    stream.end(body);
  });
}

/** A JSON request straight to a host on its test-published port. */
async function hostJson(
  port: number,
  requestPath: string,
  options: { method?: string; body?: unknown; cookie?: string; authorization?: string } = {},
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`http://127.0.0.1:${port}${requestPath}`, {
    method: options.method ?? 'GET',
    headers: {
      accept: 'application/json',
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...(options.authorization ? { authorization: options.authorization } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    // Not JSON: kept as text, for the failure's message.
  }
  return { status: response.status, body };
}

async function hostGet(port: number, requestPath: string, cookie?: string): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}${requestPath}`, {
    headers: cookie ? { cookie } : {},
    signal: AbortSignal.timeout(10_000),
  });
  await response.arrayBuffer();
  return response.status;
}

const container = (service: string): string => `${PROJECT}_${service}_1`;

/**
 * The session cookie of the demo admin, signed in through the proxy. A stream the proxy refused (REFUSED_STREAM: not
 * processed, RFC 9113 section 8.7) is sent once more, as browsers do: the start script reloads nginx within a second of
 * a host coming back, and a sign-in right after the previous test restarted one met that reload.
 */
async function signInThroughProxy(port: number): Promise<string> {
  const send = () =>
    throughProxy(port, '/login', { method: 'POST', body: { username: 'admin', password: DEMO_PASSWORD } });
  const signIn = await send().catch((error: unknown) => {
    if (!String(error).includes('NGHTTP2_REFUSED_STREAM')) throw error;
    return send();
  });
  if (signIn.status !== 200) throw new Error(`sign-in through the proxy answered ${signIn.status}: ${signIn.body}`);
  return [signIn.headers['set-cookie'] ?? []]
    .flat()
    .map((line) => line.split(';')[0])
    .join('; ');
}

/** The hosts in the proxy's upstream, as its start script last logged them ("host-a, host-b"), or null. */
async function proxyUpstream(): Promise<string | null> {
  const logs = await podman(['logs', container('proxy')], { allowFailure: true });
  return upstreamInProxyLog(`${logs.stdout}${logs.stderr}`);
}

const addressOf = (name: string): Promise<string> =>
  podmanInspect(name, '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}');

async function podmanInspect(name: string, format: string): Promise<string> {
  return (await podman(['inspect', '--format', format, name])).stdout.trim();
}

describeWithPodmanCompose('deploy/compose.yaml run with podman-compose', () => {
  const env: NodeJS.ProcessEnv = {};
  let httpsPort = 0;
  let httpPort = 0;
  let hostPorts: Record<'host-a' | 'host-b', number> = { 'host-a': 0, 'host-b': 0 };
  let started = false;

  beforeAll(async () => {
    const began = Date.now();
    const [slots, postgres, redis, proxy] = [
      await buildAppImage({ log }),
      await ensureStandinImage('postgres', { log }),
      await ensureStandinImage('redis', { log }),
      await ensureStandinProxyImage({ log }),
    ];
    log(`images ready in ${((Date.now() - began) / 1000).toFixed(0)} s`);
    httpsPort = await getFreePort();
    hostPorts = { 'host-a': await getFreePort(), 'host-b': await getFreePort() };
    Object.assign(env, {
      SLOTS_IMAGE: slots,
      POSTGRES_IMAGE: postgres,
      REDIS_IMAGE: redis,
      PROXY_IMAGE: proxy,
      SESSION_SECRET: randomBytes(32).toString('hex'),
      POSTGRES_PASSWORD: randomBytes(16).toString('hex'),
      DEMO_PASSWORD,
      METRICS_TOKEN,
      HTTPS_PORT: String(httpsPort),
      HTTP_PORT: String((httpPort = await getFreePort())),
      HOST_A_PORT: String(hostPorts['host-a']),
      HOST_B_PORT: String(hostPorts['host-b']),
    });
    const up = Date.now();
    started = true;
    const run = await compose(['up', '-d'], env);
    if (run.code !== 0) throw new Error(`podman-compose up exited ${run.code}\n${run.output.slice(-4000)}`);
    // Both hosts ready (one may have exited and been started again while PostgreSQL was starting), then the proxy
    // answering on four polls in a row: it reloads within 2 s when a restarted host came back on a new address.
    for (const port of Object.values(hostPorts)) {
      await pollUntil(`the host on ${port} ready`, 180_000, async () => (await hostGet(port, '/readyz')) === 200);
    }
    let inARow = 0;
    await pollUntil('/readyz through the proxy, 4 times in a row', 60_000, async () => {
      inARow = (await throughProxy(httpsPort, '/readyz')).status === 200 ? inARow + 1 : 0;
      return inARow >= 4;
    });
    const restarts = await Promise.all(
      ['host-a', 'host-b'].map(async (name) => podmanInspect(container(name), '{{.RestartCount}}')),
    );
    log(
      `up and ready through the proxy in ${((Date.now() - up) / 1000).toFixed(0)} s (hosts restarted ${restarts.join(', ')} times at start)`,
    );
  }, 40 * 60_000);

  afterAll(async () => {
    if (!started) return;
    const down = await compose(['down', '-v'], env);
    if (down.code !== 0) log(`podman-compose down exited ${down.code}: ${down.output.slice(-2000)}`);
    // podman-compose 1.0 leaves the project's network behind.
    await podman(['network', 'rm', '--force', `${PROJECT}_default`], { allowFailure: true });
  }, 180_000);

  it('answers /healthz through the proxy over HTTPS with HTTP/2, the certificate made by the proxy at start', async () => {
    const health = await throughProxy(httpsPort, '/healthz');
    expect(health.status).toBe(200);
    expect(health.protocol).toBe('h2');
    const made = await podman(['logs', container('proxy')], { allowFailure: true });
    expect(`${made.stdout}${made.stderr}`).toContain('making a self-signed one for localhost');
  });

  it("has each host name the proxy's address as where to open the product, not its own", async () => {
    for (const name of ['host-a', 'host-b']) {
      const logs = await podman(['logs', container(name)], { allowFailure: true });
      expect(`${logs.stdout}${logs.stderr}`).toContain(
        `Slots platform is ready: open https://localhost:${httpsPort}/ (this server listens on http://localhost:3000/)`,
      );
    }
  });

  it('gives the hosts no volume of their own: their /data is in memory, so `down` leaves no anonymous volume', async () => {
    for (const name of ['host-a', 'host-b']) {
      const mounts = await podmanInspect(container(name), '{{range .Mounts}}{{.Type}}:{{.Destination}} {{end}}');
      expect(mounts).not.toMatch(/volume:\/data\b/);
    }
  });

  it('redirects plain HTTP to HTTPS on the port compose publishes, keeping the path and query', async () => {
    const response = await fetch(`http://127.0.0.1:${httpPort}/records/articles?page=2`, {
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer();
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe(`https://127.0.0.1:${httpsPort}/records/articles?page=2`);
  });

  it("serves each host's /metrics on the compose network only, naming the revision its image was built from", async () => {
    // Through the proxy a scrape would reach either host: one host's counters, then the other's, read as one.
    for (const spelling of ['/metrics', '/Metrics', '/metrics/', '/metrics?name=x']) {
      const edge = await throughProxy(httpsPort, spelling, { authorization: `Bearer ${METRICS_TOKEN}` });
      expect([spelling, edge.status]).toEqual([spelling, 404]);
      expect(JSON.parse(edge.body)).toEqual({
        error: { code: 'not_found', message: expect.stringContaining('scrape each host on the compose network') },
      });
    }
    const label = await podmanInspect(env.SLOTS_IMAGE!, '{{index .Config.Labels "org.opencontainers.image.revision"}}');
    const described = /^([0-9a-f]{40})(-dirty)?$/.exec(label);
    const revision = described ? `${described[1]!.slice(0, 12)}${described[2] ?? ''}` : 'unknown';
    for (const port of Object.values(hostPorts)) {
      const own = await hostJson(port, '/metrics', { authorization: `Bearer ${METRICS_TOKEN}` });
      expect(own.status).toBe(200);
      expect(String(own.body)).toContain(`slots_build_info{revision="${revision}",schema=`);
    }
  });

  it('signs in through the proxy, and the session answers /meta on each host', async () => {
    const signIn = await throughProxy(httpsPort, '/login', {
      method: 'POST',
      body: { username: 'admin', password: DEMO_PASSWORD },
    });
    expect(signIn.status).toBe(200);
    const setCookie = [signIn.headers['set-cookie'] ?? []].flat();
    // Secure: the hosts believe the proxy's X-Forwarded-Proto (TRUST_PROXY).
    expect(setCookie.join('\n')).toMatch(/;\s*Secure/i);
    const cookie = setCookie.map((line) => line.split(';')[0]).join('; ');

    expect(await hostGet(hostPorts['host-a'], '/meta', cookie)).toBe(200);
    expect(await hostGet(hostPorts['host-b'], '/meta', cookie)).toBe(200);
    expect(await hostGet(hostPorts['host-b'], '/meta')).toBe(401);
    expect((await throughProxy(httpsPort, '/meta', { cookie })).status).toBe(200);
  });

  it("counts a sign-in by the client's address as the proxy saw it, never one the client wrote itself", async () => {
    // A client on a private network (here the engine's port forwarding) sends the address it wants counted.
    const forged = '203.0.113.7';
    const refused = await throughProxy(httpsPort, '/login', {
      method: 'POST',
      body: { username: 'forger', password: 'not-the-password' },
      forwardedFor: forged,
    });
    expect(refused.status).toBe(401);
    const logs = await Promise.all(
      ['host-a', 'host-b'].map((name) => podman(['logs', container(name)], { allowFailure: true })),
    );
    const refusals = logs
      .flatMap(({ stdout, stderr }) => `${stdout}${stderr}`.split('\n'))
      .filter((line) => line.includes('"sign-in refused"') && line.includes('"forger"'))
      .map((line) => JSON.parse(line) as { client: string });
    expect(refusals).toHaveLength(1);
    expect(refusals[0]!.client).not.toBe(forged);
    expect(refusals[0]!.client).toMatch(/^[\d.]+$|:/);
  });

  it('applied each migration once, though both hosts started together on an empty database', async () => {
    const rows = await podman([
      'exec',
      container('postgres'),
      'psql',
      '-U',
      'slots',
      '-d',
      'slots',
      '-Atc',
      "SELECT count(*) || ',' || count(DISTINCT version) FROM schema_version",
    ]);
    const [count, distinct] = rows.stdout.trim().split(',').map(Number);
    expect(count).toBeGreaterThan(0);
    expect(count).toBe(distinct);
  });

  it('a host stopped with SIGTERM in the middle of a request finishes it, exits 0, and the proxy serves on', async () => {
    const request = slowJsonPost(hostPorts['host-a'], '/login', { username: 'admin', password: DEMO_PASSWORD });
    await request.started;
    // `podman stop` sends the image's STOPSIGNAL (SIGTERM), as an operator stops a host; unlike `podman kill`, the
    // restart policy then leaves it stopped.
    const stopped = podman(['stop', '--time', '20', container('host-a')]);
    // Draining: /readyz answers 503 before the listener closes (SHUTDOWN_DELAY_MS).
    await pollUntil('host-a unready', 5_000, async () => (await hostGet(hostPorts['host-a'], '/readyz')) === 503);
    request.finish();
    expect((await request.answer).status).toBe(200);
    await stopped;
    expect(await podmanInspect(container('host-a'), '{{.State.ExitCode}}')).toBe('0');
    expect((await throughProxy(httpsPort, '/healthz')).status).toBe(200);

    await podman(['start', container('host-a')]);
    await pollUntil('host-a ready again', 60_000, async () => (await hostGet(hostPorts['host-a'], '/readyz')) === 200);
  }, 120_000);

  it('a rolling restart of the hosts, one at a time, under a bounded load through the proxy fails 0 requests', async () => {
    const cookie = await signInThroughProxy(httpsPort);
    // A stream the proxy refused (REFUSED_STREAM: RFC 9113 section 8.7 says it was not processed) is sent once more,
    // as browsers do: nginx refuses new streams on a connection its old worker accepted just as it reloaded.
    const status = async (requestPath: string, signedIn: boolean): Promise<number> => {
      const send = async () => (await throughProxy(httpsPort, requestPath, signedIn ? { cookie } : {})).status;
      try {
        return await send();
      } catch (error) {
        if (!String(error).includes('NGHTTP2_REFUSED_STREAM')) throw error;
        return send();
      }
    };
    const requests: LoadRequest[] = [
      { name: 'GET /login', send: () => status('/login', false), expected: 200 },
      { name: 'GET / signed in', send: () => status('/', true), expected: 200 },
      { name: 'GET /meta signed in', send: () => status('/meta', true), expected: 200 },
    ];
    // 4 clients with 50 ms between two requests of each: some 40 to 60 requests a second through the proxy, within
    // caps (6000 requests, 150 s) the restart stays well under; reaching one fails the test below.
    const load = startBoundedLoad({ clients: 4, requests, pauseMs: 50, maxRequests: 6000, maxMs: 150_000 });
    let ended: LoadResult;
    try {
      for (const name of ['host-a', 'host-b'] as const) {
        const began = Date.now();
        const sentBefore = load.sent();
        const addressBefore = await addressOf(container(name));
        // As an operator restarts a host: SIGTERM (podman stop), the host drains, exits 0, then starts again.
        await podman(['stop', '--time', '20', container(name)]);
        expect(await podmanInspect(container(name), '{{.State.ExitCode}}')).toBe('0');
        const sentWhileDown = load.sent();
        await podman(['start', container(name)]);
        // As an operator waits for the host to be healthy before the next one (compose's healthcheck asks /readyz
        // every 10 s; the proxy asks every second, so it sends to the host again well before).
        await pollUntil(`${name} ready again`, 60_000, async () => (await hostGet(hostPorts[name], '/readyz')) === 200);
        await pollUntil(`the proxy sends to ${name} again`, 15_000, async () => {
          return (await proxyUpstream()) === 'host-a, host-b';
        }).catch(async (error: unknown) => {
          // What the proxy sees of the host: its name's address, the upstream file, the host's own /readyz.
          const seen = await podman(
            [
              'exec',
              container('proxy'),
              'sh',
              '-c',
              `getent hosts ${name}; cat /run/slots-proxy/servers.conf; curl -sS -m 2 http://${name}:3000/readyz`,
            ],
            { allowFailure: true },
          );
          log(`${name} is at ${await addressOf(container(name))}; the proxy sees: ${seen.stdout} ${seen.stderr}`);
          throw error;
        });
        const addressAfter = await addressOf(container(name));
        log(
          `${name} restarted in ${((Date.now() - began) / 1000).toFixed(1)} s (address ${addressBefore} -> ` +
            `${addressAfter}), ${load.sent() - sentBefore} requests meanwhile, ${load.sent() - sentWhileDown} of ` +
            `them after it stopped, ${load.failures()} failed so far`,
        );
        // Requests went through the proxy while this host was down and starting.
        expect(load.sent()).toBeGreaterThan(sentWhileDown);
      }
    } finally {
      const result = await load.stop();
      log(
        `rolling restart load: ${result.sent} requests in ${(result.durationMs / 1000).toFixed(1)} s, ended ` +
          `${result.ended}, failed: ${JSON.stringify(result.failures.slice(0, 20))}`,
      );
      ended = result;
      // The proxy's own lines (the upstream it kept) and nginx's errors, without its access log.
      const proxyLog = await podman(['logs', container('proxy')], { allowFailure: true });
      const lines = `${proxyLog.stdout}${proxyLog.stderr}`.split('\n');
      const wanted = result.failures.length > 0 ? /proxy:|\[(error|warn|crit|alert|emerg)\]/ : /proxy:/;
      log(
        `proxy log:\n${lines
          .filter((line) => wanted.test(line))
          .slice(-60)
          .join('\n')}`,
      );
    }
    expect(ended.failures).toEqual([]);
    expect(ended.ended).toBe('stopped');
  }, 240_000);

  it('PostgreSQL stopped: 503s through the proxy; started again: ready with no host restarted', async () => {
    await podman(['stop', '--time', '20', container('postgres')]);
    await pollUntil('503 on /readyz', 20_000, async () => (await throughProxy(httpsPort, '/readyz')).status === 503);
    await podman(['start', container('postgres')]);
    await pollUntil('200 on /readyz', 60_000, async () => (await throughProxy(httpsPort, '/readyz')).status === 200);
    for (const port of Object.values(hostPorts)) expect(await hostGet(port, '/readyz')).toBe(200);
  }, 120_000);

  it('a release published and activated on one host is served by the other', async () => {
    // A team token made by the operators' command inside host-a, on the database both hosts share.
    const added = await podman(['exec', container('host-a'), 'node', 'dist/server/cli/team-token.js', 'add', REMOTE]);
    const token = added.stdout.trimEnd().split('\n').at(-1) as string;
    expect(token).toMatch(/^slt_/);

    // The release's files: the built-in remote's own, as each host serves them on its own loopback (a plain-http
    // entry must be on a loopback host in production), so whichever host checks them asks itself.
    const entry = `http://127.0.0.1:3000/remotes/${REMOTE}/mf-manifest.json`;
    const version = `compose-${randomBytes(3).toString('hex')}`;
    const published = await hostJson(hostPorts['host-a'], `/api/remotes/${REMOTE}/releases`, {
      method: 'POST',
      authorization: `Bearer ${token}`,
      body: { version, entry },
    });
    expect([published.status, published.body]).toEqual([201, expect.anything()]);

    const cookie = await signInThroughProxy(httpsPort);
    const activated = await hostJson(hostPorts['host-a'], `/api/remotes/${REMOTE}/activate`, {
      method: 'POST',
      cookie,
      body: { version },
    });
    expect([activated.status, activated.body]).toEqual([200, expect.anything()]);

    const servedIn = await pollUntil('host-b serving the release', 15_000, async () => {
      const remotes = (await hostJson(hostPorts['host-b'], '/api/remotes')).body as RemotesPayload;
      return remotes.remotes.some((remote) => remote.name === REMOTE && remote.entry === entry);
    });
    log(`release ${version} of ${REMOTE} served by host-b ${servedIn} ms after it was activated on host-a`);
    const history = (await hostJson(hostPorts['host-b'], `/api/remotes/${REMOTE}/history`, { cookie }))
      .body as RemoteHistoryPayload;
    expect(history.entries.slice(0, 2).map((item) => [item.action, item.actor])).toEqual([
      ['activate', 'admin'],
      ['publish', expect.stringMatching(/^token:/)],
    ]);
    const throughTheProxy = JSON.parse((await throughProxy(httpsPort, '/api/remotes')).body) as RemotesPayload;
    expect(throughTheProxy.remotes.find((remote) => remote.name === REMOTE)?.entry).toBe(entry);
  }, 60_000);
});
