import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BootData, RemoteHistoryPayload, RemoteRollout, SlotsPayload } from '../../shared';
import { BOOT_DATA_ELEMENT_ID } from '../../shared';
import { startAppServer } from '../../testing/system/app-server';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { getFreePort } from '../../testing/system/free-port';
import type { HttpFixtureServer } from '../../testing/system/http-fixture-server';
import { REPO_ROOT } from '../../testing/system/repo-root';
import { kitTarballName, readKitManifest } from '../../scripts/kit-pack';
import { runInProject, startProjectDevServer, type ProjectDevServer } from '../../testing/system/remote-project';
import { signIn } from '../../testing/system/sign-in';
import { fetchInPage, slotAt, waitForSlot } from '../../testing/system/slot-page';
import { startStaticServer } from '../../testing/system/static-server';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';

/**
 * A team outside this repository, as the README tells it: `npm run remote:new` into a folder elsewhere, then in
 * that folder alone `npm install`, `npm test`, `npm run build`; the build served from its own origin; the product
 * told about it only through REMOTES_CONFIG (name, entry, slots). No file of this repository changes, nothing is
 * rebuilt here, no server code is written. Then what the team lives with: the type check in its build and tests, a
 * component added while `npm run dev` runs, and an upgrade of the kit with the command its README gives.
 */
jest.setTimeout(600_000);

const REMOTE = 'team_billing';
let projectDir: TempDir;
let origin: HttpFixtureServer | undefined;
let configFile = '';
/** What `npm run remote:new` printed, typed in the repository's docs/ folder. */
let created = '';

function inProject(command: string, args: string[]): string {
  return runInProject(projectDir.path, command, args);
}

function inProjectFile(file: string): string {
  return readFileSync(path.join(projectDir.path, file), 'utf8');
}

function remotesConfig(entry: string, slots: Record<string, unknown>): string {
  return `${JSON.stringify({ remotes: [{ name: REMOTE, entry, slots }] }, null, 2)}\n`;
}

const PLACED = {
  'login-before-form': [{ component: 'Hello', props: { name: 'billing team' } }],
  'dashboard-before-cards': [{ component: 'Hello', props: { name: 'signed-in staff' } }],
};

beforeAll(() => {
  projectDir = makeTempDir('slots-remote-project-');
  // npm runs the script from the repository's root, and says in INIT_CWD where the command was typed.
  created = execFileSync(
    process.execPath,
    ['--import', 'tsx', 'scripts/remote-new.ts', REMOTE, '--dir', projectDir.path],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, INIT_CWD: path.join(REPO_ROOT, 'docs') },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  // The project's own dependencies, from the registry (or npm's cache): nothing of this repository's node_modules.
  inProject('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline']);
  expect(inProject('npm', ['test'])).toBeDefined();
  inProject('npm', ['run', 'typecheck']);
  inProject('npm', ['run', 'build']);
});

afterAll(() => projectDir?.remove());

const suite = useBrowserSuite({
  startServer: async () => {
    origin = await startStaticServer(path.join(projectDir.path, 'dist'));
    return startAppServer({
      prepare: async (dir) => {
        configFile = path.join(dir, 'remotes.json');
        await writeFile(configFile, remotesConfig(`${origin?.url}/mf-manifest.json`, PLACED));
        return { REMOTES_CONFIG: configFile };
      },
    });
  },
});

afterEach(async () => {
  await origin?.close();
  origin = undefined;
});

