import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SERVER_NODE_FLAGS } from '../../server/process/server-node-flags';
import { DEMO_PASSWORD } from '../../testing/system/app-server';
import { startServerProcess, type ServerProcess } from '../../testing/system/server-process';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';

/**
 * `npm run serve` as a supervisor runs it: the pid it sees is npm's. The server is npm's only child (no shell, no
 * tsx wrapper), so SIGHUP and SIGTERM sent to the pid npm started reach the server itself. npm forwards SIGTERM but
 * not SIGHUP: a SIGHUP to npm's own pid ends npm, and the server must not run on without it.
 */
jest.setTimeout(120_000);

let tempDir: TempDir;
let running: ServerProcess | undefined;

beforeEach(() => {
  tempDir = makeTempDir('slots-serve-signals-');
});

afterEach(async () => {
  await running?.stop();
  running = undefined;
  tempDir.remove();
});

async function startServe(): Promise<ServerProcess> {
  const config = path.join(tempDir.path, 'remotes.json');
  await writeFile(config, JSON.stringify({ remotes: [] }));
  running = await startServerProcess({
    name: 'npm run serve',
    command: 'npm',
    args: ['run', 'serve'],
    // The server's own children are what this test watches after npm is gone.
    killGroupOnExit: false,
    readyTimeoutMs: 60_000,
    env: {
      NODE_ENV: 'production',
      DATABASE_PATH: path.join(tempDir.path, 'app.db'),
      DEMO_PASSWORD,
      REMOTES_CONFIG: config,
      SHUTDOWN_DELAY_MS: '0',
      REDIS_URL: undefined,
      SESSION_SECRET: undefined,
    },
  });
  return running;
}

function childrenOf(pid: number): number[] {
  const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return text === '' ? [] : text.split(' ').map(Number);
}

function commandLine(pid: number): string {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
}

/** Alive and not a zombie waiting to be reaped. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function eventually(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return check();
}

/** The one process npm started: the server itself, the compiled entry run by node (`npm run serve`). */
function serverUnder(npm: ServerProcess): number {
  const children = childrenOf(npm.pid);
  expect(children).toHaveLength(1);
  const server = children[0]!;
  expect(commandLine(server)).toMatch(
    new RegExp(
      `^\\S*node ${SERVER_NODE_FLAGS.join(' ')} --require \\S*exit-with-parent\\.js \\S*dist/server/main\\.js$`,
    ),
  );
  return server;
}

const output = (run: ServerProcess) => run.stdout() + run.stderr();

it('SIGHUP to the pid npm started reloads REMOTES_CONFIG; SIGTERM to it shuts the server down gracefully', async () => {
  const npm = await startServe();
  const server = serverUnder(npm);

  process.kill(server, 'SIGHUP');
  await npm.waitForOutput(/Remotes configuration reloaded/, 10_000);
  expect((await fetch(`${npm.url}/readyz`)).status).toBe(200);

  process.kill(server, 'SIGTERM');
  expect(await npm.exited).toEqual({ code: 0, signal: null });
  expect(output(npm)).toMatch(/shutting down: no longer ready[\s\S]*stopped/);
  expect(isRunning(server)).toBe(false);
});

it("SIGTERM to npm's own pid reaches the server: a graceful shutdown", async () => {
  const npm = await startServe();
  const server = serverUnder(npm);

  process.kill(npm.pid, 'SIGTERM');
  await npm.exited;
  expect(output(npm)).toMatch(/shutting down: no longer ready[\s\S]*stopped/);
  expect(await eventually(() => !isRunning(server), 5_000)).toBe(true);
});

it("SIGHUP to npm's own pid ends npm, and the server does not outlive it", async () => {
  const npm = await startServe();
  const server = serverUnder(npm);

  process.kill(npm.pid, 'SIGHUP');
  expect((await npm.exited).signal).toBe('SIGHUP');
  // Orphaned, it notices its parent is gone and shuts down as on SIGTERM.
  expect(await eventually(() => !isRunning(server), 10_000)).toBe(true);
  expect(npm.stderr()).toMatch(/the process that started the server \(pid \d+\) is gone; shutting down/);
  expect(npm.stdout()).toMatch(/"reason":"SIGTERM"[^\n]*shutting down: no longer ready[\s\S]*stopped/);
});
