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
 * container is a mount owned by root. So such an error names the user too.
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
  return (
    `${message}. The server's user${user} must be able to write ${folder}: ` +
    `change its owner (chown) or mode, or point DATABASE_PATH at a folder it may write.`
  );
}
