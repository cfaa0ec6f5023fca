import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { backupDestinationRefusal } from './backup-destination';
import { sqliteFileName } from './database-name';
import { assertLooksLikeBackup, checkRestorable, RestoreRefused, type RestorableBackup } from './sqlite-restore-check';
import { lockForRestore, type RestoreLock } from './sqlite-restore-lock';
import { onInterruption } from './on-interruption';

export { RestoreRefused } from './sqlite-restore-check';

export interface SqliteRestore extends RestorableBackup {
  /** The database file replaced (DATABASE_PATH, its link followed). */
  database: string;
  /** Where the database as it was before is kept; null where there was none. */
  kept: string | null;
  /** What was wrong when the database replaced was damaged (kept as it was, with its -wal and -shm files). */
  damaged?: string;
}

/**
 * Puts the backup `backup` in place of the SQLite database at `database`, as an operator restores one:
 * - refused, nothing changed, when the backup is not a whole backup of this server's that this release can run on
 *   (sqlite-restore-check.ts), when a server has the database open (sqlite-restore-lock.ts), or where the database's
 *   folder is no safe place for a copy of it (backup-destination.ts's rules: the database before the restore is
 *   kept there, and the backup is copied there);
 * - the backup is copied beside the database under a temporary name (0600 from its first byte, the database
 *   owner's when run as root), checked there, synced, and renamed over the database: the database is at every
 *   moment either the old one or the whole backup. The operator's file is only read.
 * - the database as it was is kept beside it, `<database>.before-restore-<time>`, whole on its own (its write-ahead log
 *   folded in), a hard link made before the rename (a copy where the file system has none), the database held
 *   until the backup is in its place;
 * - a failure or a signal (Ctrl-C, SIGTERM) before the rename removes the temporary copy and the kept link.
 */
export async function restoreSqlite(
  backup: string,
  database: string,
  { besideDatabase = {}, now = new Date() }: { besideDatabase?: Readonly<Record<string, string>>; now?: Date } = {},
): Promise<SqliteRestore> {
  const from = path.resolve(backup);
  const target = databaseFile(path.resolve(database));
  const folder = path.dirname(target);
  if (!fs.existsSync(folder)) {
    throw new RestoreRefused(`The folder ${folder} does not exist: make it, owned by the server's user, first.`);
  }
  if (fs.existsSync(from) && fs.realpathSync(from) === target) {
    throw new RestoreRefused(`${from} is the database itself: name a backup file.`);
  }
  assertLooksLikeBackup(from);
  const exists = fs.existsSync(target);
  const kept = exists ? keptDatabaseName(target, now) : null;
  const refusal = backupDestinationRefusal(target, kept ?? `${target}.before-restore`, besideDatabase);
  if (refusal !== null) throw new RestoreRefused(unsafeFolder(refusal, folder));
  if (!exists) {
    const left = ['-wal', '-shm', '-journal']
      .map((suffix) => `${target}${suffix}`)
      .filter((file) => fs.existsSync(file));
    if (left.length > 0) {
      throw new RestoreRefused(
        `${left.join(' and ')} ${left.length === 1 ? 'is' : 'are'} there without the database ` +
          `${sqliteFileName(target)}: SQLite would take them for the restored file's own and replay them onto it. ` +
          'Move them away first.',
      );
    }
  }

  const lock: RestoreLock | null = exists ? lockForRestore(target) : null;
  if (exists && lock === null) {
    throw new RestoreRefused(
      `A server or command has ${sqliteFileName(target)} open: stop it first (every server on this file), then ` +
        'restore. Replaced under a running server, the database would be mixed with what it writes.',
    );
  }
  const temporary = `${target}.restoring-${randomBytes(6).toString('hex')}`;
  // Closed only once the lock is let go (see keep).
  let copiedFrom: number | null = null;
  let made = false;
  let linked = false;
  let placed = false;
  const removeCopies = (): void => {
    if (placed) return;
    if (made) {
      for (const suffix of ['', '-journal', '-wal', '-shm']) fs.rmSync(`${temporary}${suffix}`, { force: true });
    }
    if (linked && kept !== null) fs.rmSync(kept, { force: true });
  };
  // The lock's connection closed too: killed with it open, it left an empty -wal beside the database.
  const stopWatching = onInterruption(() => {
    lock?.release();
    removeCopies();
  });
  try {
    await copyPrivately(from, temporary, target, () => (made = true));
    const described = checkRestorable(temporary, from);
    syncFile(temporary);
    // A Ctrl-C during SQLite's check (seconds for a large file, while no signal is handled) is heard here, before
    // the point of no return, not after the restore.
    await new Promise((resolve) => setImmediate(resolve));
    if (kept !== null && lock !== null) {
      lock.foldLog();
      copiedFrom = keep(target, kept);
      linked = true;
      // A damaged file's log and index are its own: beside the restored file, the next start would replay them.
      if (lock.damaged !== undefined) for (const suffix of ['-wal', '-shm']) moveIfThere(target, kept, suffix);
    }
    fs.renameSync(temporary, target);
    placed = true;
    syncFile(folder);
    return { ...described, database: target, kept, ...(lock?.damaged === undefined ? {} : { damaged: lock.damaged }) };
  } finally {
    stopWatching();
    lock?.release();
    if (copiedFrom !== null) fs.closeSync(copiedFrom);
    removeCopies();
  }
}

