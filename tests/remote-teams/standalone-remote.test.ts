import { spawn, type ChildProcess, execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SlotsPayload } from '../../shared';
import { startAppServer } from '../../testing/system/app-server';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { getFreePort } from '../../testing/system/free-port';
import type { HttpFixtureServer } from '../../testing/system/http-fixture-server';
import { REPO_ROOT } from '../../testing/system/repo-root';
import { signIn } from '../../testing/system/sign-in';
import { slotAt, waitForSlot } from '../../testing/system/slot-page';
import { startStaticServer } from '../../testing/system/static-server';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';

/**
 * A team outside this repository, as the README tells it: `npm run remote:new` into a folder elsewhere, then in
 * that folder alone `npm install`, `npm test`, `npm run build`; the build served from its own origin; the product
 * told about it only through REMOTES_CONFIG (name, entry, slots). No file of this repository changes, nothing is
 * rebuilt here, no server code is written.
 */
jest.setTimeout(600_000);

const REMOTE = 'team_billing';
let projectDir: TempDir;
let origin: HttpFixtureServer | undefined;
let configFile = '';

function inProject(command: string, args: string[]): string {
  return execFileSync(command, args, { cwd: projectDir.path, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
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
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/remote-new.ts', REMOTE, '--dir', projectDir.path], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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

describe('the dev loop of a remote team', () => {
  let dev: ChildProcess | undefined;
  afterEach(() => {
    if (dev?.pid) process.kill(-dev.pid, 'SIGTERM');
    dev = undefined;
  });

  it('shows a saved edit in the browser without restarting the product (live reload)', async () => {
    const port = await getFreePort();
    dev = spawn('npm', ['run', 'dev', '--', '--port', String(port)], {
      cwd: projectDir.path,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    dev.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    dev.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const until = async (pattern: RegExp, from = 0) => {
      const deadline = Date.now() + 60_000;
      while (!pattern.test(output.slice(from))) {
        if (Date.now() > deadline) throw new Error(`dev server: no ${pattern} in:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    await until(/Built team_billing/);

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
});
