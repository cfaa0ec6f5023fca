/**
 * The compose proxy (deploy/compose/nginx.conf with its start script, proxy-start.sh) while a host is silent: its
 * process stopped (SIGSTOP here; a hung machine alike), whose kernel still completes the connection, so nginx waits
 * for an answer. The start script's probe of /readyz times out; the host was then kept as a `backup`, as a draining
 * host is, and every build file the ready host answered 404 for waited proxy_read_timeout (30 s) for it before its
 * 404. A silent host is left out of the upstream while another is ready, and back once it answers. The hosts are a few
 * lines of node:http in containers of the stand-in Node base on a network of their own.
 */
import { randomBytes } from 'node:crypto';
import { startContainer, type Container } from '../../testing/containers/container';
import { ensureNodeBaseImage } from '../../testing/containers/node-base-image';
import { podman } from '../../testing/containers/podman';
import { pollUntil } from '../../testing/containers/poll-until';
import { ensureStandinProxyImage, startComposeProxy } from '../../testing/containers/standin-proxy';
import { statusThroughProxy, upstreamInProxyLog } from '../../testing/containers/two-releases';
import { describeWithCommand } from '../../testing/describe-with-command';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import fs from 'node:fs';
import path from 'node:path';

const describeWithPodman = describeWithCommand('podman', ['--version'], 'podman runc debootstrap');
const log = (line: string): void => void process.stdout.write(`[silent] ${line}\n`);

/** A host: ready on /readyz, 404 (the server's JSON) for anything else, as a host lacking a build file answers. */
const HOST_SCRIPT = `
require('node:http').createServer((req, res) => {
  req.resume();
  if (req.url === '/readyz') { res.writeHead(200, { 'Content-Type': 'application/json' }); res.end('{"status":"ready"}'); return; }
  res.writeHead(404, { 'Content-Type': 'application/json' });
  res.end('{"error":{"code":"not_found","message":"Not found."}}');
}).listen(3000, '0.0.0.0');
`;

describeWithPodman('the compose proxy while a host is silent', () => {
  const network = `slots-silent-${randomBytes(4).toString('hex')}`;
  let files: TempDir;
  const hosts: Record<'host-a' | 'host-b', Container | undefined> = { 'host-a': undefined, 'host-b': undefined };
  let proxy: Container | undefined;
  let port = 0;
  const upstream = async () => upstreamInProxyLog(await proxy!.logs());

  beforeAll(async () => {
    files = makeTempDir('slots-proxy-silent-');
    const [base, proxyImage] = [await ensureNodeBaseImage({ log }), await ensureStandinProxyImage({ log })];
    await podman(['network', 'create', network]);
    for (const name of ['host-a', 'host-b'] as const) {
      hosts[name] = await startContainer({
        image: base,
        namePrefix: `slots-silent-${name}`,
        runOptions: ['--network', network, '--network-alias', name],
        command: ['node', '-e', HOST_SCRIPT],
      });
    }
    const tls = path.join(files.path, 'tls');
    fs.mkdirSync(tls);
    proxy = await startComposeProxy({ image: proxyImage, namePrefix: 'slots-silent-proxy', network, tls });
    port = proxy.hostPort(443);
    await pollUntil('both hosts in the proxy upstream', 120_000, async () => (await upstream()) === 'host-a, host-b');
  }, 600_000);

  afterAll(async () => {
    // A stopped process is let go on first, so that its container stops as any other.
    await hosts['host-b']?.signal('SIGCONT').catch(() => undefined);
    await Promise.all([proxy, ...Object.values(hosts)].map((container) => container?.remove()));
    await podman(['network', 'rm', '--force', network], { allowFailure: true });
    files?.remove();
  }, 60_000);

  it('leaves a stopped host out, so a file the ready host lacks answers its 404 at once, and takes it back', async () => {
    const silent = hosts['host-b']!;
    await silent.signal('SIGSTOP');
    const stopped = Date.now();
    await pollUntil('host-b no longer ready', 10_000, async () => (await upstream()) !== 'host-a, host-b');
    log(`upstream ${(Date.now() - stopped) / 1000} s after SIGSTOP: ${await upstream()}`);
    // The nginx workers of the upstream before the reload may still hold a request; these go to the new ones.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const timings: string[] = [];
    for (let i = 0; i < 4; i++) {
      const started = Date.now();
      const status = await statusThroughProxy(port, `/assets/gone-${i}.0a1b2c3d4e.js`).catch(String);
      timings.push(`${status} ${Date.now() - started < 1_500 ? 'at once' : `after ${Date.now() - started} ms`}`);
    }
    // Kept as a backup (`host-a, host-b (not ready: backup)`), it had each file wait 30 s (here: no answer in 10 s).
    expect(timings).toEqual(timings.map(() => '404 at once'));
    expect(await upstream()).toBe('host-a, host-b (silent: left out)');

    await silent.signal('SIGCONT');
    await pollUntil('host-b back', 10_000, async () => (await upstream()) === 'host-a, host-b');
  }, 60_000);
});
