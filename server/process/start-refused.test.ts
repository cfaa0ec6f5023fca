import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startRefusalMessage } from './start-refused';

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
});
