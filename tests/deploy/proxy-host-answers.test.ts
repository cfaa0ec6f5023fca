/**
 * What the two nginx configurations (deploy/compose/nginx.conf, deploy/nginx.example.conf) make of answers no healthy
 * host gives, each sent by a stand-in host of this test (a few lines of node:http, so the test says what it answers):
 * an answer carrying X-Accel-* headers, which must not steer nginx (X-Accel-Redirect had it serve another path in
 * place of the answer); a host that drops the connection after reading a request, where a POST is not sent again and
 * its 502 does not say "try again" (the host may have done it), nor a PUT or DELETE (nginx counts them idempotent); and a build file that the hosts which answered lack
 * while another host is closed or silent (the last host of an old release just gone), which answers their 404, not
 * a 503 or 504 that tells the page the service is down.
 */
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { ERROR_MESSAGES } from '../../shared';
import { describeWithCommand } from '../../testing/describe-with-command';
import { startContainer, type Container } from '../../testing/containers/container';
import { ensureStandinProxyImage, writeProxyCertificate } from '../../testing/containers/standin-proxy';
import { getFreePort } from '../../testing/system/free-port';
import { REPO_ROOT } from '../../testing/system/repo-root';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';

const describeWithPodman = describeWithCommand('podman', ['--version'], 'podman runc debootstrap');

/** The machine as a container sees it (podman writes the name into every container's /etc/hosts). */
const HOST_FROM_CONTAINER = 'host.containers.internal';

/** The test's copies wait this long for a silent host (30 s in the files), so a timeout costs seconds. */
const READ_TIMEOUT = '2s';

const UNAVAILABLE = { error: { code: 'unavailable', message: ERROR_MESSAGES.unavailable } };

interface Answer {
  status: number;
  /** Every header line as received, names lower-cased. */
  lines: [string, string][];
  body: string;
}

function request(port: number, requestPath: string, method = 'GET', body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: '127.0.0.1',
        port,
        path: requestPath,
        method,
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        rejectUnauthorized: false,
        agent: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const lines: [string, string][] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2)
            lines.push([res.rawHeaders[i]!.toLowerCase(), res.rawHeaders[i + 1]!]);
          resolve({ status: res.statusCode ?? 0, lines, body: text });
        });
      },
    );
    req.once('error', reject);
    req.setTimeout(20_000, () => req.destroy(new Error(`No answer to ${method} ${requestPath} within 20 s.`)));
    req.end(body);
  });
}

const header = (answer: Answer, name: string): string | undefined => answer.lines.find(([line]) => line === name)?.[1];

/** A stand-in host: what it answers is said below, each request it read counted as `METHOD path`. */
interface StandinHost {
  readonly upstream: string;
  readonly seen: string[];
  close(): Promise<void>;
}

/**
 * `GET /accel`: the host's own 200 with every X-Accel-* header nginx reads. `/drop` (any method): the body read,
 * then the connection closed with no answer (a host that crashes or is killed mid-request). `/assets/…`: 404, the
 * server's JSON error, unless `silentOnAssets`: then no answer at all (a host gone quiet). Anything else: 200.
 */
