/**
 * deploy/kubernetes/ run for real with `podman kube play` (podman 4.3): the Deployment's pods, as many as the
 * autoscaler's minReplicas, from the image of this checkout, with the ConfigMap mounted and the Secret's four keys
 * (given this run's values) in their environment, on stand-ins of PostgreSQL and Redis. What podman does otherwise
 * than a cluster is made up for in the rendering (kubernetes-podman-rendering.ts), never in the shipped files. Shows
 * what kubernetes-manifests.test.ts checks on paper: each pod is ready and alive, runs as the securityContext says
 * with the image still working (a read-only root, /tmp the emptyDir), staff made with the operators' command in one
 * pod sign in on another, /slots and /meta are served, and a session made on one pod is the other's too (Redis).
 * Every pod, container, volume, secret and network it makes is removed afterwards, and checked gone.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { MetaPayload, SlotsPayload } from '../../shared';
import { buildAppImage } from '../../testing/containers/app-image';
import { startContainer, type Container } from '../../testing/containers/container';
import { ensurePodInfraImage, kubePlay } from '../../testing/containers/kube-play';
import { podman } from '../../testing/containers/podman';
import { ensureStandinImage } from '../../testing/containers/standin-images';
import { describeWithCommand } from '../../testing/describe-with-command';
import { getFreePort } from '../../testing/system/free-port';
import { makeTempDir } from '../../testing/temp-dir';
import { readKubernetesManifests, renderForPodman, type PodmanRendering } from './kubernetes-podman-rendering';
import { pollUntil } from '../../testing/containers/poll-until';

const describeWithPodman = describeWithCommand('podman', ['--version'], 'podman runc debootstrap');
const log = (line: string): void => void process.stdout.write(`[kube play] ${line}\n`);

const RUN = randomBytes(3).toString('hex');
const SUFFIX = `kt${RUN}`;
const NETWORK = `slots-kube-${RUN}`;
const POSTGRES_PASSWORD = randomBytes(12).toString('hex');
const STAFF = { username: 'kube-operator', password: `kube-staff-${randomBytes(6).toString('hex')}` };

/** The ingress in front of the pods: it speaks HTTPS to browsers and says so (TRUST_PROXY trusts it). */
const FROM_INGRESS = { 'x-forwarded-proto': 'https' };

interface Answer {
  status: number;
  body: string;
  /** The cookies it set, as a request sends them back (`name=value; ...`). */
  cookie: string;
  setCookie: string[];
}

