/**
 * A database file the server's user may not open, as a backup restored by root leaves it (its owner, mode 0600), or
 * in a folder that user may not write: the start and the commands say whose the file is and what to do, where
 * SQLite said `unable to open database file` or `attempt to write a readonly database`, naming nothing.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { withoutFilePrivileges } from '../../testing/server/without-file-privileges';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { migrate } from './migrate';
import { MIGRATIONS } from './migrations';

jest.setTimeout(60_000);

const REPO_ROOT = path.resolve(__dirname, '..', '..');
/** `npm run user:list` on `file`, files closed to it as their modes say (root's privileges dropped). */
function userList(file: string, tmp: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const [command, args] = withoutFilePrivileges(process.execPath, [
      '--import',
      'tsx',
      path.join(REPO_ROOT, 'server', 'cli', 'user-list.ts'),
    ]);
    const child = spawn(command, args, {
      cwd: REPO_ROOT,
      env: { ...process.env, DATABASE_URL: '', DATABASE_PATH: file, TMPDIR: tmp, HOME: tmp },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stderr: stderr.trim() }));
  });
}

describe('a database file the user may not open', () => {
  let dir: TempDir;
  let tmp: string;
  let file: string;
  let uid: number;
  beforeEach(() => {
    dir = makeTempDir('slots-db-access-');
    fs.chmodSync(dir.path, 0o755);
    tmp = path.join(dir.path, 'tmp');
    fs.mkdirSync(tmp, { mode: 0o777 });
    fs.chmodSync(tmp, 0o777);
    fs.mkdirSync(path.join(dir.path, 'data'), { mode: 0o755 });
    file = path.join(dir.path, 'data', 'app.db');
    const db = new Database(file);
    migrate(db, MIGRATIONS);
    db.close();
    uid = process.getuid!();
  });
  afterEach(() => {
    fs.chmodSync(path.join(dir.path, 'data'), 0o755);
    dir.remove();
  });

  it("names the file's owner and mode, and the chown that gives it to the server's user", async () => {
    fs.chmodSync(file, 0o000);
    const owner = fs.statSync(file).uid;
    const mode = '0000';
    const bytes = fs.readFileSync(file);
    const run = await userList(file, tmp);
    expect(run).toEqual({
      code: 1,
      stderr:
        `user:list failed: SQLite ${file} cannot be read and written by this user (uid ${uid}): it belongs to ` +
        `uid ${owner} with mode ${mode}. A restored or copied file keeps the owner of whoever copied it: give it to ` +
        `the server's user (chown ${uid} ${file}), or run as the user it belongs to. Nothing was written to it.`,
    });
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);
  });

  it('names the folder it may not write, where SQLite makes the -wal and -shm files', async () => {
    fs.chmodSync(path.join(dir.path, 'data'), 0o555);
    const run = await userList(file, tmp);
    expect(run).toEqual({
      code: 1,
      stderr:
        `user:list failed: The folder ${path.join(dir.path, 'data')} is not writable by this user (uid ${uid}): ` +
        "SQLite makes the database's -wal and -shm files there. Give the folder to the server's user (chown), or " +
        'run as its owner. Nothing was written to the database.',
    });
    expect(fs.readdirSync(path.join(dir.path, 'data'))).toEqual(['app.db']);
  });
});
