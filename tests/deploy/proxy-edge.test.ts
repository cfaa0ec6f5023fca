/**
 * The two nginx configurations (deploy/compose/nginx.conf, deploy/nginx.example.conf) run for real on the nginx
 * stand-in in front of the real server, as the edge a client reaches: what a client writes in a header the server
 * believes from its proxy (TRUST_PROXY) must not reach it, the health endpoints the example keeps from the public stay
 * refused however their path is spelled, nginx names no version, and its own answers (no host reachable, a refusal,
 * the redirect to HTTPS) carry the security headers the server puts on its answers, while the server's pass through
 * once and unchanged; with no host reachable, nginx answers as the server does when it cannot serve (503). The server runs without PUBLIC_URL, as the example starts it: then the address a request names is the
 * one it takes for its own.
 */
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { API_SECURITY_HEADERS, HSTS } from '../../server/security/api-security-headers';
import { ERROR_MESSAGES } from '../../shared';
import { describeWithCommand } from '../../testing/describe-with-command';
import { startContainer, type Container } from '../../testing/containers/container';
import { ensureStandinProxyImage, writeProxyCertificate } from '../../testing/containers/standin-proxy';
import { pathToFileURL } from 'node:url';
import { getFreePort } from '../../testing/system/free-port';
import { startServerProcess, type ServerProcess } from '../../testing/system/server-process';
import { REPO_ROOT } from '../../testing/system/repo-root';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';

const describeWithPodman = describeWithCommand('podman', ['--version'], 'podman runc debootstrap');

/** The machine as a container sees it (podman writes the name into every container's /etc/hosts). */
const HOST_FROM_CONTAINER = 'host.containers.internal';
/** The address staff open, and a page of another site's. */
const PRODUCT = 'admin.example.com';
const OTHER_SITE = 'evil.example';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Every header line as received, names lower-cased: `headers` joins a header sent twice into one value. */
  lines: [string, string][];
  body: string;
}

/** One request to the proxy over HTTPS (its certificate is the test's self-signed one), or plain HTTP. */
function request(
  port: number,
  requestPath: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; plain?: boolean } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = (options.plain ? http : https).request(
      {
        host: '127.0.0.1',
        port,
        path: requestPath,
        method: options.method ?? 'GET',
        headers: options.headers,
        rejectUnauthorized: false,
        agent: false,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => {
          const lines: [string, string][] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2)
            lines.push([res.rawHeaders[i]!.toLowerCase(), res.rawHeaders[i + 1]!]);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, lines, body });
        });
      },
    );
    req.once('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error(`No answer to ${requestPath} within 10 s.`)));
    req.end(options.body);
  });
}

/** A sign-in with a wrong password from a page at `origin`, `extra` headers added: 403 when the guard refuses it. */
function signInFrom(port: number, origin: string, extra: Record<string, string> = {}): Promise<Answer> {
  return request(port, '/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Host: PRODUCT, Origin: origin, ...extra },
    body: JSON.stringify({ username: 'admin', password: 'not-the-password' }),
  });
}

/** The security headers the server sends on its answers (HSTS over HTTPS), each a proxy's own answers must carry. */
const SECURITY_HEADERS = [
  'strict-transport-security',
  ...Object.keys(API_SECURITY_HEADERS).map((name) => name.toLowerCase()),
];

/** The values of these headers in an answer, by name: each as many times as it came (once, or a header doubled). */
function securityHeaders(answer: Answer, names = SECURITY_HEADERS): Record<string, string[]> {
  return Object.fromEntries(
    names.map((name) => [name, answer.lines.filter(([line]) => line === name).map(([, value]) => value)]),
  );
}

/**
 * Waits until the proxy passes a request through to the server (the server's 404 for a path nobody serves), or, with
 * `upstreamDead`, answers that it reaches none (any 5xx: which one is for the tests to say).
 */