describe('a remote made with npm run remote:new, built and served outside this repository', () => {
  it('renders at its configured locations, public and signed in, and the page survives its origin going away', async () => {
    const { page, log } = await suite.newPage();
    await page.goto('/login');
    await waitForSlot(page, 'login-before-form', 'Hello', { hasText: 'Hello, billing team' });
    // The protected placement never reaches an anonymous visitor.
    const publicSlots = (await (await fetch(`${suite.url}/slots`)).json()) as SlotsPayload;
    expect(JSON.stringify(publicSlots)).not.toContain('signed-in staff');

    await signIn(page);
    await waitForSlot(page, 'dashboard-before-cards', 'Hello', { hasText: 'Hello, signed-in staff' });

    await origin?.close();
    origin = undefined;
    await page.reload();
    // The rest of the page renders; the remote's slots fail alone.
    await waitForSlot(page, 'dashboard-before-cards', 'WelcomeCard');
    await page.getByRole('navigation').first().waitFor();
    expect(await slotAt(page, 'dashboard-before-cards', 'Hello').filter({ hasText: 'Hello,' }).count()).toBe(0);
    expect(log.pageErrors).toEqual([]);
  });

  it('moves its slot when REMOTES_CONFIG changes and the server gets SIGHUP, without ending sessions', async () => {
    const { page } = await suite.newPage();
    await signIn(page);
    await waitForSlot(page, 'dashboard-before-cards', 'Hello', { hasText: 'Hello, signed-in staff' });

    writeFileSync(
      configFile,
      remotesConfig(`${origin?.url}/mf-manifest.json`, {
        'dashboard-after-cards': [{ component: 'Hello', props: { name: 'after the reload' } }],
      }),
    );
    process.kill(suite.server.process.pid, 'SIGHUP');
    await suite.server.process.waitForOutput(/Remotes configuration reloaded/, 10_000);
    await page.reload();
    await waitForSlot(page, 'dashboard-after-cards', 'Hello', { hasText: 'Hello, after the reload' });
    expect(new URL(page.url()).pathname).not.toBe('/login');

    // A broken file is refused; the configuration in use stays.
    writeFileSync(configFile, '{ "remotes": [ { "name": "team_billing", "slots": { "nowhere": [] } } ] }');
    process.kill(suite.server.process.pid, 'SIGHUP');
    await suite.server.process.waitForOutput(/not reloaded, the previous one stays in use/, 10_000);
    await page.reload();
    await waitForSlot(page, 'dashboard-after-cards', 'Hello', { hasText: 'Hello, after the reload' });
  });
});

