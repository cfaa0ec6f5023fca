import { statSync } from 'node:fs';
import { describeStorage, openMigratedStorage, type StorageSettings } from '../storage/open-storage';
import { newSqliteDatabase, type NewSqliteDatabase } from '../storage/new-sqlite-database';
import { assertSchemaNotBehind } from '../storage/schema-behind-check';
import type { StorageEngine } from '../storage/storage-engine';

/**
 * A command pointed at a SQLite file that does not exist, or is empty (SQLite makes a new database in it as in a
 * missing one): it changes the server's database, never makes one.
 */
export class NoDatabaseError extends Error {
  constructor(file: string, found: NewSqliteDatabase['found'] = 'nothing') {
    super(
      `There is no SQLite database at ${file}${emptyFile(found)}: the server makes it at its first start. Set ` +
        "DATABASE_PATH to the server's file (or DATABASE_URL for PostgreSQL). Nothing was changed.",
    );
    this.name = 'NoDatabaseError';
  }
}

function emptyFile(found: NewSqliteDatabase['found']): string {
  return found === 'nothing' ? '' : ' (an empty file, 0 bytes)';
}

/** A command pointed at a folder: `EISDIR: illegal operation on a directory, read` named neither it nor the way out. */
export class DatabaseIsFolderError extends Error {
  constructor(folder: string) {
    super(
      `${folder} is a folder, not a SQLite database file: set DATABASE_PATH to the server's database file (the ` +
        'folder and the file name, e.g. ./data/app.db). Nothing was changed.',
    );
    this.name = 'DatabaseIsFolderError';
  }
}

/**
 * Opens and migrates the storage the settings point at, as a server start does, runs `use` with it and where it is
 * (for messages: a PostgreSQL URL without its password), and closes it however `use` ends, so a command that
 * fails or returns early never leaves the database open behind it. A SQLite file that is not there is refused: a
 * mistyped or forgotten DATABASE_PATH would otherwise get a new empty database, changed in place of the server's
 * (an account, a tenant or a token no server knows), and the command would say it succeeded. `mayCreate`: the
 * commands that set an installation up before its first start (user:add, tenant:add) make it, and say so.
 *
 * A database at an older schema than this release's is refused (SchemaBehindError), not migrated: the command may
 * be a newer checkout's, run while the old server still serves the file, and only the new server's start upgrades
 * it, after a backup. No caller needs a command to migrate: the image and every launcher start the server itself,
 * which migrates before it listens; a new database (no file there yet, or an empty one) is still made whole.
 */
export async function withStorage<T>(
  settings: StorageSettings,
  use: (engine: StorageEngine, where: string) => Promise<T>,
  { mayCreate = false }: { mayCreate?: boolean } = {},
): Promise<T> {
  const missing = settings.kind === 'sqlite' ? newSqliteDatabase(settings.path) : undefined;
  if (missing !== undefined && !mayCreate) throw new NoDatabaseError(missing.file, missing.found);
  if (settings.kind === 'sqlite' && missing === undefined && statSync(settings.path).isDirectory()) {
    throw new DatabaseIsFolderError(settings.path);
  }
  await assertSchemaNotBehind(settings, describeStorage(settings));
  const engine = await openMigratedStorage(settings);
  if (missing !== undefined) {
    process.stderr.write(
      `Made a new database at ${describeStorage(settings)}${emptyFile(missing.found)}: no server has used it yet. ` +
        "If the server's is elsewhere, set DATABASE_PATH to it.\n",
    );
  }
  try {
    return await use(engine, describeStorage(settings));
  } finally {
    await engine.close();
  }
}
