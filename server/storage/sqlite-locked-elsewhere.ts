import fs from 'node:fs';

/**
 * Whether another process holds a lock on a SQLite database that SQLite itself cannot be asked about (a damaged file,
 * whose first read fails before SQLite tries the lock a restore needs), as Linux lists every process's locks in
 * /proc/locks: a connection in WAL mode (every server's and command's) holds, as long as it is open, idle or not, a
 * read lock on the database file and one on its `-shm` file. A `-wal` or `-shm` file merely there says nothing (a
 * server killed with `kill -9` leaves both, and holds no lock).
 * The list holds only the locks of processes in this one's PID namespace: run in a container of its own (a throwaway
 * one beside the server's), it does not see the server's.
 * @returns null where the system does not list its locks (no /proc/locks: not Linux), so nothing can be told.
 */
export function sqliteLockedElsewhere(database: string): boolean | null {
  let locks: string;
  try {
    locks = fs.readFileSync('/proc/locks', 'utf8');
  } catch {
    return null;
  }
  const files = [database, `${database}-shm`]
    .map((file) => fs.statSync(file, { bigint: true, throwIfNoEntry: false }))
    .filter((stat) => stat !== undefined)
    .map((stat) => `${deviceNumbers(stat.dev)}:${stat.ino}`);
  return locks.split('\n').some((line) => {
    // `1: POSIX  ADVISORY  READ 5658 fe:00:4685823 1073741826 1073742335`; a waiter's has `->` after the number.
    const lock = /^\d+:\s+\S+\s+\S+\s+\S+\s+(-?\d+)\s+([0-9a-f]+):([0-9a-f]+):(\d+)\s/.exec(line);
    if (lock === null) return false;
    const [, pid, major, minor, inode] = lock as unknown as [string, string, string, string, string];
    if (Number(pid) === process.pid) return false;
    return files.includes(`${BigInt(`0x${major}`)}:${BigInt(`0x${minor}`)}:${inode}`);
  });
}

/** Linux's st_dev as major:minor (glibc's gnu_dev_major and gnu_dev_minor), as /proc/locks gives them (in hex). */
function deviceNumbers(dev: bigint): string {
  const major = ((dev >> 8n) & 0xfffn) | ((dev >> 32n) & ~0xfffn);
  const minor = (dev & 0xffn) | ((dev >> 12n) & ~0xffn);
  return `${major}:${minor}`;
}