async function request(
  port: number,
  requestPath: string,
  options: { method?: string; body?: unknown; cookie?: string } = {},
): Promise<Answer> {
  const response = await fetch(`http://127.0.0.1:${port}${requestPath}`, {
    method: options.method ?? 'GET',
    headers: {
      ...FROM_INGRESS,
      accept: 'application/json',
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(10_000),
  });
  const setCookie = response.headers.getSetCookie();
  const cookie = setCookie.map((line) => line.split(';')[0]).join('; ');
  return { status: response.status, body: await response.text(), cookie, setCookie };
}

/** Names of what podman holds of `kind` (pod, container, volume, network, secret) that contain `part`. */
async function leftBehind(
  kind: 'pod' | 'container' | 'volume' | 'network' | 'secret',
  part: string,
): Promise<string[]> {
  const args: Record<typeof kind, string[]> = {
    pod: ['pod', 'ps', '--format', '{{.Name}}'],
    container: ['ps', '--all', '--format', '{{.Names}}'],
    volume: ['volume', 'ls', '--format', '{{.Name}}'],
    network: ['network', 'ls', '--format', '{{.Name}}'],
    secret: ['secret', 'ls', '--format', '{{.Name}}'],
  };
  const listed = await podman(args[kind]);
  return listed.stdout.split('\n').filter((name) => name.includes(part));
}

/** How many times a pod logged that it re-read REMOTES_CONFIG. */
async function reloadsLogged(container: string): Promise<number> {
  const logs = await podman(['logs', container]);
  return `${logs.stdout}${logs.stderr}`.split('Remotes configuration reloaded.').length - 1;
}

async function podmanInspect(name: string, format: string): Promise<string> {
  return (await podman(['inspect', '--format', format, name])).stdout.trim();
}

// Each check runs commands in the pods (`podman exec`), which a loaded two-core machine took over Jest's default 5 s
// for (the /tmp check timed out so once, with nothing wrong).
jest.setTimeout(30_000);

describeWithPodman('deploy/kubernetes/ played with podman kube play', () => {
  let rendering: PodmanRendering;
  let postgres: Container | undefined;
  let redis: Container | undefined;
  let ports: number[] = [];
  /** The containers of the pods, by replica, as `podman exec` names them. */
  let hosts: string[] = [];
  let networkMade = false;

  beforeAll(async () => {
    const began = Date.now();
    const [image, postgresImage, redisImage] = [
      await buildAppImage({ log }),
      await ensureStandinImage('postgres', { log }),
      await ensureStandinImage('redis', { log }),
      await ensurePodInfraImage({ log }),
    ];
    log(`images ready in ${((Date.now() - began) / 1000).toFixed(0)} s`);
    const up = Date.now();

    await podman(['network', 'create', NETWORK]);
    networkMade = true;
    // PostgreSQL and Redis are the operator's own (managed services, the cluster's operators): stand-ins on the pods'
    // network, reached by name.
    [postgres, redis] = await Promise.all([
      startContainer({
        image: postgresImage,
        namePrefix: `slots-kube-postgres-${RUN}`,
        env: { POSTGRES_USER: 'slots', POSTGRES_PASSWORD, POSTGRES_DB: 'slots' },
        runOptions: ['--network', NETWORK],
      }),
      startContainer({ image: redisImage, namePrefix: `slots-kube-redis-${RUN}`, runOptions: ['--network', NETWORK] }),
    ]);
    await pollUntil('PostgreSQL accepting connections', 60_000, async () => {
      const ready = await postgres!.exec(['pg_isready', '-h', '127.0.0.1', '-U', 'slots', '-d', 'slots']);
      return ready.code === 0;
    });

    const manifests = readKubernetesManifests();
    const replicaCount = manifests.find(({ kind }) => kind === 'HorizontalPodAutoscaler')!.spec.minReplicas as number;
    ports = [];
    for (let index = 0; index < replicaCount; index++) ports.push(await getFreePort());
    rendering = renderForPodman(manifests, {
      suffix: SUFFIX,
      image,
      hostPorts: ports,
      secretValues: {
        SESSION_SECRET: randomBytes(32).toString('hex'),
        DATABASE_URL: `postgres://slots:${POSTGRES_PASSWORD}@${postgres.name}:5432/slots`,
        REDIS_URL: `redis://${redis.name}:6379`,
        METRICS_TOKEN: randomBytes(24).toString('hex'),
      },
    });
    hosts = rendering.replicas.map(({ container }) => container);
    for (const [kind, instead] of Object.entries(rendering.notPlayed)) log(`not played: ${kind} (${instead})`);
    // From a file: `podman secret create <name> -` takes stdin only from a FIFO, and a child's stdin here is a socket.
    const secretFile = makeTempDir('slots-kube-secret-');
    try {
      fs.writeFileSync(path.join(secretFile.path, 'secret.json'), rendering.secretJson, { mode: 0o600 });
      await podman(['secret', 'create', rendering.secretName, path.join(secretFile.path, 'secret.json')]);
    } finally {
      secretFile.remove();
    }
    const played = await kubePlay(rendering.yaml, { network: NETWORK, log });
    if (played.code !== 0) throw new Error(`podman kube play exited ${played.code}:\n${played.stdout}${played.stderr}`);

    for (const [index, port] of ports.entries()) {
      await pollUntil(`pod ${index} ready on /readyz`, 90_000, async () => {
        return (await request(port, '/readyz')).status === 200;
      }).catch(async (error: unknown) => {
        const logs = await podman(['logs', hosts[index]!], { allowFailure: true });
        log(`${hosts[index]} logs:\n${`${logs.stdout}${logs.stderr}`.slice(-4000)}`);
        throw error;
      });
    }
    log(`${ports.length} pods played and ready in ${((Date.now() - up) / 1000).toFixed(0)} s`);
  }, 40 * 60_000);

  afterAll(async () => {
    // Every volume mounted in a container made here, anonymous ones too (the images' VOLUME), to check them gone.
    const mounted: string[] = [];
    for (const name of [...hosts, postgres?.name, redis?.name]) {
      if (!name) continue;
      const mounts = await podman(['inspect', '--format', '{{range .Mounts}}{{.Name}} {{end}}', name], {
        allowFailure: true,
      });
      if (mounts.code === 0) mounted.push(...mounts.stdout.split(' ').filter((volume) => volume.trim() !== ''));
    }
    for (const { pod } of rendering?.replicas ?? []) {
      await podman(['pod', 'rm', '--force', '--time', '0', pod], { allowFailure: true });
    }
    for (const container of [postgres, redis]) {
      // With its anonymous volume (the images' VOLUME), which `remove()` would leave.
      if (container)
        await podman(['rm', '--force', '--volumes', '--time', '0', container.name], { allowFailure: true });
    }
    for (const volume of rendering?.volumes ?? []) {
      await podman(['volume', 'rm', '--force', volume], { allowFailure: true });
    }
    if (rendering) await podman(['secret', 'rm', rendering.secretName], { allowFailure: true });
    if (networkMade) await podman(['network', 'rm', '--force', NETWORK], { allowFailure: true });
    const left = [
      ...(await leftBehind('pod', SUFFIX)),
      ...(await leftBehind('container', SUFFIX)),
      ...(await leftBehind('container', RUN)),
      ...(await leftBehind('volume', SUFFIX)),
      ...(await leftBehind('secret', SUFFIX)),
      ...(await leftBehind('network', NETWORK)),
      ...(
        await Promise.all(
          mounted.map(async (volume) => ((await leftBehind('volume', volume)).includes(volume) ? volume : '')),
        )
      ).filter((volume) => volume !== ''),
    ];
    expect(left).toEqual([]);
  }, 120_000);

  it("runs the autoscaler's minimum of pods, each ready on /readyz and alive on /healthz", async () => {
    expect(ports.length).toBeGreaterThanOrEqual(2);
    for (const port of ports) {
      expect((await request(port, '/readyz')).status).toBe(200);
      expect((await request(port, '/healthz')).status).toBe(200);
    }
  });

  it('says at the start where staff open the product and how to run a command in a pod', async () => {
    for (const host of hosts) {
      const logs = await podman(['logs', host]);
      const text = `${logs.stdout}${logs.stderr}`;
      expect(text).toContain('Slots platform is ready: open https://slots.example.com/');
      expect(text).toContain('kubectl exec -it deploy/slots-platform -- node dist/server/cli/user-add.js admin');
      expect(text).toMatch(/"storage":"postgres","sessions":"redis"/);
    }
  });

  it('runs each pod as its securityContext says, the server working so: uid 1000, read-only root, no capability', async () => {
    for (const host of hosts) {
      const status = (await podman(['exec', host, 'cat', '/proc/1/status'])).stdout;
      expect(status).toMatch(/^Uid:\s+1000\s+1000\s/m);
      expect(status).toMatch(/^CapEff:\s+0+$/m);
      expect(status).toMatch(/^NoNewPrivs:\s+1$/m);
      expect((await podman(['exec', host, 'touch', '/app/written'], { allowFailure: true })).code).not.toBe(0);
      // The image's VOLUME /data, which podman mounts and a cluster does not (there it is on the read-only root):
      // the pods write nothing there.
      expect((await podman(['exec', host, 'ls', '-A', '/data'])).stdout).toBe('');
      // REMOTES_CONFIG names the ConfigMap's file, as the ConfigMap holds it.
      const remotesJson = await podman(['exec', host, 'cat', '/etc/slots/remotes/remotes.json']);
      expect(JSON.parse(remotesJson.stdout)).toEqual({ remotes: [] });
    }
  });

  it('gives each pod a /tmp of its own (the emptyDir), where it can write', async () => {
    const file = `/tmp/written-by-pod-0-${RUN}`;
    expect((await podman(['exec', hosts[0]!, 'touch', file], { allowFailure: true })).code).toBe(0);
    for (const host of hosts.slice(1)) {
      expect((await podman(['exec', host, 'ls', '-A', '/tmp'])).stdout).not.toContain(file.slice('/tmp/'.length));
    }
  });

  it("signs in staff made with the operators' command in one pod, on the other (PostgreSQL)", async () => {
    // As `kubectl exec -i deploy/slots-platform -- node dist/server/cli/user-add.js <name>`, the password on stdin.
    const added = await podman(
      ['exec', '--interactive', hosts[0]!, 'node', 'dist/server/cli/user-add.js', STAFF.username],
      { input: `${STAFF.password}\n`, allowFailure: true },
    );
    expect([added.code, added.stderr]).toEqual([0, '']);
    const signIn = await request(ports[1]!, '/login', { method: 'POST', body: STAFF });
    expect([signIn.status, signIn.body]).toEqual([200, expect.anything()]);
    // Secure: the pod believes the ingress's X-Forwarded-Proto, its address being private (TRUST_PROXY).
    expect(signIn.setCookie.join('\n')).toMatch(/;\s*Secure/i);
  }, 60_000);

  it('serves /slots without a session and /meta to a signed-in one, on each pod', async () => {
    const { cookie } = await request(ports[0]!, '/login', { method: 'POST', body: STAFF });
    for (const port of ports) {
      const slots = await request(port, '/slots');
      expect(slots.status).toBe(200);
      expect(Object.keys((JSON.parse(slots.body) as SlotsPayload).slots).length).toBeGreaterThan(0);
      expect((await request(port, '/meta')).status).toBe(401);
      const meta = await request(port, '/meta', { cookie });
      expect(meta.status).toBe(200);
      const payload = JSON.parse(meta.body) as MetaPayload;
      expect(payload.modules.length).toBeGreaterThan(0);
      // Signed in, the protected locations too: more than the public ones /slots serves.
      expect(Object.keys(payload.slots).length).toBeGreaterThan(Object.keys(JSON.parse(slots.body).slots).length);
    }
  });

  it('keeps the sessions in Redis, shared: made on one pod, it answers on the other; ended there, refused on the first', async () => {
    const signIn = await request(ports[0]!, '/login', { method: 'POST', body: STAFF });
    expect(signIn.status).toBe(200);
    const { cookie } = signIn;
    // The cookie holds the session's id, signed (`s:<id>.<signature>`); Redis holds the session under it.
    const id = /^s:([^.]+)\./.exec(decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1)))?.[1];
    expect(id).toBeDefined();
    const stored = async (): Promise<string> =>
      (await redis!.exec(['redis-cli', 'EXISTS', `slots:sess:${id}`])).stdout.trim();
    expect(await stored()).toBe('1');
    for (const port of ports) expect((await request(port, '/meta', { cookie })).status).toBe(200);

    expect((await request(ports[1]!, '/logout', { method: 'POST', cookie })).status).toBe(204);
    expect(await stored()).toBe('0');
    expect((await request(ports[0]!, '/meta', { cookie })).status).toBe(401);
  });

  it("re-reads the ConfigMap's REMOTES_CONFIG on every pod when the reload command runs in one", async () => {
    const before = await Promise.all(hosts.map(async (host) => reloadsLogged(host)));
    // As the ConfigMap's comment says: kubectl exec deploy/slots-platform -- node dist/server/cli/remotes-reload.js
    const reload = await podman(['exec', hosts[0]!, 'node', 'dist/server/cli/remotes-reload.js'], {
      allowFailure: true,
    });
    expect([reload.code, reload.stderr]).toEqual([0, '']);
    expect(reload.stdout).toContain('Checked REMOTES_CONFIG /etc/slots/remotes/remotes.json');
    for (const [index, host] of hosts.entries()) {
      await pollUntil(`pod ${index} reloading`, 10_000, async () => (await reloadsLogged(host)) > before[index]!);
    }
  });

  // Last: it stops a pod.
  it('a pod stopped as the kubelet stops it goes unready, the other serving its session, and exits 0 in its grace', async () => {
    const deployment = readKubernetesManifests().find(({ kind }) => kind === 'Deployment')!;
    const grace = deployment.spec.template.spec.terminationGracePeriodSeconds as number;
    const { cookie } = await request(ports[0]!, '/login', { method: 'POST', body: STAFF });
    const stopping = hosts.at(-1)!;
    const began = Date.now();
    // SIGTERM, then SIGKILL after the grace period: podman 4.3 does not read terminationGracePeriodSeconds (it would
    // kill after its own 10 s), so the test gives it, as the kubelet would.
    const stopped = podman(['stop', '--time', String(grace), stopping]);
    await pollUntil(
      'the stopping pod unready',
      5_000,
      async () => (await request(ports.at(-1)!, '/readyz')).status === 503,
    );
    expect((await request(ports[0]!, '/meta', { cookie })).status).toBe(200);
    await stopped;
    const seconds = (Date.now() - began) / 1000;
    log(`a pod stopped ${seconds.toFixed(1)} s after SIGTERM (terminationGracePeriodSeconds: ${grace})`);
    expect(await podmanInspect(stopping, '{{.State.ExitCode}}')).toBe('0');
    expect(seconds).toBeLessThan(grace);
    expect((await podman(['logs', stopping])).stdout).toMatch(/"outcome":"clean"/);
  }, 60_000);
});