async function startStandinHost(silentOnAssets = false): Promise<StandinHost> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push(`${req.method} ${req.url}`);
      if (req.url === '/drop') {
        req.socket.destroy();
      } else if (req.url === '/accel') {
        res.writeHead(200, {
          'Content-Type': 'text/plain',
          'X-Accel-Redirect': '/accel-target',
          'X-Accel-Charset': 'koi8-r',
          'X-Accel-Buffering': 'no',
          'X-Accel-Expires': '3600',
          'X-Accel-Limit-Rate': '1024',
        });
        res.end("the host's own answer");
      } else if (req.url?.startsWith('/assets/')) {
        if (silentOnAssets) return;
        res.writeHead(404, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 'not_found', message: ERROR_MESSAGES.notFound } }));
      } else {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.end('ok');
      }
    });
  });
  // Longer than the proxies' keepalive_timeout, as the hosts are started (KEEP_ALIVE_TIMEOUT_MS).
  server.keepAliveTimeout = 65_000;
  // On every interface: the proxies reach it from podman's network. Port 0: the system picks a free one.
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    upstream: `${HOST_FROM_CONTAINER}:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describeWithPodman('the nginx configurations with hosts that answer oddly or not at all', () => {
  let files: TempDir;
  const proxies: Container[] = [];
  let hostA: StandinHost;
  let hostB: StandinHost;
  let silent: StandinHost;
  /**
   * Each configuration twice: in front of hosts A and B with a third where nothing listens (the compose proxy's
   * upstream with it as the `backup` a draining host is there; the example's a third `server` line), and in front of
   * host A with a silent one (compose: its backup).
   */
  const ports = {
    composeClosed: 0,
    exampleClosed: 0,
    composeSilent: 0,
    exampleSilent: 0,
    composeTwo: 0,
    exampleTwo: 0,
  };

  beforeAll(async () => {
    files = makeTempDir('slots-proxy-host-answers-');
    [hostA, hostB, silent] = await Promise.all([startStandinHost(), startStandinHost(), startStandinHost(true)]);
    const closed = `${HOST_FROM_CONTAINER}:${await getFreePort('0.0.0.0')}`;
    const image = await ensureStandinProxyImage();
    const tls = writeProxyCertificate(files.path);
    const shortTimeout = (conf: string): string => {
      const changed = conf.replace(/proxy_read_timeout 30s;/, `proxy_read_timeout ${READ_TIMEOUT};`);
      expect(changed).toContain(`proxy_read_timeout ${READ_TIMEOUT};`);
      return changed;
    };

    // The compose proxy as proxy-start.sh leaves it: the upstream (ready hosts, then backups) in /run/slots-proxy.
    const composeConf = shortTimeout(fs.readFileSync(path.join(REPO_ROOT, 'deploy', 'compose', 'nginx.conf'), 'utf8'));
    const startCompose = async (namePrefix: string, servers: string): Promise<number> => {
      const run = path.join(files.path, namePrefix);
      fs.mkdirSync(run);
      fs.writeFileSync(path.join(run, 'nginx.conf'), composeConf);
      fs.writeFileSync(path.join(run, 'servers.conf'), servers);
      fs.writeFileSync(path.join(run, 'https-redirect.conf'), 'return 301 https://$host$request_uri;\n');
      const proxy = await startContainer({
        image,
        namePrefix,
        publish: [443],
        volumes: [
          `${path.join(run, 'nginx.conf')}:/etc/nginx/conf.d/default.conf:ro`,
          `${tls}:/etc/slots-tls:ro`,
          `${run}:/run/slots-proxy:ro`,
        ],
      });
      proxies.push(proxy);
      return proxy.hostPort(443);
    };

    // The example with this test's servers and certificate (as proxy-edge.test.ts adapts it).
    const exampleConf = shortTimeout(
      fs
        .readFileSync(path.join(REPO_ROOT, 'deploy', 'nginx.example.conf'), 'utf8')
        .replace(/ssl_certificate\s+\S+;/, 'ssl_certificate /etc/slots-tls/tls.crt;')
        .replace(/ssl_certificate_key\s+\S+;/, 'ssl_certificate_key /etc/slots-tls/tls.key;')
        .replace(/listen 443 ssl;\s*http2 on;/, 'listen 443 ssl http2;'),
    );
    const startExample = async (namePrefix: string, servers: string[]): Promise<number> => {
      const conf = exampleConf
        .replace(/server 127\.0\.0\.1:3001/, servers.map((server) => `server ${server}`).join('; '))
        .replace(/\n\s*server 127\.0\.0\.1:3002[^;]*;/, '');
      expect(conf).not.toMatch(/127\.0\.0\.1:300|admin\.example\.com\.(pem|key)/);
      const file = path.join(files.path, `${namePrefix}.conf`);
      fs.writeFileSync(file, conf);
      const proxy = await startContainer({
        image,
        namePrefix,
        publish: [443],
        volumes: [`${file}:/etc/nginx/conf.d/default.conf:ro`, `${tls}:/etc/slots-tls:ro`],
      });
      proxies.push(proxy);
      return proxy.hostPort(443);
    };

    ports.composeClosed = await startCompose(
      'slots-proxy-answers-compose-closed',
      `server ${hostA.upstream};\nserver ${hostB.upstream};\nserver ${closed} backup;\n`,
    );
    ports.composeSilent = await startCompose(
      'slots-proxy-answers-compose-silent',
      `server ${hostA.upstream};\nserver ${silent.upstream} backup;\n`,
    );
    ports.exampleClosed = await startExample('slots-proxy-answers-example-closed', [
      hostA.upstream,
      hostB.upstream,
      closed,
    ]);
    ports.exampleSilent = await startExample('slots-proxy-answers-example-silent', [hostA.upstream, silent.upstream]);
    // Hosts A and B alone, where a request one drops would go to the other (a PUT or DELETE must not).
    ports.composeTwo = await startCompose(
      'slots-proxy-answers-compose-two',
      `server ${hostA.upstream};\nserver ${hostB.upstream};\n`,
    );
    ports.exampleTwo = await startExample('slots-proxy-answers-example-two', [hostA.upstream, hostB.upstream]);

    await Promise.all(
      Object.values(ports).map(async (port) => {
        const until = Date.now() + 60_000;
        for (;;) {
          try {
            if ((await request(port, '/ready-probe')).status === 200) return;
          } catch {
            // Not listening yet.
          }
          if (Date.now() > until) {
            const logs = await Promise.all(proxies.map((proxy) => proxy.logs()));
            throw new Error(`A proxy passed nothing on within 60 s.\n${logs.join('\n')}`);
          }
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      }),
    );
  }, 600_000);

  afterAll(async () => {
    await Promise.all(proxies.map((proxy) => proxy.remove()));
    await Promise.all([hostA, hostB, silent].map((host) => host?.close()));
    files?.remove();
  });

  beforeEach(() => {
    for (const host of [hostA, hostB, silent]) host.seen.length = 0;
  });

  const closedProxies = (): [string, number][] => [
    ['compose/nginx.conf', ports.composeClosed],
    ['nginx.example.conf', ports.exampleClosed],
  ];

  it("passes a host's answer as it is, whatever X-Accel-* headers it carries, and none of them on", async () => {
    for (const [conf, port] of closedProxies()) {
      const answer = await request(port, '/accel');
      // Obeyed, X-Accel-Redirect made nginx answer with its own GET of /accel-target instead, and X-Accel-Charset
      // added `; charset=koi8-r` to the Content-Type.
      expect([conf, answer.status, answer.body, header(answer, 'content-type')]).toEqual([
        conf,
        200,
        "the host's own answer",
        'text/plain',
      ]);
      expect([conf, answer.lines.filter(([name]) => name.startsWith('x-accel-'))]).toEqual([conf, []]);
    }
    expect([...hostA.seen, ...hostB.seen].filter((line) => line.includes('/accel-target'))).toEqual([]);
  }, 60_000);

  it("answers a build file's 404 when the hosts that answered lack it and another is closed or silent", async () => {
    // The compose proxy asks its backup last, after both ready hosts' 404s; the example asks in the order least_conn
    // takes them, so several requests meet both orders (and, once the closed host failed three times, none left).
    const cases: [string, number][] = [
      ...closedProxies(),
      ['compose/nginx.conf, silent backup', ports.composeSilent],
      ['nginx.example.conf, a silent server', ports.exampleSilent],
    ];
    for (const [conf, port] of cases) {
      const answers: string[] = [];
      for (let i = 0; i < 5; i++) {
        const answer = await request(port, `/assets/gone.0a1b2c3d4e.js`);
        answers.push(`${answer.status} ${header(answer, 'content-type')} ${answer.body}`);
      }
      // It was 503 `unavailable` (the closed host's refusal, nginx's 502) or a 504 (the silent one), which tells the
      // page the service is down when the file is simply not there any more.
      expect([conf, answers]).toEqual([
        conf,
        answers.map(
          () =>
            `404 application/json ${JSON.stringify({ error: { code: 'not_found', message: ERROR_MESSAGES.notFound } })}`,
        ),
      ]);
    }
    // The silent host was asked: the case is real.
    expect(silent.seen.length).toBeGreaterThan(0);
  }, 120_000);

  // Last: the drops count as failures of hosts A and B (max_fails), which nginx then leaves out for a few seconds.
  it('sends a POST a host dropped mid-request to no other host, and does not answer "try again" for it', async () => {
    for (const [conf, port] of closedProxies()) {
      for (const host of [hostA, hostB]) host.seen.length = 0;
      const post = await request(port, '/drop', 'POST', '{"amount":1}');
      const posts = [...hostA.seen, ...hostB.seen].filter((line) => line === 'POST /drop');
      // The host read it and may have done it: nginx's own 502 (its page, with the edge's headers), as for a 504.
      // It was the 503 `unavailable` ("Try again shortly") that a host unreachable gets: a client that tried again did it twice.
      expect([conf, post.status, posts.length, post.body.includes('"unavailable"')]).toEqual([conf, 502, 1, false]);
      expect([conf, header(post, 'cache-control')]).toEqual([conf, 'no-store']);

      // A GET is safe to ask again (nginx asks another host), and with every host dropping it, "try again" it is.
      const get = await request(port, '/drop');
      expect([conf, get.status, JSON.parse(get.body)]).toEqual([conf, 503, UNAVAILABLE]);
    }
  }, 60_000);

  it('sends a PUT or DELETE a host dropped mid-request to no other host, and passes one it answers as it is', async () => {
    const proxies: [string, number][] = [
      ['compose/nginx.conf', ports.composeTwo],
      ['nginx.example.conf', ports.exampleTwo],
    ];
    for (const [conf, port] of proxies) {
      for (const method of ['PUT', 'DELETE']) {
        // Through @sent_once: the method, the path with its query and the body reach a host, its answer comes back.
        for (const host of [hostA, hostB]) host.seen.length = 0;
        const passed = await request(port, '/api/resources/articles/records/7?x=%2F', method, '{"title":"t"}');
        expect([conf, method, passed.status, passed.body]).toEqual([conf, method, 200, 'ok']);
        expect([conf, [...hostA.seen, ...hostB.seen]]).toEqual([
          conf,
          [`${method} /api/resources/articles/records/7?x=%2F`],
        ]);
      }
      for (const method of ['PUT', 'DELETE']) {
        for (const host of [hostA, hostB]) host.seen.length = 0;
        const dropped = await request(port, '/drop', method, '{"title":"t"}');
        const sent = [...hostA.seen, ...hostB.seen].filter((line) => line === `${method} /drop`);
        // It was sent to the other host too (nginx counts PUT and DELETE idempotent): hosts of this release answer a
        // record's DELETE sent again as the first, but a host of the previous release (during an upgrade) answered 404
        // "it was deleted" for the delete the user just made. The host may have done it: nginx's 502, no "try again".
        expect([conf, method, sent.length, dropped.status, dropped.body.includes('"unavailable"')]).toEqual([
          conf,
          method,
          1,
          502,
          false,
        ]);
      }
    }
  }, 60_000);
});
