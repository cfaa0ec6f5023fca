import { spawn } from 'node:child_process';
import path from 'node:path';
import { OPERATOR_ROLE, VIEWER_ROLE } from '../../shared';
import { createDemoApp, FAST_HASH } from '../../testing/server/test-app';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { changeAccount, createAccount } from '../auth/account-change';
import { hashPassword } from '../auth/password-hash';
import { removeTenant } from '../cli/tenant-removal';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

jest.setTimeout(90_000);

describe('the demo entry’s start', () => {
  let dir: TempDir;

  beforeEach(() => {
    dir = makeTempDir('slots-with-demo-');
  });

  afterEach(() => {
    dir.remove();
  });

  it('warns in its log of a removed demo tenant it leaves out, nobody being able to administer with it', async () => {
    // Ann administers as the operator of both tenants by her memberships' roles alone, admin is disabled, and globex
    // is removed: made again, it would leave nobody able to administer (seed-demo-data.test.ts).
    const prepared = await createDemoApp({ dir });
    const engine = prepared.app.storage;
    await createAccount(engine, 'ann', await hashPassword('a password for ann', FAST_HASH), {
      role: VIEWER_ROLE,
      memberships: [
        { tenant: 'acme', role: OPERATOR_ROLE },
        { tenant: 'globex', role: OPERATOR_ROLE },
      ],
    });
    await changeAccount(engine, 'admin', { disabled: true });
    await removeTenant(engine, 'globex', { withData: true });
    await prepared.close({ keepData: true });

    // `tsx server/main.ts` as `npm run serve` runs it, on a free port, until it prints its URL.
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'server', 'main.ts')], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        NODE_ENV: 'production',
        REDIS_URL: '',
        SESSION_SECRET: '',
        DEMO_PASSWORD: '',
        DATABASE_PATH: prepared.databasePath,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URL printed:\n${output}`)), 60_000);
        child.stdout.on('data', () => {
          const match = /open (http:\/\/127\.0\.0\.1:\d+)\//.exec(output);
          if (match?.[1]) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        });
        void exited.then(() => reject(new Error(`exited before listening:\n${output}`)));
      });
      // The start went on without globex. Answered, the server has its signal handlers too: they are set just after
      // the URL is printed, and a SIGTERM sent in between ended the process unhandled.
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
      const warnings = output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { level: number; msg: string })
        .filter((entry) => entry.level === 40 && entry.msg.startsWith('The demo tenant'));
      expect(warnings.map((entry) => entry.msg)).toEqual([
        expect.stringMatching(
          /^The demo tenant "globex" is missing and was not made again: "ann" is the last account able to use /,
        ),
      ]);
    } finally {
      child.kill('SIGTERM');
      expect({ ...(await exited), output }).toEqual({ code: 0, signal: null, output });
    }
  });
});
