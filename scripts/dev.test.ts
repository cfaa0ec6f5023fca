import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RemotesPayload } from '../shared';
import { getFreePort } from '../testing/system/free-port';
import { REPO_ROOT } from '../testing/system/repo-root';
import { makeTempDir, type TempDir } from '../testing/temp-dir';

/**
 * `npm run dev` as a host developer lives in it, in a copy of the repository (the test edits a built-in remote):
 * a component added to `remotes/marketing/remote.ts` is built, and the server restarts by itself to list it (it
 * reads what the remotes declare at start, from `.dev/dist/`, a folder `tsx watch` does not see).
 */
jest.setTimeout(480_000);

const REMOTE_DIR = 'remotes/marketing';
const COMPONENT = 'DevLoopBanner';

let work: TempDir;
let checkout = '';
let port = 0;
let dev: ChildProcess | undefined;
let output = '';

/** Waits until what `npm run dev` wrote since `from` (an offset into it) matches. */
async function until(pattern: RegExp, from = 0): Promise<void> {
  const deadline = Date.now() + 150_000;
  while (!pattern.test(output.slice(from))) {
    if (dev?.exitCode !== null) throw new Error(`npm run dev exited (${dev?.exitCode}):\n${output}`);
    if (Date.now() > deadline) throw new Error(`npm run dev: no ${pattern} in:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function marketingComponents(): Promise<string[]> {
  const response = await fetch(`http://127.0.0.1:${port}/api/remotes`);
  expect(response.status).toBe(200);
  const { remotes } = (await response.json()) as RemotesPayload;
  return remotes.find((remote) => remote.name === 'team_marketing')?.components ?? [];
}

/** The repository's tracked files, as a clone has them, with this checkout's installed packages. */
function copyCheckout(into: string): void {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: REPO_ROOT, encoding: 'utf8' }).split('\0');
  for (const file of files.filter(Boolean)) {
    mkdirSync(path.dirname(path.join(into, file)), { recursive: true });
    copyFileSync(path.join(REPO_ROOT, file), path.join(into, file));
  }
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(into, 'node_modules'));
}

beforeAll(async () => {
  work = makeTempDir('slots-dev-loop-');
  checkout = path.join(work.path, 'checkout');
  copyCheckout(checkout);
  port = await getFreePort();
  dev = spawn(process.execPath, [require.resolve('tsx/cli'), 'scripts/dev.ts'], {
    cwd: checkout,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: the server watcher and the server it starts end with it.
    detached: true,
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_PATH: path.join(work.path, 'app.db'),
      DEMO_PASSWORD: 'dev-loop-password-1',
      NODE_ENV: 'development',
    },
  });
  dev.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  dev.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await until(/is ready: open http/);
});

afterAll(() => {
  if (dev?.pid && dev.exitCode === null) process.kill(-dev.pid, 'SIGTERM');
  work?.remove();
});

it('builds a component added to a built-in remote and restarts the server to list it', async () => {
  expect(await marketingComponents()).not.toContain(COMPONENT);

  const from = output.length;
  writeFileSync(
    path.join(checkout, REMOTE_DIR, 'components', `${COMPONENT}.tsx`),
    `export function ${COMPONENT}({ text }: { text: string }) {\n  return <p>{text}</p>;\n}\n`,
  );
  const declaration = path.join(checkout, REMOTE_DIR, 'remote.ts');
  const declared = readFileSync(declaration, 'utf8');
  const edited = declared.replace(
    'WelcomeCard: propsSchema({ title: Type.String() }),',
    `$&\n    ${COMPONENT}: propsSchema({ text: Type.String() }),`,
  );
  expect(edited).not.toBe(declared);
  writeFileSync(declaration, edited);

  await until(new RegExp(`remote\\.ts changed: building again with .*${COMPONENT}`), from);
  await until(/team_marketing declares other components or props: restarting the server/, from);
  await until(/is ready: open http/, from);
  expect(await marketingComponents()).toContain(COMPONENT);
  // The new component's module is served where the remote's manifest says.
  const manifest = await fetch(`http://127.0.0.1:${port}/remotes/team_marketing/mf-manifest.json`);
  expect(manifest.status).toBe(200);
  expect(JSON.stringify(await manifest.json())).toContain(`./${COMPONENT}`);
});
