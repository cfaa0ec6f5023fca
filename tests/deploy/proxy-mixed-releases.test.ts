/**
 * The two nginx configurations (deploy/compose/nginx.conf, deploy/nginx.example.conf) in front of two hosts of
 * different releases, as during a rolling upgrade: each host holds only its own build's files (hashed names), and a
 * page loaded from one host asks for its scripts through the proxy, which sends any request to either host. Each
 * build's files must come back 200 however often they are asked for, not 404 from the host of the other release
 * (an upgrade probe met that for about half of a new page's scripts, a page that did not start). The hosts are the
 * real server, each with a build folder of its own (FRONTEND_DIR): a copy of this checkout's build with one file only
 * its release has.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describeWithCommand } from '../../testing/describe-with-command';
import { startContainer, type Container } from '../../testing/containers/container';
import { ensureStandinProxyImage, writeProxyCertificate } from '../../testing/containers/standin-proxy';
import { startServerProcess, type ServerProcess } from '../../testing/system/server-process';
import { REPO_ROOT } from '../../testing/system/repo-root';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { RELEASE_ONLY_FILES, statusThroughProxy, writeReleaseBuild } from '../../testing/containers/two-releases';

const describeWithPodman = describeWithCommand('podman', ['--version'], 'podman runc debootstrap');

/** Long enough for the last test to ask for each file several times while the old host drains. */
const SHUTDOWN_DELAY_MS = 8_000;

/** The machine as a container sees it (podman writes the name into every container's /etc/hosts). */
const HOST_FROM_CONTAINER = 'host.containers.internal';

