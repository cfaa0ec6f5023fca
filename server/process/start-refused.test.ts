import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { withoutFilePrivileges } from '../../testing/server/without-file-privileges';
import { makeTempDir } from '../../testing/temp-dir';
import { startRefusalMessage } from './start-refused';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** An error as fs throws it for `file`, with `code` (root, who runs the tests, is never refused a write). */
function fileError(code: string, file: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: refused, open '${file}'`), { code, path: file, syscall: 'open' });
}

describe('what a refused start says', () => {
  it('names the user and the folder to fix when a file may not be written', () => {
    const message = startRefusalMessage(fileError('EACCES', '/data/session-secret'));
    expect(message).toContain("EACCES: refused, open '/data/session-secret'");
    expect(message).toContain(
      `The server's user (uid ${process.getuid!()}, gid ${process.getgid!()}) must be able to write /data`,
    );
    expect(message).toMatch(/chown.*DATABASE_PATH/);
  });

  it('says a read-only file system is one, and asks for a writable folder', () => {
    expect(startRefusalMessage(fileError('EROFS', '/data/app.db'))).toMatch(
      /\/data is on a read-only file system: give the server a writable folder there/,
    );
  });

  it("keeps any other error's own words, a real file system's included", () => {
    const missing = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'start-refused-')), 'none', 'file');
    let thrown: unknown;
    try {
      fs.readFileSync(missing);
    } catch (error) {
      thrown = error;
    }
    expect(startRefusalMessage(thrown)).toBe((thrown as Error).message);
    expect(startRefusalMessage(new Error('PORT=80 is taken'))).toBe('PORT=80 is taken');
    expect(startRefusalMessage('plain')).toBe('plain');
  });

  it('names the file, its owner and the chown when the file is closed to the server, not its folder', async () => {
    // A session-secret restored by another user (root) beside a database the server may use.
    const dir = makeTempDir('slots-start-refused-');
    try {
      const data = path.join(dir.path, 'data');
      fs.mkdirSync(data, { mode: 0o700 });
      const secret = path.join(data, 'session-secret');
      fs.writeFileSync(secret, 'restored-secret-0123456789abcdef\n', { mode: 0o000 });
      fs.chmodSync(secret, 0o000);
      const [command, args] = withoutFilePrivileges(process.execPath, [
        '--import',
        'tsx',
        path.join(REPO_ROOT, 'server', 'main.ts'),
      ]);
      const child = spawn(command, args, {
        cwd: REPO_ROOT,
        env: {
          ...process.env,
          DATABASE_URL: '',
          DATABASE_PATH: path.join(data, 'app.db'),
          PORT: '0',
          HOST: '127.0.0.1',
          REDIS_URL: '',
          NODE_ENV: 'production',
        },
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
      const uid = process.getuid!();
      expect({ code, stderr: stderr.trim() }).toEqual({
        code: 1,
        stderr:
          `The server could not start: EACCES: permission denied, open '${secret}'. ${secret} belongs to uid ` +
          `${fs.statSync(secret).uid} with mode 0000, which the server's user (uid ${uid}, gid ${process.getgid!()}) ` +
          `may not read and write: a file restored or copied by another user keeps its owner. Give it to the ` +
          `server's user (chown ${uid} ${secret}), or run the server as the user it belongs to.`,
      });
    } finally {
      dir.remove();
    }
  }, 60_000);
});
