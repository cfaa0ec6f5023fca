/**
 * The compose proxy (deploy/compose/nginx.conf with its start script, proxy-start.sh) while the last host of the old
 * release drains, at the end of a rolling upgrade: that host served pages until it left the ready set, and those pages
 * ask for their scripts right after, which only it holds; the ready host of the new release answers 404 for them. An
 * upgrade probe met that: a sign-in page of the old build whose four scripts all came back 404 a second after the
 * last old host was stopped (a page that does not start). The draining host still listens for SHUTDOWN_DELAY_MS, so
 * the proxy keeps it as a backup, asked only for what the ready hosts failed or do not have. The hosts are the real
 * server in containers of the stand-in Node base on a network of their own (the checkout mounted read-only), each with
 * a build folder of its own (FRONTEND_DIR): a copy of this checkout's build with one file only its release has.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startContainer, type Container } from '../../testing/containers/container';
import { ensureNodeBaseImage } from '../../testing/containers/node-base-image';
import { podman } from '../../testing/containers/podman';
import { pollUntil } from '../../testing/containers/poll-until';
import { ensureStandinProxyImage, startComposeProxy } from '../../testing/containers/standin-proxy';
import { describeWithCommand } from '../../testing/describe-with-command';
import { REPO_ROOT } from '../../testing/system/repo-root';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import {
  RELEASE_ONLY_FILES,
  statusThroughProxy,
  upstreamInProxyLog,
  writeReleaseBuild,
} from '../../testing/containers/two-releases';

const describeWithPodman = describeWithCommand('podman', ['--version'], 'podman runc debootstrap');
const log = (line: string): void => void process.stdout.write(`[draining] ${line}\n`);

/** Long enough for the proxy to take the host out of its ready set and the test to ask well before it closes. */
const SHUTDOWN_DELAY_MS = 12_000;

/** The hosts in the proxy's upstream, as its start script last logged them. */
async function proxyUpstream(proxy: Container): Promise<string | null> {
  return upstreamInProxyLog(await proxy.logs());
}

describeWithPodman('the compose proxy while the last host of a release drains', () => {
  const network = `slots-drain-${randomBytes(4).toString('hex')}`;
  let files: TempDir;
  const hosts: Record<'host-a' | 'host-b', Container | undefined> = { 'host-a': undefined, 'host-b': undefined };
  let proxy: Container | undefined;
  let port = 0;

  beforeAll(async () => {
    files = makeTempDir('slots-proxy-draining-');
    const [base, proxyImage] = [await ensureNodeBaseImage({ log }), await ensureStandinProxyImage({ log })];
    await podman(['network', 'create', network]);
    // The checkout and its dependencies at the same paths as here (node_modules may be a link to another checkout's).
    const modules = fs.realpathSync(path.join(REPO_ROOT, 'node_modules'));
    const mounts = [
      `${REPO_ROOT}:${REPO_ROOT}:ro`,
      ...(modules.startsWith(REPO_ROOT) ? [] : [`${modules}:${modules}:ro`]),
    ];
    const releases = [
      ['host-a', 'old'],
      ['host-b', 'new'],
    ] as const;
    for (const [name, release] of releases) {
      const dist = writeReleaseBuild(path.join(files.path, release), release);
      hosts[name] = await startContainer({
        image: base,
        namePrefix: `slots-drain-${name}`,
        volumes: [...mounts, `${dist}:/frontend:ro`],
        env: {
          NODE_ENV: 'production',
          HOST: '0.0.0.0',
          PORT: '3000',
          FRONTEND_DIR: '/frontend',
          DATABASE_PATH: '/tmp/app.db',
          TRUST_PROXY: 'uniquelocal',
          SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS),
          LOG_REQUESTS: 'true',
        },
        runOptions: ['--network', network, '--network-alias', name, '--workdir', REPO_ROOT],
        command: ['node', '--import', pathToFileURL(require.resolve('tsx')).href, 'server/main.ts'],
      });
    }
    const tls = path.join(files.path, 'tls');
    fs.mkdirSync(tls);
    proxy = await startComposeProxy({ image: proxyImage, namePrefix: 'slots-drain-proxy', network, tls });
    port = proxy.hostPort(443);
    await pollUntil('both hosts in the proxy upstream', 120_000, async () => {
      return (await proxyUpstream(proxy!)) === 'host-a, host-b';
    }).catch(async (error: unknown) => {
      for (const host of Object.values(hosts)) log(`${host?.name}:\n${(await host?.logs())?.slice(-3000)}`);
      log(`proxy:\n${(await proxy?.logs())?.slice(-3000)}`);
      throw error;
    });
  }, 600_000);

  afterAll(async () => {
    await Promise.all([proxy, ...Object.values(hosts)].map((container) => container?.remove()));
    await podman(['network', 'rm', '--force', network], { allowFailure: true });
    files?.remove();
  }, 60_000);

  it("serves the draining host's build files from it, and nothing else, until it is gone", async () => {
    for (const file of [...RELEASE_ONLY_FILES.old, ...RELEASE_ONLY_FILES.new])
      expect([file, await statusThroughProxy(port, file)]).toEqual([file, 200]);

    // The last old host is stopped (SIGTERM): /readyz answers 503 at once, and it listens for SHUTDOWN_DELAY_MS more.
    const draining = hosts['host-a']!;
    const signalled = Date.now();
    await draining.signal('SIGTERM');
    await pollUntil('host-a out of the ready hosts', 8_000, async () => {
      const upstream = (await proxyUpstream(proxy!)) ?? '';
      return !/(^|, )host-a(,|$)/.test(upstream) && upstream.includes('host-b');
    });
    log(`upstream ${(Date.now() - signalled) / 1000} s after SIGTERM: ${await proxyUpstream(proxy!)}`);

    // Pages it served just before ask for its build's files: found on it, not the ready host's 404.
    const asked = [...RELEASE_ONLY_FILES.old, ...RELEASE_ONLY_FILES.new].flatMap((file) =>
      Array.from({ length: 4 }, () => file),
    );
    const answers: string[] = [];
    for (const file of asked) answers.push(`${await statusThroughProxy(port, file)} ${file}`);
    // Everything else goes to the ready host alone, none to the backup.
    const marker = `/login?drain-probe=${randomBytes(4).toString('hex')}`;
    const others: number[] = [];
    for (let i = 0; i < 8; i++) others.push(await statusThroughProxy(port, marker));
    expect(Date.now() - signalled).toBeLessThan(SHUTDOWN_DELAY_MS);
    expect(answers).toEqual(asked.map((file) => `200 ${file}`));
    expect(others).toEqual(others.map(() => 200));
    expect(await draining.logs()).not.toContain('drain-probe');

    // Once it has exited, the new release is served as before.
    expect(await draining.waitForExit()).toBe(0);
    for (const file of RELEASE_ONLY_FILES.new)
      expect([file, await statusThroughProxy(port, file)]).toEqual([file, 200]);
    expect(await statusThroughProxy(port, '/healthz')).toBe(200);
  }, 120_000);
});