async function waitForProxy(container: Container, port: number): Promise<void> {
  const until = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await statusThroughProxy(port, '/healthz')) === 200) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > until) throw new Error(`The proxy passed nothing on within 60 s.\n${await container.logs()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describeWithPodman('the nginx configurations in front of two releases during a rolling upgrade', () => {
  let files: TempDir;
  const hosts: ServerProcess[] = [];
  const proxies: Container[] = [];
  let composePort: number;
  let examplePort: number;

  beforeAll(async () => {
    files = makeTempDir('slots-proxy-mixed-');
    for (const release of ['old', 'new'] as const) {
      const dist = writeReleaseBuild(path.join(files.path, release), release);
      hosts.push(
        await startServerProcess({
          name: `${release} release's host`,
          args: ['--import', pathToFileURL(require.resolve('tsx')).href, path.join(REPO_ROOT, 'server', 'main.ts')],
          // On every interface: the proxies reach it from podman's network.
          host: '0.0.0.0',
          env: {
            NODE_ENV: 'production',
            FRONTEND_DIR: dist,
            DATABASE_PATH: path.join(files.path, `${release}.db`),
            TRUST_PROXY: 'uniquelocal',
            PUBLIC_URL: undefined,
            REDIS_URL: undefined,
            DATABASE_URL: undefined,
            METRICS_TOKEN: undefined,
            // The old release's host drains in the last test, as the last host of a release does at an upgrade's end.
            SHUTDOWN_DELAY_MS: release === 'old' ? String(SHUTDOWN_DELAY_MS) : undefined,
          },
        }),
      );
    }
    const upstreams = hosts.map((host) => `${HOST_FROM_CONTAINER}:${new URL(host.url).port}`);
    const image = await ensureStandinProxyImage();
    const tls = writeProxyCertificate(files.path);

    // The compose proxy as proxy-start.sh leaves it with both hosts ready: both in the upstream.
    const run = path.join(files.path, 'run');
    fs.mkdirSync(run);
    fs.writeFileSync(path.join(run, 'servers.conf'), upstreams.map((upstream) => `server ${upstream};\n`).join(''));
    fs.writeFileSync(path.join(run, 'https-redirect.conf'), 'return 301 https://$host$request_uri;\n');
    const compose = await startContainer({
      image,
      namePrefix: 'slots-proxy-mixed-compose',
      publish: [443],
      volumes: [
        `${path.join(REPO_ROOT, 'deploy', 'compose', 'nginx.conf')}:/etc/nginx/conf.d/default.conf:ro`,
        `${tls}:/etc/slots-tls:ro`,
        `${run}:/run/slots-proxy:ro`,
      ],
    });
    proxies.push(compose);
    composePort = compose.hostPort(443);

    // The example with its two `server` lines naming the two hosts (as proxy-edge.test.ts adapts it otherwise).
    const example = fs
      .readFileSync(path.join(REPO_ROOT, 'deploy', 'nginx.example.conf'), 'utf8')
      .replace(/server 127\.0\.0\.1:3001/, `server ${upstreams[0]}`)
      .replace(/server 127\.0\.0\.1:3002/, `server ${upstreams[1]}`)
      .replace(/ssl_certificate\s+\S+;/, 'ssl_certificate /etc/slots-tls/tls.crt;')
      .replace(/ssl_certificate_key\s+\S+;/, 'ssl_certificate_key /etc/slots-tls/tls.key;')
      .replace(/listen 443 ssl;\s*http2 on;/, 'listen 443 ssl http2;');
    expect(example).not.toMatch(/127\.0\.0\.1:300|admin\.example\.com\.(pem|key)/);
    const exampleFile = path.join(files.path, 'example.conf');
    fs.writeFileSync(exampleFile, example);
    const exampleProxy = await startContainer({
      image,
      namePrefix: 'slots-proxy-mixed-example',
      publish: [443],
      volumes: [`${exampleFile}:/etc/nginx/conf.d/default.conf:ro`, `${tls}:/etc/slots-tls:ro`],
    });
    proxies.push(exampleProxy);
    examplePort = exampleProxy.hostPort(443);

    await Promise.all([waitForProxy(compose, composePort), waitForProxy(exampleProxy, examplePort)]);
  }, 600_000);

  afterAll(async () => {
    await Promise.all(proxies.map((proxy) => proxy.remove()));
    await Promise.all(hosts.map((host) => host.stop()));
    files?.remove();
  });

  it.each([
    ['compose/nginx.conf', () => composePort],
    ['nginx.example.conf', () => examplePort],
  ])(
    "%s: each release's build files answer 200 whichever host a request reaches",
    async (_name, port) => {
      // Each host answers 404 for the other release's files: the proxy is what must find them.
      const [oldHost, newHost] = hosts as [ServerProcess, ServerProcess];
      expect((await fetch(`${oldHost.url}${RELEASE_ONLY_FILES.new[0]}`)).status).toBe(404);
      expect((await fetch(`${newHost.url}${RELEASE_ONLY_FILES.old[0]}`)).status).toBe(404);

      const asked = [...RELEASE_ONLY_FILES.old, ...RELEASE_ONLY_FILES.new].flatMap((file) =>
        Array.from({ length: 6 }, () => file),
      );
      const answers: string[] = [];
      for (const file of asked) answers.push(`${await statusThroughProxy(port(), file)} ${file}`);
      expect(answers).toEqual(asked.map((file) => `200 ${file}`));
      // A file neither build has stays a 404, the hosts' own, not an error of the proxy's.
      expect(await statusThroughProxy(port(), '/assets/neither.0000000000.js')).toBe(404);
    },
    120_000,
  );

  // Last: it stops the old release's host.
  it('nginx.example.conf, with no watcher, keeps asking the last old host for its files until it closes, then gives 404', async () => {
    // The example sends to every `server` line alike: a draining host (SIGTERM, /readyz 503) stays one until it stops
    // listening, so the pages it served ask for their files from it (compose's watcher keeps it as a `backup`).
    const [oldHost] = hosts as [ServerProcess, ServerProcess];
    const stopped = oldHost.stop({ graceMs: 30_000 });
    const signalled = Date.now();
    const asked = RELEASE_ONLY_FILES.old.flatMap((file) => Array.from({ length: 4 }, () => file));
    const draining: string[] = [];
    for (const file of asked) draining.push(`${await statusThroughProxy(examplePort, file)} ${file}`);
    expect(Date.now() - signalled).toBeLessThan(SHUTDOWN_DELAY_MS);
    expect(draining).toEqual(asked.map((file) => `200 ${file}`));

    // Gone, its files are gone: the new host's 404, not nginx's answer for an outage (503, from the refused
    // connection to the old host asked after the new one's 404), which told the page the service was down.
    expect((await stopped).code).toBe(0);
    for (const [conf, port] of [
      ['compose/nginx.conf', composePort],
      ['nginx.example.conf', examplePort],
    ] as const) {
      const after: string[] = [];
      for (const file of asked) after.push(`${await statusThroughProxy(port, file)} ${file}`);
      expect([conf, after]).toEqual([conf, asked.map((file) => `404 ${file}`)]);
      for (const file of RELEASE_ONLY_FILES.new)
        expect([conf, file, await statusThroughProxy(port, file)]).toEqual([conf, file, 200]);
    }
  }, 120_000);
});
