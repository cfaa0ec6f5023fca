import { statSync } from 'node:fs';

/**
 * A SQLite database a start is about to make: at a path where there is no file, or in a file there that is empty
 * (0 bytes: `touch`ed, or left by a copy or a volume mount that failed), which SQLite takes for a new database as it
 * takes a missing one. Either way the installation starts afresh, which the start says (start-message.ts): a mistyped
 * DATABASE_PATH, or the data's file not copied, looks like this.
 */
export interface NewSqliteDatabase {
  file: string;
  /** What was at the path: nothing, or an empty file. */
  found: 'nothing' | 'an empty file';
}

/**
 * @returns undefined where the file holds anything: this installation's database, or a file that is none (the start
 *   refuses it, writing nothing to it: app-database.ts), or a folder.
 */
export function newSqliteDatabase(file: string): NewSqliteDatabase | undefined {
  const stat = statSync(file, { throwIfNoEntry: false });
  if (stat === undefined) return { file, found: 'nothing' };
  return stat.isFile() && stat.size === 0 ? { file, found: 'an empty file' } : undefined;
}