/**
 * backup-destination's refusal said for a restore, which writes in the database's own folder: its advice (write the
 * backup elsewhere, beside the database) is no help here.
 */
function unsafeFolder(refusal: string, folder: string): string {
  const [what] = refusal.split(/ (?:Write it|Name a new file|Name it otherwise)/, 1);
  return (
    `A restore writes the backup's copy and keeps the database as it was in ${folder}, which is not safe for them: ` +
    `${what} Let only the server's user (and root) change that folder and those above it.`
  );
}

/** The database's own file: a link at DATABASE_PATH is followed, so the file it names is replaced, not the link. */
function databaseFile(database: string): string {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(database);
  } catch {
    return database; // None yet (a new machine): the backup becomes the database.
  }
  if (stat.isDirectory()) {
    throw new RestoreRefused(`${database} is a folder: set DATABASE_PATH to the database file.`);
  }
  return fs.realpathSync(database);
}

/**
 * `<database>.before-restore-2026-11-30T15-04-05Z`: sortable, and with no `:` (not allowed on some shares); `-2`,
 * `-3`… after it where that name is taken. `target` is the database's own file (its link followed). db:restore names
 * it in its question with the `now` it then restores with, so the file kept is the one the operator was told of.
 */
export function keptDatabaseName(target: string, now: Date): string {
  const time = now
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replaceAll(':', '-');
  const name = `${target}.before-restore-${time}`;
  if (!fs.existsSync(name)) return name;
  for (let n = 2; ; n++) if (!fs.existsSync(`${name}-${n}`)) return `${name}-${n}`;
}

/**
 * The database as it is, under `kept`: a hard link (it is no copy: after the rename, that name alone holds the old
 * file), or a copy on a file system without links. Never over a file.
 * @returns for a copy, the descriptor it was read through, for the caller to close once the lock is let go: closing
 *   any descriptor of a file drops every lock this process holds on it, SQLite's included (POSIX locks), and a copy
 *   made with copyFileSync let a server starting meanwhile take the file before the rename, turn it to WAL mode and
 *   run on the kept file with its -wal and -shm named after the database.
 */
function keep(target: string, kept: string): number | null {
  try {
    fs.linkSync(target, kept);
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw error;
  }
  const from = fs.openSync(target, 'r');
  let created = false;
  try {
    const to = fs.openSync(kept, 'wx', 0o600);
    created = true;
    try {
      const buffer = Buffer.alloc(1 << 20);
      for (let position = 0; ; ) {
        const read = fs.readSync(from, buffer, 0, buffer.length, position);
        if (read === 0) break;
        fs.writeSync(to, buffer, 0, read);
        position += read;
      }
      fs.fsyncSync(to);
    } finally {
      fs.closeSync(to);
    }
  } catch (error) {
    fs.closeSync(from);
    if (created) fs.rmSync(kept, { force: true });
    throw error;
  }
  return from;
}

function moveIfThere(target: string, kept: string, suffix: string): void {
  if (fs.existsSync(`${target}${suffix}`)) fs.renameSync(`${target}${suffix}`, `${kept}${suffix}`);
}

/**
 * Copies `from` to a new file `to`, readable by this user only from its first byte (it holds password hashes and
 * sessions), given, when run as root, to the owner of `like` (the database, or its folder): a file of root's 0600 is
 * one the server cannot open. In chunks, so a signal is handled while a large file is copied.
 */
async function copyPrivately(from: string, to: string, like: string, created: () => void): Promise<void> {
  const output = await fs.promises.open(to, 'wx', 0o600);
  created();
  try {
    if (process.getuid?.() === 0) {
      const owner = fs.statSync(fs.existsSync(like) ? like : path.dirname(like));
      await output.chown(owner.uid, owner.gid);
    }
    const input = await fs.promises.open(from, 'r');
    try {
      const buffer = Buffer.alloc(1 << 20);
      for (;;) {
        const { bytesRead } = await input.read(buffer, 0, buffer.length, null);
        if (bytesRead === 0) break;
        await output.write(buffer, 0, bytesRead);
      }
    } finally {
      await input.close();
    }
    await output.sync();
  } finally {
    await output.close();
  }
}

/** fsync of a file or folder: the data, and a rename in the folder, survive a power cut. */
function syncFile(file: string): void {
  const handle = fs.openSync(file, 'r');
  try {
    fs.fsyncSync(handle);
  } finally {
    fs.closeSync(handle);
  }
}
