import fs from 'node:fs';
import path from 'node:path';
import { startAppServer, type AppServer } from '../../../testing/system/app-server';
import type { TempDir } from '../../../testing/temp-dir';

/** Every host must sign cookies alike; a secret of its own would make the hosts strangers. */
export const SHARED_SESSION_SECRET = 'multi-host-test-secret-0123456789abcdef';

export interface HostOptions {
  /** The host's own folder again, e.g. to restart it where it ran before. */
  tempDir?: TempDir;
  env?: Readonly<Record<string, string | undefined>>;
  /** The port to listen on (a free one when omitted): to ask the host before its start has finished. */
  port?: number;
}

/**
 * One "host": the real server in a working folder of its own (no file shared with any other host), with only
 * DATABASE_URL and SESSION_SECRET in common with the others, as `DATABASE_URL=… npm run serve` on another machine.
 */
export function startPostgresHost(databaseUrl: string, options: HostOptions = {}): Promise<AppServer> {
  return startAppServer({
    workInTempDir: true,
    ...(options.port === undefined ? {} : { port: options.port }),
    ...(options.tempDir ? { tempDir: options.tempDir } : {}),
    env: {
      DATABASE_URL: databaseUrl,
      // No SQLite file named for it: everything must go to PostgreSQL.
      DATABASE_PATH: undefined,
      SESSION_SECRET: SHARED_SESSION_SECRET,
      ...options.env,
    },
  });
}

const SQLITE_MAGIC = 'SQLite format 3\0';

/**
 * Files under `folder` (recursively) that are SQLite databases, their journals, or a generated session secret:
 * what a host on PostgreSQL must never write into its working folder.
 */
export function localStateFilesIn(folder: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (/(-wal|-shm|-journal)$/.test(entry.name) || entry.name === 'session-secret' || startsWithSqliteMagic(file)) {
      found.push(path.relative(folder, file));
    }
  }
  return found;
}

function startsWithSqliteMagic(file: string): boolean {
  const handle = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(SQLITE_MAGIC.length);
    const read = fs.readSync(handle, head, 0, head.length, 0);
    return read === head.length && head.toString('latin1') === SQLITE_MAGIC;
  } finally {
    fs.closeSync(handle);
  }
}
