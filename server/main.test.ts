import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { MetaPayload, SlotsPayload } from '../shared';
import { SESSION_SECRET_FILE } from './config/session-secret';
import { makeTempDir, type TempDir } from '../testing/temp-dir';

const REPO_ROOT = path.resolve(__dirname, '..');

interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `tsx server/main.ts` as `npm run serve` runs it, on a free port (PORT=0), until it prints its URL. */
async function startMain(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'server', 'main.ts')], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      REDIS_URL: '',
      SESSION_SECRET: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL printed:\n${output}`)), 30_000);
    const check = () => {
      const match = /open (http:\/\/127\.0\.0\.1:\d+)\//.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', check);
    void exited.then(() => reject(new Error(`exited before listening:\n${output}`)));
  });
  return { child, url, output: () => output, exited };
}

jest.setTimeout(90_000);

describe('server/main.ts', () => {
  let dir: TempDir;

  beforeEach(() => {
    dir = makeTempDir();
  });

  afterEach(() => {
    dir.remove();
  });

  it('starts, prints how to sign in, serves for real, and stops cleanly on SIGTERM', async () => {
    const databasePath = path.join(dir.path, 'data', 'app.db');
    const first = await startMain({ DATABASE_PATH: databasePath, DEMO_PASSWORD: '' });
    try {
      const printed = /Sign in as "admin" with the password: (\S+)/.exec(first.output());
      expect(printed).not.toBeNull();
      const password = printed?.[1] as string;
      expect(first.output()).toContain(`To change it later: DATABASE_PATH=${databasePath} npm run user:add -- admin`);
      expect(first.output()).toContain(`Made a new database at SQLite ${databasePath}, none being there.`);
      expect(fs.existsSync(path.join(dir.path, 'data', SESSION_SECRET_FILE))).toBe(true);

      const slots = await fetch(`${first.url}/slots`);
      expect(slots.status).toBe(200);
      expect(Object.keys(((await slots.json()) as SlotsPayload).slots)).toContain('login-before-form');

      const login = await fetch(`${first.url}/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password }),
      });
      expect(login.status).toBe(200);
      const cookie = (login.headers.getSetCookie()[0] ?? '').split(';')[0] as string;
      const meta = await fetch(`${first.url}/meta`, { headers: { cookie } });
      expect(meta.status).toBe(200);
      expect(((await meta.json()) as MetaPayload).dashboards[0]?.name).toBe('overview');

      first.child.kill('SIGTERM');
      expect(await first.exited).toEqual({ code: 0, signal: null });
      expect(first.output()).toContain('"msg":"stopped"');

      // Second start on the same file: same secret, so the session is still valid; the password is not printed again.
      // Run as in a container this time: the command is written from outside it, which has DATABASE_PATH already.
      const second = await startMain({
        DATABASE_PATH: databasePath,
        DEMO_PASSWORD: '',
        COMMAND_PREFIX: 'docker exec -it slots',
      });
      try {
        expect(second.output()).toContain(
          'with the password it got when this database was made (DEMO_PASSWORD then, else the one printed by that first start)',
        );
        expect(second.output()).toContain('Reset it with: docker exec -it slots npm run user:add -- admin\n');
        expect(second.output()).not.toContain(password);
        expect(second.output()).not.toContain('Made a new database');
        expect((await fetch(`${second.url}/meta`, { headers: { cookie } })).status).toBe(200);
      } finally {
        second.child.kill('SIGINT');
        expect((await second.exited).code).toBe(0);
      }
    } finally {
      if (first.child.exitCode === null) first.child.kill('SIGKILL');
    }
  });

  it('refuses to start with a bad setting, naming it', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'server', 'main.ts')], {
      cwd: REPO_ROOT,
      env: { ...process.env, PORT: 'eighty', DATABASE_PATH: path.join(dir.path, 'app.db') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('The server could not start: PORT="eighty" is not a port number');
  });
});