async function waitForProxy(container: Container, port: number, upstreamDead = false): Promise<void> {
  const timeoutMs = 60_000;
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      const answer = await request(port, '/api/no-such-route', { headers: { Accept: 'application/json' } });
      if (upstreamDead ? answer.status >= 500 : answer.status === 404) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > until)
      throw new Error(`The proxy passed nothing on within ${timeoutMs} ms.\n${await container.logs()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describeWithPodman('the nginx configurations in front of the server', () => {
  let server: ServerProcess;
  let files: TempDir;
  const proxies: Container[] = [];
  /** The HTTPS port of the compose proxy, and of the example's, on this machine. */
  let composePort: number;
  let examplePort: number;
  /** Their plain HTTP ports (the redirect to HTTPS). */
  let composeHttpPort: number;
  let exampleHttpPort: number;
  /** The HTTPS ports of the same two configurations whose upstream is a port where nothing listens. */
  let composeDeadPort: number;
  let exampleDeadPort: number;

  beforeAll(async () => {
    files = makeTempDir('slots-proxy-edge-');
    // On every interface: the containers reach it from podman's network, which TRUST_PROXY=uniquelocal trusts.
    server = await startServerProcess({
      name: 'app server behind nginx',
      args: ['--import', pathToFileURL(require.resolve('tsx')).href, path.join(REPO_ROOT, 'server', 'main.ts')],
      host: '0.0.0.0',
      env: {
        NODE_ENV: 'production',
        DATABASE_PATH: path.join(files.path, 'app.db'),
        TRUST_PROXY: 'uniquelocal',
        PUBLIC_URL: undefined,
        ALLOWED_ORIGINS: undefined,
        REDIS_URL: undefined,
        DATABASE_URL: undefined,
        METRICS_TOKEN: undefined,
      },
    });
    const upstream = `${HOST_FROM_CONTAINER}:${new URL(server.url).port}`;
    const image = await ensureStandinProxyImage();
    const tls = writeProxyCertificate(files.path, PRODUCT);

    // Nothing listens there: a proxy sending to it has no host to reach, as while the hosts start.
    const deadUpstream = `${HOST_FROM_CONTAINER}:${await getFreePort('0.0.0.0')}`;

    // The compose proxy as proxy-start.sh leaves it: the upstream and the redirect in /run/slots-proxy.
    const startCompose = async (to: string, namePrefix: string): Promise<Container> => {
      const run = path.join(files.path, namePrefix);
      fs.mkdirSync(run);
      fs.writeFileSync(path.join(run, 'servers.conf'), `server ${to};\n`);
      fs.writeFileSync(path.join(run, 'https-redirect.conf'), 'return 301 https://$host$request_uri;\n');
      const proxy = await startContainer({
        image,
        namePrefix,
        publish: [443, 80],
        volumes: [
          `${path.join(REPO_ROOT, 'deploy', 'compose', 'nginx.conf')}:/etc/nginx/conf.d/default.conf:ro`,
          `${tls}:/etc/slots-tls:ro`,
          `${run}:/run/slots-proxy:ro`,
        ],
      });
      proxies.push(proxy);
      return proxy;
    };
    const compose = await startCompose(upstream, 'slots-proxy-compose');
    composePort = compose.hostPort(443);
    composeHttpPort = compose.hostPort(80);
    const composeDead = await startCompose(deadUpstream, 'slots-proxy-compose-dead');
    composeDeadPort = composeDead.hostPort(443);

    // The example with this test's upstream and certificate. `allow 10.0.0.0/8` goes: this test's requests reach
    // nginx from podman's bridge, 10.88.0.1, which would be let in. `http2 on;` is nginx 1.25's spelling of
    // `listen ... http2`, which the stand-in (Debian's 1.22) reads.
    const example = fs
      .readFileSync(path.join(REPO_ROOT, 'deploy', 'nginx.example.conf'), 'utf8')
      .replace(/server 127\.0\.0\.1:3001[^;]*;/, `server ${upstream};`)
      .replace(/\n\s*server 127\.0\.0\.1:3002[^;]*;/, '')
      .replace(/ssl_certificate\s+\S+;/, 'ssl_certificate /etc/slots-tls/tls.crt;')
      .replace(/ssl_certificate_key\s+\S+;/, 'ssl_certificate_key /etc/slots-tls/tls.key;')
      .replace(/\n\s*allow 10\.0\.0\.0\/8;/, '')
      .replace(/listen 443 ssl;\s*http2 on;/, 'listen 443 ssl http2;');
    expect(example).toContain(`server ${upstream};`);
    expect(example).not.toMatch(/allow 10\.|admin\.example\.com\.(pem|key)|127\.0\.0\.1:300/);
    const startExample = async (conf: string, namePrefix: string): Promise<Container> => {
      const exampleFile = path.join(files.path, `${namePrefix}.conf`);
      fs.writeFileSync(exampleFile, conf);
      const proxy = await startContainer({
        image,
        namePrefix,
        publish: [443, 80],
        volumes: [`${exampleFile}:/etc/nginx/conf.d/default.conf:ro`, `${tls}:/etc/slots-tls:ro`],
      });
      proxies.push(proxy);
      return proxy;
    };
    const exampleProxy = await startExample(example, 'slots-proxy-example');
    examplePort = exampleProxy.hostPort(443);
    exampleHttpPort = exampleProxy.hostPort(80);
    const exampleDead = await startExample(
      example.replace(`server ${upstream};`, `server ${deadUpstream};`),
      'slots-proxy-example-dead',
    );
    exampleDeadPort = exampleDead.hostPort(443);

    await Promise.all([
      waitForProxy(compose, composePort),
      waitForProxy(exampleProxy, examplePort),
      waitForProxy(composeDead, composeDeadPort, true),
      waitForProxy(exampleDead, exampleDeadPort, true),
    ]);
  }, 600_000);

  afterAll(async () => {
    await Promise.all(proxies.map((proxy) => proxy.remove()));
    await server?.stop();
    files?.remove();
  });

  const each = (): [string, number][] => [
    ['compose/nginx.conf', composePort],
    ['nginx.example.conf', examplePort],
  ];

  // Each sign-in is a password check (scrypt, a few hundred ms, seconds on a loaded machine): 60 s a test.
  it("passes a page of the product's own address, and refuses another site's that names itself in X-Forwarded-Host", async () => {
    for (const [conf, port] of each()) {
      const own = await signInFrom(port, `https://${PRODUCT}`);
      expect([conf, own.status, own.body]).toEqual([conf, 401, expect.stringContaining('Invalid username')]);
      // Believed, the header made the other site's origin the server's own, and its sign-in went through.
      const forged = await signInFrom(port, `https://${OTHER_SITE}`, { 'X-Forwarded-Host': OTHER_SITE });
      expect([conf, forged.status, forged.body]).toEqual([conf, 403, expect.stringContaining('Cross-site')]);
    }
  }, 60_000);

  it('keeps the health endpoints of the example from the public however the path is spelled', async () => {
    for (const spelling of ['/healthz', '/readyz', '/HEALTHZ', '/Readyz', '/healthz/', '/readyz/', '/READYZ/']) {
      const answer = await request(examplePort, spelling);
      expect([spelling, answer.status]).toEqual([spelling, 403]);
    }
    // The server does answer each of them: it routes case-insensitively, with or without the slash.
    const direct = await fetch(`${server.url.replace('0.0.0.0', '127.0.0.1')}/READYZ/`);
    expect(direct.status).toBe(200);
  }, 60_000);

  it("names no nginx version, on the server's answers nor on nginx's own", async () => {
    // nginx's own answers: the compose proxy's refusal of /metrics, the example's of the health endpoints.
    const own: [string, number, string, number][] = [
      ['compose/nginx.conf', composePort, '/metrics', 404],
      ['nginx.example.conf', examplePort, '/healthz', 403],
    ];
    for (const [conf, port, ownPath, status] of own) {
      const passed = await request(port, '/api/no-such-route');
      const refused = await request(port, ownPath);
      expect([conf, refused.status, passed.headers.server, refused.headers.server]).toEqual([
        conf,
        status,
        'nginx',
        'nginx',
      ]);
      expect(refused.body).not.toMatch(/nginx\/\d/);
    }
  }, 60_000);

  it("gives nginx's own answers the server's security headers: no host reachable, its refusals, its redirect", async () => {
    const over443 = {
      'strict-transport-security': [HSTS],
      ...Object.fromEntries(Object.entries(API_SECURITY_HEADERS).map(([name, value]) => [name.toLowerCase(), [value]])),
    };
    const own: [string, number, string, number][] = [
      ['compose/nginx.conf', composeDeadPort, '/', 503],
      ['compose/nginx.conf', composePort, '/metrics', 404],
      ['nginx.example.conf', exampleDeadPort, '/', 503],
      ['nginx.example.conf', examplePort, '/healthz', 403],
    ];
    for (const [conf, port, ownPath, status] of own) {
      const answer = await request(port, ownPath);
      expect([conf, ownPath, answer.status, securityHeaders(answer)]).toEqual([conf, ownPath, status, over443]);
    }
    // Plain HTTP: no Strict-Transport-Security, which browsers ignore there, and no Cache-Control (a browser may keep a
    // permanent redirect).
    const redirect = {
      ...Object.fromEntries(
        ['X-Content-Type-Options', 'Content-Security-Policy', 'Cross-Origin-Resource-Policy'].map((name) => [
          name.toLowerCase(),
          [API_SECURITY_HEADERS[name]],
        ]),
      ),
      'strict-transport-security': [],
      'cache-control': [],
    };
    for (const [conf, port] of [
      ['compose/nginx.conf', composeHttpPort],
      ['nginx.example.conf', exampleHttpPort],
    ] as const) {
      const answer = await request(port, '/records?page=2', { plain: true, headers: { Host: PRODUCT } });
      expect([conf, answer.status, answer.headers.location, securityHeaders(answer)]).toEqual([
        conf,
        301,
        `https://${PRODUCT}/records?page=2`,
        redirect,
      ]);
    }
  }, 60_000);

  it("passes the server's own security headers through once each, unchanged", async () => {
    // A JSON error, the sign-in page (its own Content-Security-Policy), a remote's file (`Cross-Origin-Resource-Policy:
    // cross-origin`), /slots (`Cache-Control` of its own): as the server sends them, HSTS added since over HTTPS.
    const direct = server.url.replace('0.0.0.0', '127.0.0.1');
    for (const answerPath of ['/api/no-such-route', '/login', '/remotes/team_marketing/mf-manifest.json', '/slots']) {
      const own = await fetch(`${direct}${answerPath}`, { headers: { 'X-Forwarded-Proto': 'https' } });
      await own.arrayBuffer();
      const expected = Object.fromEntries(
        SECURITY_HEADERS.map((name) => [name, name === 'strict-transport-security' ? [HSTS] : [own.headers.get(name)]]),
      );
      for (const [conf, port] of each()) {
        const passed = await request(port, answerPath);
        expect([conf, answerPath, passed.status, securityHeaders(passed)]).toEqual([
          conf,
          answerPath,
          own.status,
          expected,
        ]);
      }
    }
  }, 60_000);

  it('answers as the server does when it cannot serve while no host is reachable: 503 unavailable, at once', async () => {
    // After a PostgreSQL restore both hosts start again, and for the seconds that takes none listens. nginx's own
    // answer was its 502 page: the pages showed no words for it, and monitoring read a broken proxy.
    for (const [conf, port] of [
      ['compose/nginx.conf', composeDeadPort],
      ['nginx.example.conf', exampleDeadPort],
    ] as const) {
      for (const [method, answerPath] of [
        ['GET', '/'],
        ['GET', '/api/me'],
        ['POST', '/login'],
        // A build file, whose location answers a 404 of the hosts' in place of a refusal: none answered here.
        ['GET', '/assets/main.0a1b2c3d4e.js'],
      ] as const) {
        const began = Date.now();
        const answer = await request(port, answerPath, {
          method,
          headers: { 'Content-Type': 'application/json', Host: PRODUCT, Origin: `https://${PRODUCT}` },
          body: method === 'POST' ? '{}' : undefined,
        });
        expect([
          conf,
          method,
          answerPath,
          answer.status,
          answer.headers['content-type'],
          JSON.parse(answer.body),
        ]).toEqual([
          conf,
          method,
          answerPath,
          503,
          'application/json',
          { error: { code: 'unavailable', message: ERROR_MESSAGES.unavailable } },
        ]);
        expect(Date.now() - began).toBeLessThan(5_000);
      }
    }
  }, 60_000);
});
