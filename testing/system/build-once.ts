import fs from 'node:fs';
import path from 'node:path';

export interface BuildOnceOptions {
  /** The folder the builds are kept in, one subfolder per key. */
  cacheRoot: string;
  /** What the build is made from (a hash of its sources): a build of another key is never reused. */
  key: string;
  /** Writes the build into the folder given (empty, its own): called by one caller only, whatever the processes. */
  build(dir: string): Promise<void>;
  /** How long a caller waits for another's build before failing; five minutes by default. */
  waitMs?: number;
  /** Other keys' builds unused this long are removed after a build (sources since changed); an hour by default. */
  keepUnusedMs?: number;
}

/**
 * A build made once and kept, for every test file that asks, in any worker or run: the first caller builds under a
 * lock folder (mkdir makes it or fails, across processes) into a folder of its own, renamed into place when whole;
 * the others wait for it, whatever order they come in, and build it themselves if its builder died. Returns the
 * build's folder, shared: never remove it.
 */
export async function buildOnce(options: BuildOnceOptions): Promise<string> {
  const { cacheRoot, key, build } = options;
  const waitMs = options.waitMs ?? 5 * 60_000;
  const dir = path.join(cacheRoot, key);
  const lock = `${dir}.lock`;
  fs.mkdirSync(cacheRoot, { recursive: true });
  const startedWaiting = Date.now();
  for (;;) {
    if (fs.existsSync(dir)) {
      // Marked as used: a later build under another key prunes only the builds nobody uses.
      const now = new Date();
      fs.utimesSync(dir, now, now);
      return dir;
    }
    if (takeLock(lock)) {
      try {
        if (!fs.existsSync(dir)) await buildInto(dir, build);
      } finally {
        fs.rmSync(lock, { recursive: true, force: true });
      }
      pruneUnused(cacheRoot, dir, options.keepUnusedMs ?? 60 * 60_000);
      continue;
    }
    if (Date.now() - startedWaiting > waitMs) {
      throw new Error(`The build under ${lock} was not done after ${Math.round(waitMs / 1000)} s of waiting for it.`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Builds into a folder of its own, then renames it into place: a waiting caller never sees half a build. */
async function buildInto(dir: string, build: (dir: string) => Promise<void>): Promise<void> {
  const partial = `${dir}.partial-${process.pid}`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.mkdirSync(partial);
  try {
    await build(partial);
    fs.renameSync(partial, dir);
  } catch (error) {
    fs.rmSync(partial, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Takes the lock folder: true when this caller now builds. A lock left by a process that is gone (killed mid-build)
 * is removed, and the next try takes it.
 */
function takeLock(lock: string): boolean {
  try {
    fs.mkdirSync(lock);
    fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const holder = Number(readOrEmpty(path.join(lock, 'pid')));
  // No pid yet: its holder is between its mkdir and its write, unless the lock is a minute old.
  const made = fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
  const stale = holder > 0 ? !isAlive(holder) : Date.now() - made > 60_000;
  if (stale) fs.rmSync(lock, { recursive: true, force: true });
  return false;
}

function readOrEmpty(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes the other keys' builds unused for `keepUnusedMs`, and any left half made by a builder that died. */
function pruneUnused(cacheRoot: string, keep: string, keepUnusedMs: number): void {
  for (const entry of fs.readdirSync(cacheRoot)) {
    const entryPath = path.join(cacheRoot, entry);
    if (entryPath === keep || entry.endsWith('.lock')) continue;
    const stat = fs.lstatSync(entryPath, { throwIfNoEntry: false });
    if (stat && Date.now() - stat.mtimeMs > keepUnusedMs) fs.rmSync(entryPath, { recursive: true, force: true });
  }
}
