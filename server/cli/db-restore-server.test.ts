/**
 * db:restore with a real server: refused while the server runs on the database (whatever it is doing, and whether
 * the file is whole or damaged under it), and once it is stopped, the restored file is the one the next start
 * serves: back up, change the data, restore, start, see the backed-up data.
 */
import fs from 'node:fs';
import path from 'node:path';
import { compileServerCommands, type CompiledServerCommands } from '../../testing/server/compiled-server-commands';
import { printedUrl, runServerEntry, type EntryRun } from '../../testing/server/server-entry-run';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';

jest.setTimeout(180_000);

const PASSWORD = 'restore-test-password-1234';

let dir: TempDir;
let env: Record<string, string>;
// The commands compiled once, run as their npm scripts run them (node on dist/, not tsx); the server runs with tsx
// as `npm run serve` runs it.
let commands: CompiledServerCommands;

beforeAll(async () => {
  commands = await compileServerCommands();
});
afterAll(() => commands?.remove());
beforeEach(() => {
  dir = makeTempDir('slots-restore-server-');
  env = {
    DATABASE_URL: '',
    DATABASE_PATH: path.join(dir.path, 'app.db'),
    SESSION_SECRET: 'a-session-secret-of-the-restore-test-0123456789',
    DEMO_PASSWORD: PASSWORD,
  };
});
afterEach(() => dir.remove());

function startServer(): EntryRun {
  return runServerEntry('server/main.ts', env);
}

async function stop(server: EntryRun): Promise<void> {
  server.kill('SIGTERM');
  expect({ code: await server.exited, output: server.output() }).toEqual({ code: 0, output: server.output() });
}

/** POST /login's status for the account. */
async function signIn(url: string, username: string): Promise<number> {
  const response = await fetch(`${url}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: PASSWORD }),
  });
  return response.status;
}

async function addAccount(username: string): Promise<void> {
  const run = await commands.run('user-add.ts', [username, '--tenant', 'acme'], env, `${PASSWORD}\n`);
  expect([run.code, run.stderr]).toEqual([0, '']);
}

describe('db:restore and the server', () => {
  it('is refused while the server runs; once stopped, the next start serves the backed-up data', async () => {
    const first = startServer();
    let url: string;
    try {
      url = await printedUrl(first);
      await addAccount('ada');
      const backup = path.join(dir.path, 'backup.db');
      const backedUp = await commands.run('db-backup.ts', [backup], env);
      expect([backedUp.code, backedUp.stderr]).toEqual([0, '']);
      expect(backedUp.stdout).toContain(
        `To restore: stop the server, then npm run db:restore -- ${backup} with the same DATABASE_PATH (`,
      );
      await addAccount('eve');
      expect([await signIn(url, 'ada'), await signIn(url, 'eve')]).toEqual([200, 200]);

      const refused = await commands.run('db-restore.ts', [backup], env);
      expect([refused.code, refused.stdout]).toEqual([1, '']);
      expect(refused.stderr).toBe(
        `A server or command has SQLite ${env.DATABASE_PATH} open: stop it first (every server on this file), then ` +
          'restore. Replaced under a running server, the database would be mixed with what it writes. Nothing was ' +
          'changed.\n',
      );
      expect(fs.readdirSync(dir.path).filter((name) => name.includes('restor'))).toEqual([]);
      // The server goes on, on its own file.
      expect(await signIn(url, 'eve')).toBe(200);
    } finally {
      await stop(first);
    }

    const restored = await commands.run('db-restore.ts', [path.join(dir.path, 'backup.db')], env);
    expect([restored.code, restored.stderr]).toEqual([0, '']);
    expect(restored.stdout).toContain(`Restored ${path.join(dir.path, 'backup.db')} to SQLite ${env.DATABASE_PATH} (`);

    const second = startServer();
    try {
      url = await printedUrl(second);
      // ada was in the backup; eve was added after it.
      expect([await signIn(url, 'ada'), await signIn(url, 'eve')]).toEqual([200, 401]);
    } finally {
      await stop(second);
    }
  });

  it('is refused while a server runs on a damaged database, which SQLite cannot lock (Linux: its locks are listed)', async () => {
    const server = startServer();
    try {
      await printedUrl(server);
      const backup = path.join(dir.path, 'backup.db');
      const backedUp = await commands.run('db-backup.ts', [backup], env);
      expect([backedUp.code, backedUp.stderr]).toEqual([0, '']);
      // Damaged under the running server: its header overwritten in place (the server's connection stays open).
      const header = Buffer.alloc(16);
      const handle = fs.openSync(path.join(dir.path, 'app.db'), 'r+');
      try {
        fs.readSync(handle, header, 0, 16, 0);
        fs.writeSync(handle, Buffer.from('not a database!!'), 0, 16, 0);
        const files = fs.readdirSync(dir.path).sort();
        expect(files).toEqual(['app.db', 'app.db-shm', 'app.db-wal', 'backup.db']);

        const refused = await commands.run('db-restore.ts', [backup, '--yes'], env);
        expect([refused.code, refused.stdout]).toEqual([1, '']);
        expect(refused.stderr).toBe(
          `A server or command has SQLite ${env.DATABASE_PATH} open: stop it first (every server on this file), ` +
            'then restore. Replaced under a running server, the database would be mixed with what it writes. ' +
            'Nothing was changed.\n',
        );
        // Its -wal and -shm, in use, stay where the server has them.
        expect(fs.readdirSync(dir.path).sort()).toEqual(files);
      } finally {
        fs.writeSync(handle, header, 0, 16, 0);
        fs.closeSync(handle);
      }
    } finally {
      await stop(server);
    }
  });
});