describe('releasing version 2 from the project, as the team and an operator live it', () => {
  it('publishes with npm run release and a token, canaries to 10 % on the next load, rolls back; the audit shows each', async () => {
    // Version 2 on an origin of its own: the same build in a folder per version, as the README says.
    const version2 = await startStaticServer(path.join(projectDir.path, 'dist'));
    try {
      const tokenOutput = execFileSync('npm', ['run', '--silent', 'token:add', '--', REMOTE], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        env: { ...process.env, DATABASE_PATH: suite.server.databasePath, DATABASE_URL: undefined },
      });
      const token = tokenOutput.trimEnd().split('\n').at(-1) ?? '';
      const entry = `${version2.url}/mf-manifest.json`;
      // The team's one command, from its own project (not spawnSync: the origins answer from this process).
      const released = await new Promise<{ status: number | null; output: string }>((resolve, reject) => {
        const child = spawn('npm', ['run', 'release', '--', '--version', '2.0.0', '--entry', entry], {
          cwd: projectDir.path,
          env: { ...process.env, SLOTS_RELEASE_TOKEN: token, SLOTS_RELEASE_SERVER: suite.url },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.once('error', reject);
        child.once('close', (status) => resolve({ status, output }));
      });
      // The release keeps which kit built it: the one the project installed, this repository's.
      const kit = (
        JSON.parse(readFileSync(path.join(REPO_ROOT, 'remotes', 'kit', 'package.json'), 'utf8')) as {
          version: string;
        }
      ).version;
      expect(released).toEqual({
        status: 0,
        output: expect.stringContaining(`Published team_billing 2.0.0 (entry ${entry}, built with remote kit ${kit}).`),
      });

      const { page } = await suite.newPage();
      await signIn(page);
      const canary = await fetchInPage<RemoteRollout>(page, `/api/remotes/${REMOTE}/canary`, {
        method: 'POST',
        body: { version: '2.0.0', percent: 10 },
      });
      expect(canary.status).toBe(200);
      expect(canary.body.canary).toMatchObject({ version: '2.0.0', percent: 10 });
      // The demo operator's own share decides what its next page load gets; either way it is one of the two.
      await page.reload();
      await waitForSlot(page, 'dashboard-before-cards', 'Hello', { hasText: 'Hello, signed-in staff' });
      const bootEntry = async () => {
        const boot = JSON.parse((await page.locator(`#${BOOT_DATA_ELEMENT_ID}`).textContent()) ?? '{}') as BootData;
        return boot.remotes.find((remote) => remote.name === REMOTE)?.entry;
      };
      expect([`${origin?.url}/mf-manifest.json`, entry]).toContain(await bootEntry());

      const active = canary.body.active ?? '';
      const rolledBack = await fetchInPage<RemoteRollout>(page, `/api/remotes/${REMOTE}/canary`, { method: 'DELETE' });
      expect(rolledBack.status).toBe(200);
      expect(rolledBack.body).toMatchObject({ active, canary: null });
      await page.reload();
      await waitForSlot(page, 'dashboard-before-cards', 'Hello', { hasText: 'Hello, signed-in staff' });
      expect(await bootEntry()).toBe(`${origin?.url}/mf-manifest.json`);

      const history = await fetchInPage<RemoteHistoryPayload>(page, `/api/remotes/${REMOTE}/history`);
      expect(history.body.entries.map((item) => item.action).slice(0, 4)).toEqual([
        'canary-end',
        'canary',
        'publish',
        'token-add',
      ]);
    } finally {
      await version2.close();
    }
  });
});

describe("the project's own commands", () => {
  it('names the README after the remote', () => {
    expect(inProjectFile('README.md').split('\n')[0]).toBe(`# ${REMOTE}`);
  });

  it('keeps node_modules and the builds out of git, and says how to reach it from where the command was typed', () => {
    expect(inProjectFile('.gitignore').split('\n')).toEqual(
      expect.arrayContaining(['node_modules/', 'dist/', 'dev-dist/']),
    );
    expect(created).toContain(`Next:\n  cd ${path.relative(path.join(REPO_ROOT, 'docs'), projectDir.path)}\n`);
  });

  it('type-checks in npm run build and npm test: a type error fails both', () => {
    const broken = path.join(projectDir.path, 'components', 'Shout.tsx');
    writeFileSync(broken, 'export function shout(amountDue: number): string {\n  return amountDue.toUpperCase();\n}\n');
    try {
      for (const script of [['run', 'build'], ['test']]) {
        const result = spawnSync('npm', script, { cwd: projectDir.path, encoding: 'utf8' });
        expect({ script, status: result.status }).not.toEqual({ script, status: 0 });
        expect(result.stdout + result.stderr).toMatch(/Shout\.tsx\(2,\d+\): error TS2339: Property 'toUpperCase'/);
      }
    } finally {
      rmSync(broken);
    }
    inProject('npm', ['run', 'build']);
  });
});

describe('the dev loop of a remote team', () => {
  let dev: ProjectDevServer | undefined;
  afterEach(() => {
    dev?.stop();
    dev = undefined;
  });

  /** `npm run dev -- --port <port>` in the project, once its first build is done. */
  async function startDev(port: number) {
    dev = await startProjectDevServer(projectDir.path, REMOTE, port);
    return dev;
  }

  it('shows a saved edit in the browser without restarting the product (live reload)', async () => {
    const port = await getFreePort();
    await startDev(port);

    const server = await startAppServer({
      nodeEnv: 'development',
      prepare: async (dir) => {
        const file = path.join(dir, 'remotes.json');
        await writeFile(file, remotesConfig(`http://127.0.0.1:${port}/mf-manifest.json`, PLACED));
        return { REMOTES_CONFIG: file };
      },
    });
    const component = path.join(projectDir.path, 'components', 'Hello.tsx');
    const original = readFileSync(component, 'utf8');
    try {
      const context = await suite.browser.newContext({ baseURL: server.url });
      const page = await context.newPage();
      await page.goto('/login');
      await waitForSlot(page, 'login-before-form', 'Hello', { hasText: 'Hello, billing team' });

      const serverPid = server.process.pid;
      const saved = Date.now();
      writeFileSync(component, original.replace('Hello, {name}', 'Good day, {name}'));
      await waitForSlot(page, 'login-before-form', 'Hello', { hasText: 'Good day, billing team', timeout: 30_000 });
      const seconds = (Date.now() - saved) / 1000;
      console.log(`dev loop: a saved edit was visible in the browser after ${seconds.toFixed(2)} s`);
      expect(server.process.pid).toBe(serverPid);
      expect(server.process.stdout()).not.toMatch(/listening[\s\S]*listening/);
      await context.close();
    } finally {
      writeFileSync(component, original);
      await server.stop();
    }
  });

  it('builds and lists a component added while it runs (remote.ts read again), without a restart', async () => {
    const port = await getFreePort();
    const { until, output } = await startDev(port);
    const declaration = path.join(projectDir.path, 'remote.ts');
    const original = readFileSync(declaration, 'utf8');
    const added = path.join(projectDir.path, 'components', 'Goodbye.tsx');
    const from = output().length;
    try {
      writeFileSync(
        added,
        'export function Goodbye({ name }: { name: string }) {\n  return <p>Goodbye, {name}</p>;\n}\n',
      );
      writeFileSync(
        declaration,
        original.replace(
          'Hello: propsSchema({ name: Type.String() }),',
          '$&\n    Goodbye: propsSchema({ name: Type.String() }),',
        ),
      );
      expect(readFileSync(declaration, 'utf8')).toContain('Goodbye: propsSchema');
      // What a host reads, as it reads it: the descriptor and the manifest the dev server serves (nothing while
      // a rebuild rewrites them).
      const served = async () => {
        try {
          return await readServed();
        } catch {
          return undefined;
        }
      };
      const readServed = async () => {
        const descriptor = (await (await fetch(`http://127.0.0.1:${port}/slots-remote.json`)).json()) as {
          components: string[];
        };
        const manifest = (await (await fetch(`http://127.0.0.1:${port}/mf-manifest.json`)).json()) as {
          exposes: Array<{ path: string }>;
        };
        return { components: descriptor.components, exposes: manifest.exposes.map((expose) => expose.path).sort() };
      };
      const expected = { components: ['Hello', 'Goodbye'], exposes: ['./Goodbye', './Hello'] };
      const deadline = Date.now() + 30_000;
      let seen = await served();
      while (JSON.stringify(seen) !== JSON.stringify(expected) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        seen = await served();
      }
      expect(seen).toEqual(expected);
      await until(/remote\.ts changed: rebuilding with Hello, Goodbye/, from);
    } finally {
      writeFileSync(declaration, original);
      rmSync(added, { force: true });
    }
  });
});

describe('upgrading the kit', () => {
  it("installs kit N+1 over kit N with the command the project's README gives", () => {
    const installedVersion = () =>
      (JSON.parse(inProjectFile('node_modules/@slots-platform/remote-kit/package.json')) as { version: string })
        .version;
    const kit = readKitManifest();
    expect(installedVersion()).toBe(kit.version);

    // Kit N+1: the package this project was scaffolded with, packed again under the next patch version.
    const next = kit.version.replace(/\d+$/, (patch) => String(Number(patch) + 1));
    const work = makeTempDir('slots-kit-next-');
    try {
      execFileSync('tar', ['xzf', path.join(projectDir.path, kitTarballName(kit)), '-C', work.path]);
      const manifestFile = path.join(work.path, 'package', 'package.json');
      const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { version: string };
      writeFileSync(manifestFile, JSON.stringify({ ...manifest, version: next }, null, 2));
      execFileSync('npm', ['pack', '--pack-destination', projectDir.path], {
        cwd: path.join(work.path, 'package'),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } finally {
      work.remove();
    }
    const tarball = kitTarballName({ name: kit.name, version: next });

    const documented = inProjectFile('README.md').match(
      /^npm install --save-dev \.\/slots-platform-remote-kit-<version>\.tgz$/m,
    );
    expect(documented).not.toBeNull();
    const [command, ...args] = documented![0].replace('<version>', next).split(' ');
    expect(args).toContain(`./${tarball}`);
    inProject(command!, [...args, '--no-audit', '--no-fund', '--prefer-offline']);

    expect(installedVersion()).toBe(next);
    const project = JSON.parse(inProjectFile('package.json')) as { devDependencies: Record<string, string> };
    expect(project.devDependencies['@slots-platform/remote-kit']).toBe(`file:${tarball}`);
    // The upgraded kit builds the project.
    inProject('npm', ['run', 'build']);
  });
});
