/**
 * deploy/compose.yaml read as the compose engines read it (YAML with merge keys, `${VAR:-default}` and
 * `${VAR:?error}` interpolation): the five services of the topology, every image overridable by a variable with the
 * public image as its default, healthchecks, hosts that wait for PostgreSQL and Redis, files the proxy mounts that
 * exist, a proxy whose upstream is kept for both hosts, and an environment the server itself accepts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { readConfig } from '../../server/env-config';
import { REPO_ROOT } from '../../testing/system/repo-root';

const DEPLOY = path.join(REPO_ROOT, 'deploy');
const COMPOSE_FILE = path.join(DEPLOY, 'compose.yaml');

interface Service {
  image: string;
  build?: { context: string; args?: Record<string, string> };
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  read_only?: boolean;
  cap_drop?: string[];
  tmpfs?: string[];
  restart?: string;
  stop_grace_period?: string;
}

const compose = parse(fs.readFileSync(COMPOSE_FILE, 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};
const services = compose.services;

/** Compose's interpolation, enough for this file: `${NAME}`, `${NAME:-default}`, `${NAME:?error}`, `$$`. */
function interpolate(text: string, env: Readonly<Record<string, string>>): string {
  return text.replace(
    /\$\$|\$\{([A-Z_][A-Z0-9_]*)(?:(:-|:\?)([^}]*))?\}/g,
    (whole, name?: string, op?: string, arg?: string) => {
      if (whole === '$$') return '$';
      const value = env[name!];
      if (value !== undefined && value !== '') return value;
      if (op === ':?') throw new Error(`${name} is required: ${arg}`);
      return op === ':-' ? arg! : '';
    },
  );
}

