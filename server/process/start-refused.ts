import fs from 'node:fs';
import path from 'node:path';

/** The codes of a file the server may not write: its folder's owner or mode, or a read-only mount. */
const NOT_WRITABLE_CODES = new Set(['EACCES', 'EPERM', 'EROFS']);

/**
 * Ends a start that cannot go on (a setting the server cannot run with, a port taken): the reason on stderr, which
 * names the setting, and exit code 1, with no stack trace: the operator has a setting to fix, not a bug to report.
 */
export function refuseStart(error: unknown): never {
  process.stderr.write(`The server could not start: ${startRefusalMessage(error)}\n`);
  process.exit(1);
}

/**
 * What refuseStart says. Node's own words for a file the server may not write (`EACCES: permission denied, open
 * '/data/session-secret'`) name the file, not the fix: a volume or folder the server's user cannot write, which in a
 * container is a mount owned by root. So such an error names the user too, and a file closed to it in a folder it may
 * write (a session-secret restored by root) names the file's owner and the chown, not the folder.
 */
export function startRefusalMessage(error: unknown): string {
  // Not `instanceof Error`: an error made in another realm (a vm context, Jest's) is one too.
  const message = typeof (error as Error | null)?.message === 'string' ? (error as Error).message : String(error);
  const { code, path: file } = (error ?? {}) as NodeJS.ErrnoException;
  if (code === undefined || !NOT_WRITABLE_CODES.has(code) || typeof file !== 'string') return message;
  const folder = path.dirname(file);
  if (code === 'EROFS') {
    return `${message}. ${folder} is on a read-only file system: give the server a writable folder there (a volume).`;
  }
  const user = typeof process.getuid === 'function' ? ` (uid ${process.getuid()}, gid ${process.getgid?.()})` : '';
  const owner = closedFileOwner(file);
  if (owner !== undefined) {
    // The folder is the server's, the file not: restored or copied in by another user (root), who kept it.
    const chown = typeof process.getuid === 'function' ? `chown ${process.getuid()} ${file}` : 'chown';
    return (
      `${message}. ${file} belongs to uid ${owner.uid} with mode ${owner.mode}, which the server's user${user} may ` +
      `not read and write: a file restored or copied by another user keeps its owner. Give it to the server's user ` +
      `(${chown}), or run the server as the user it belongs to.`
    );
  }
  return (
    `${message}. The server's user${user} must be able to write ${folder}: ` +
    `change its owner (chown) or mode, or point DATABASE_PATH at a folder it may write.`
  );
}

/**
 * The owner and mode of `file` when the file, not its folder, is what this user may not use: it exists, the folder
 * lets this user make and remove files, and the file does not let it read and write. Otherwise undefined.
 */
function closedFileOwner(file: string): { uid: number; mode: string } | undefined {
  try {
    fs.accessSync(path.dirname(file), fs.constants.W_OK | fs.constants.X_OK);
    const { uid, mode } = fs.statSync(file);
    try {
      fs.accessSync(file, fs.constants.R_OK | fs.constants.W_OK);
      return undefined;
    } catch {
      return { uid, mode: (mode & 0o777).toString(8).padStart(4, '0') };
    }
  } catch {
    return undefined;
  }
}
