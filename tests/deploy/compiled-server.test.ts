/**
 * The server as `npm run build` compiles it (scripts/compile-server.ts): JavaScript run by `node` alone, no tsx and
 * no TypeScript, with the fixed environment of issue 49 (PORT, HOST, DATABASE_PATH, DEMO_PASSWORD, NODE_ENV);
 * stack traces through the source maps; an operator's command compiled; an application's own entry compiled with
 * the modules it imports. Compiled into folders of its own, so the test needs no earlier build.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildIdentityOf, writeBuildIdentity } from '../../scripts/build-identity';
import { compileServer } from '../../scripts/compile-server';
import { RELEASE_SCHEMA_VERSION } from '../../server/storage/migrations';
import { startOtlpReceiver } from '../../testing/system/otlp-receiver';
import { REPO_ROOT } from '../../testing/system/repo-root';
import { startServerProcess, type ServerProcess } from '../../testing/system/server-process';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';

const DEMO_PASSWORD = 'compiled-demo-password';

/**
 * A folder inside the repository (ignored, as .tsbuild/ is): the compiled files find node_modules/ from there, as
 * dist/server/ does.
 */
function compileDir(prefix: string): TempDir {
  const parent = path.join(REPO_ROOT, '.tsbuild');
  fs.mkdirSync(parent, { recursive: true });
  const dir = fs.mkdtempSync(path.join(parent, prefix));
  return { path: dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

describe('the compiled server (dist/server/)', () => {
  let out: TempDir;
  let data: TempDir;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    out = compileDir('compiled-server-');
    data = makeTempDir('slots-compiled-data-');
    await compileServer({ root: REPO_ROOT, outDir: out.path });
  }, 60_000);

  /** dist/server/main.js run by node alone, with the fixed environment, a database of its own and `env`. */
  function startCompiledServer(
    name: string,
    database: string,
    env: Record<string, string> = {},
  ): Promise<ServerProcess> {
    return startServerProcess({
      name,
      args: ['--enable-source-maps', path.join(out.path, 'server', 'main.js')],
      // PORT and HOST are set by the helper; nothing else of the parent's (a stray NODE_OPTIONS loader) helps.
      env: {
        DATABASE_PATH: path.join(data.path, database),
        DEMO_PASSWORD,
        NODE_ENV: 'production',
        NODE_OPTIONS: undefined,
        ...env,
      },
      readyPath: '/healthz',
      readyTimeoutMs: 20_000,
    });
  }

  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  afterAll(() => {
    out.remove();
    data.remove();
  });

  it('writes JavaScript beside its source maps, and no TypeScript', () => {
    const files = fs.readdirSync(out.path, { recursive: true, encoding: 'utf8' });
    expect(files).toContain(path.join('server', 'main.js'));
    expect(files).toContain(path.join('server', 'main.js.map'));
    expect(files).toContain(path.join('shared', 'index.js'));
    expect(files.filter((file) => /\.tsx?$/.test(file))).toEqual([]);
    expect(files.filter((file) => file.endsWith('.test.js'))).toEqual([]);
    // The compiled server finds the build output one folder up, as dist/server/ does in dist/.
    const dist = spawnSync(
      process.execPath,
      ['-p', `require(${JSON.stringify(path.join(out.path, 'server', 'index.js'))}).DEFAULT_DIST_DIR`],
      { encoding: 'utf8' },
    );
    expect(dist.stdout.trim()).toBe(out.path);
  });

  it('serves /healthz and a sign-in with node alone and the fixed environment', async () => {
    server = await startCompiledServer('compiled server', 'app.db');
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);

    const login = await fetch(`${server.url}/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: DEMO_PASSWORD }),
    });
    expect(login.status).toBe(200);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';', 1)[0] ?? '';
    const me = await fetch(`${server.url}/me`, { headers: { Cookie: cookie } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ user: { username: 'admin' } });

    expect(await server.stop()).toEqual({ code: 0, signal: null });
  }, 40_000);

  it('says the release the build recorded: in its listening line, its start message and slots_build_info', async () => {
    // As `npm run build` does after the compile (scripts/build.ts): this checkout's commit, -dirty if changed.
    const identity = buildIdentityOf(REPO_ROOT);
    writeBuildIdentity(out.path, identity);
    const token = 'compiled-metrics-token-0123';
    server = await startCompiledServer('compiled server with its release', 'release.db', { METRICS_TOKEN: token });
    const listening = server.logLines().find((line) => line.msg === 'listening');
    expect(listening).toMatchObject({
      revision: identity.revision,
      builtAt: identity.builtAt,
      schema: RELEASE_SCHEMA_VERSION,
    });
    expect(identity.revision).toMatch(/^[0-9a-f]{12}(-dirty)?$/);
    expect(server.stdout()).toContain(
      `Release: revision ${identity.revision} (built ${identity.builtAt}), database schema ${RELEASE_SCHEMA_VERSION}.`,
    );
    const metrics = await (
      await fetch(`${server.url}/metrics`, { headers: { Authorization: `Bearer ${token}` } })
    ).text();
    expect(metrics).toContain(`slots_build_info{revision="${identity.revision}",schema="${RELEASE_SCHEMA_VERSION}"} 1`);
    expect(await server.stop()).toEqual({ code: 0, signal: null });
  }, 40_000);

  it("sends its spans from the export thread's compiled file (protobuf), node alone", async () => {
    const receiver = await startOtlpReceiver();
    try {
      server = await startCompiledServer('compiled traced server', 'traced.db', {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
        OTEL_BSP_SCHEDULE_DELAY: '100',
      });
      expect((await fetch(`${server.url}/slots`)).status).toBe(200);
      const span = await receiver.waitForSpan((received) => received.name === 'GET /slots');
      expect(span.service).toBe('slots-server');
      expect(receiver.exports.at(-1)).toEqual({ path: '/v1/traces', contentType: 'application/x-protobuf' });
      expect(await server.stop()).toEqual({ code: 0, signal: null });
      expect(server.stderr()).toBe('');
    } finally {
      await receiver.close();
    }
  }, 40_000);

  it('names the TypeScript file and line in a stack trace', () => {
    const run = spawnSync(
      process.execPath,
      [
        '--enable-source-maps',
        '-e',
        `require(${JSON.stringify(path.join(out.path, 'shared', 'index.js'))}).Slot.untyped('1 not a name')`,
      ],
      { encoding: 'utf8' },
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/at \S+ \(\S*\/shared\/slot\.ts:\d+:\d+\)/);
  });

  it('runs an operator command compiled: tenant:add, then its listing', () => {
    const env = { ...process.env, DATABASE_PATH: path.join(data.path, 'cli.db') };
    const command = path.join(out.path, 'server', 'cli', 'tenant-add.js');
    const add = spawnSync(process.execPath, [command, 'initech', '--name', 'Initech'], { env, encoding: 'utf8' });
    // Before any start there is no database: tenant:add (which sets an installation up) makes it, and says so.
    expect([add.status, add.stderr]).toEqual([
      0,
      `Made a new database at SQLite ${env.DATABASE_PATH}: no server has used it yet. If the server's is elsewhere, ` +
        'set DATABASE_PATH to it.\n',
    ]);
    const list = spawnSync(process.execPath, [command], { env, encoding: 'utf8' });
    expect(list.stdout + list.stderr).toContain('initech');
  });

  it("compiles an application's own entry with the modules it imports, started by entry.js", async () => {
    const appOut = compileDir('compiled-app-');
    try {
      const compiled = await compileServer({
        root: REPO_ROOT,
        outDir: appOut.path,
        entry: 'tests/deploy/fixtures/host-app.ts',
      });
      expect(compiled.entry).toBe('tests/deploy/fixtures/host-app.js');
      expect(compiled.files).toContain('tests/deploy/fixtures/host-app-notice.ts');
      server = await startServerProcess({
        name: 'compiled host application',
        args: ['--enable-source-maps', path.join(appOut.path, 'entry.js')],
        env: { DATABASE_PATH: path.join(data.path, 'app-entry.db'), NODE_ENV: 'production', NODE_OPTIONS: undefined },
        readyPath: '/healthz',
        readyTimeoutMs: 20_000,
      });
      const slots = await (await fetch(`${server.url}/slots`)).text();
      expect(slots).toContain('HostAppNotice');
      expect(slots).toContain('Initech staff only');
    } finally {
      await server?.stop();
      server = undefined;
      appOut.remove();
    }
  }, 60_000);

  it('refuses an entry whose files would land among the front-end build (served to browsers)', async () => {
    const refused = compileDir('compiled-refused-');
    try {
      await expect(compileServer({ root: REPO_ROOT, outDir: refused.path, entry: 'host/index.ts' })).rejects.toThrow(
        /among the front-end build's files/,
      );
      // Nothing still being written once it refused: the folder removed now stays removed.
      refused.remove();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(fs.existsSync(refused.path)).toBe(false);
    } finally {
      refused.remove();
    }
  });
});