describe('deploy/compose.yaml', () => {
  it('runs a proxy, two hosts, PostgreSQL and Redis', () => {
    expect(Object.keys(services).sort()).toEqual(['host-a', 'host-b', 'postgres', 'proxy', 'redis']);
  });

  it.each([
    ['proxy', 'PROXY_IMAGE', /^nginx:/],
    ['host-a', 'SLOTS_IMAGE', /^slots-platform:latest$/],
    ['host-b', 'SLOTS_IMAGE', /^slots-platform:latest$/],
    ['postgres', 'POSTGRES_IMAGE', /^postgres:15$/],
    ['redis', 'REDIS_IMAGE', /^redis:7$/],
  ])('%s: its image is ${%s:-<public image>}', (name, variable, defaultImage) => {
    const match = /^\$\{([A-Z_]+):-([^}]+)\}$/.exec(services[name]!.image);
    expect(match?.[1]).toBe(variable);
    expect(match?.[2]).toMatch(defaultImage);
  });

  it('builds the application image from the Dockerfile at the root when it is not there', () => {
    for (const name of ['host-a', 'host-b']) {
      const build = services[name]!.build!;
      expect(fs.existsSync(path.join(path.resolve(DEPLOY, build.context), 'Dockerfile'))).toBe(true);
      expect(build.args?.BASE_IMAGE).toBe('${BASE_IMAGE:-node:20-bookworm-slim}');
      // The build has no .git: the revision the hosts say is the one the shell gives, `unknown` without it.
      const described = `${'0123456789abcdef'.repeat(2)}01234567-dirty`;
      expect(interpolate(build.args?.REVISION ?? '', { REVISION: described })).toBe(described);
      expect(interpolate(build.args?.REVISION ?? '', {})).toBe('unknown');
    }
  });

  it('has a healthcheck on every service, the hosts asking /readyz', () => {
    for (const [name, service] of Object.entries(services)) {
      expect([name, service.healthcheck?.test.length]).toEqual([name, expect.any(Number)]);
    }
    expect(services['host-a']!.healthcheck!.test.join(' ')).toContain("path:'/readyz'");
    expect(services.postgres!.healthcheck!.test.join(' ')).toContain('pg_isready');
    expect(services.redis!.healthcheck!.test.join(' ')).toContain('redis-cli ping');
    // One shell string each: podman-compose 1.0 breaks up the words of a CMD list.
    for (const service of Object.values(services)) expect(service.healthcheck!.test[0]).toBe('CMD-SHELL');
  });

  it('starts the hosts once PostgreSQL and Redis are healthy, and the proxy once both hosts are', () => {
    for (const name of ['host-a', 'host-b']) {
      expect(services[name]!.depends_on).toEqual({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
      });
      // A host that found PostgreSQL gone at start exits: the engine starts it again.
      expect(services[name]!.restart).toBe('unless-stopped');
    }
    expect(services.proxy!.depends_on).toEqual({
      'host-a': { condition: 'service_healthy' },
      'host-b': { condition: 'service_healthy' },
    });
  });

  it('runs the hosts on a read-only root with /tmp and /data in memory, every capability dropped, publishing no port', () => {
    for (const name of ['host-a', 'host-b']) {
      const host = services[name]!;
      expect(host.read_only).toBe(true);
      expect(host.tmpfs).toContain('/tmp');
      // The image's VOLUME for SQLite: on PostgreSQL nothing goes there, and an anonymous volume would outlive `down`.
      expect(host.tmpfs).toContain('/data');
      expect(host.cap_drop).toEqual(['ALL']);
      expect(host.ports).toBeUndefined();
    }
  });

  it('gives the hosts an environment the server accepts: PostgreSQL, Redis, one session secret, the proxy trusted', () => {
    const operator = { SESSION_SECRET: 'a'.repeat(64), POSTGRES_PASSWORD: 'b'.repeat(32) };
    const envs = ['host-a', 'host-b'].map((name) =>
      Object.fromEntries(
        Object.entries(services[name]!.environment!)
          // No value: passed on from the engine's environment when set there (DEMO_PASSWORD, METRICS_TOKEN).
          .filter(([, value]) => value !== null)
          .map(([key, value]) => [key, interpolate(String(value), operator)]),
      ),
    );
    expect(envs[0]).toEqual(envs[1]);
    // podman-compose 1.0 leaves \${NAME:-} (an empty default) as it is: none in the file.
    expect(fs.readFileSync(COMPOSE_FILE, 'utf8').replace(/^\s*#.*$/gm, '')).not.toMatch(/\$\{[A-Z_]+:-\}/);
    const env = envs[0]!;
    const config = readConfig(env);
    expect(config.port).toBe(3000);
    expect(config.host).toBe('0.0.0.0');
    expect(new URL(config.postgres!.url).host).toBe('postgres:5432');
    expect(new URL(config.redisUrl!).host).toBe('redis:6379');
    expect(config.sessionSecret).toEqual([operator.SESSION_SECRET]);
    expect(config.trustProxy).not.toBe(false);
    // Where browsers open it: the proxy, on the port it publishes, under the name its certificate is made for.
    expect(config.publicOrigin).toBe('https://localhost:8443');
    const elsewhere = { ...operator, PROXY_HOSTNAME: 'slots.example.com', HTTPS_PORT: '443' };
    const publicUrl = interpolate(String(services['host-a']!.environment!.PUBLIC_URL), elsewhere);
    expect(readConfig({ ...env, PUBLIC_URL: publicUrl }).publicOrigin).toBe('https://slots.example.com');
    // The same password on both sides of the connection.
    expect(interpolate(services.postgres!.environment!.POSTGRES_PASSWORD!, operator)).toBe(operator.POSTGRES_PASSWORD);
    expect(decodeURIComponent(new URL(config.postgres!.url).password)).toBe(operator.POSTGRES_PASSWORD);
    // Without the secrets, the file refuses to start rather than run with none.
    expect(() => interpolate(services['host-a']!.environment!.SESSION_SECRET!, {})).toThrow(/SESSION_SECRET/);
    expect(() => interpolate(services['host-a']!.environment!.DATABASE_URL!, {})).toThrow(/POSTGRES_PASSWORD/);
    // The commands the hosts print run from the repository root, in a host of this file.
    const [file, service] = /^docker compose -f (\S+) exec (\S+)$/.exec(env.COMMAND_PREFIX ?? '')?.slice(1) ?? [];
    expect(path.resolve(REPO_ROOT, file ?? '')).toBe(COMPOSE_FILE);
    expect(['host-a', 'host-b']).toContain(service);
  });

  it('gives a stopping host longer than its drain before the engine kills it', () => {
    const env = services['host-a']!.environment!;
    const drainMs = Number(env.SHUTDOWN_DELAY_MS) + Number(env.SHUTDOWN_TIMEOUT_MS ?? 10_000);
    expect(Number(/^(\d+)s$/.exec(services['host-a']!.stop_grace_period!)?.[1]) * 1000).toBeGreaterThan(drainMs);
  });

  it('mounts into the proxy files that exist, and nginx sends TLS with HTTP/2 to both hosts', () => {
    const proxy = services.proxy!;
    const binds = proxy.volumes!.map((volume) => volume.split(':')).filter(([source]) => source!.startsWith('./'));
    expect(binds.length).toBeGreaterThanOrEqual(2);
    for (const [source] of binds) expect(fs.existsSync(path.join(DEPLOY, source!))).toBe(true);
    // The certificate folder: a named volume unless the operator names one (TLS_DIR).
    const tls = proxy.volumes!.find((volume) => volume.endsWith(':/etc/slots-tls'))!;
    expect(tls).toBe('${TLS_DIR:-proxy-tls}:/etc/slots-tls');
    expect(Object.keys(compose.volumes)).toContain('proxy-tls');
    expect(proxy.ports).toContain('${HTTPS_PORT:-8443}:443');
    // Plain HTTP is redirected to that published port, not to the proxy's own 443 (proxy-start.sh writes the rule).
    expect(proxy.environment?.PUBLIC_HTTPS_PORT).toBe('${HTTPS_PORT:-8443}');

    const nginx = fs.readFileSync(path.join(DEPLOY, 'compose', 'nginx.conf'), 'utf8');
    expect(nginx).toMatch(/^\s*listen 443 ssl http2;/m);
    expect(nginx).toContain('ssl_certificate     /etc/slots-tls/tls.crt;');
    expect(nginx).toContain('proxy_set_header X-Forwarded-Proto $scheme;');
    // The edge: a client's own X-Forwarded-For replaced, never appended to (the hosts trust every private address).
    expect(nginx).toContain('proxy_set_header X-Forwarded-For $remote_addr;');
    expect(nginx).not.toContain('$proxy_add_x_forwarded_for');
    const start = fs.readFileSync(path.join(DEPLOY, 'compose', 'proxy-start.sh'), 'utf8');
    expect(proxy.command).toEqual(['/bin/sh', '/etc/slots-proxy/proxy-start.sh']);
    expect(start).toContain('/etc/slots-tls');
    expect(start).toMatch(/exec nginx -g 'daemon off;'/);
    // The upstream's servers are the file the start script keeps, for the hosts of this compose file on their port
    // (what it writes there and when: the topology test's rolling restart).
    const upstream = /upstream slots_app \{([^}]*)\}/.exec(nginx)?.[1] ?? '';
    const servers = /^servers=(\S+)$/m.exec(start)?.[1];
    expect(upstream).toContain(`include ${servers};`);
    // The file names its hosts to the proxy (a host added must be named there), and the script's defaults agree.
    const appHosts = Object.keys(services).filter((name) => name.startsWith('host-'));
    expect(proxy.environment?.PROXY_UPSTREAM_HOSTS?.split(' ')).toEqual(appHosts);
    expect(proxy.environment?.PROXY_UPSTREAM_PORT).toBe(services['host-a']!.environment!.PORT);
    const hosts = /PROXY_UPSTREAM_HOSTS:-([^}]*)\}/.exec(start)?.[1]?.split(' ');
    expect(hosts).toEqual(appHosts);
    expect(/PROXY_UPSTREAM_PORT:-(\d+)\}/.exec(start)?.[1]).toBe(services['host-a']!.environment!.PORT);
  });
});
