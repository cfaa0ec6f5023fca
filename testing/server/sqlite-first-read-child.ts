/**
 * The process of sqlite-first-read.ts: another process on the machine, as a server starting during a restore is.
 * Argument: the database file. It says `ready`, waits for a restore's copy beside the database (`<file>.restoring-…`:
 * the restore holds the database by then), then reads the database's tenants again and again without waiting for a
 * lock, and prints, as one JSON line, what its first read that was not refused saw.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import type { FirstRead } from './sqlite-first-read';

const database = process.argv[2] as string;
const deadline = Date.now() + 60_000;

function report(read: FirstRead): never {
  process.stdout.write(`${JSON.stringify(read)}\n`);
  process.exit(0);
}

process.stdout.write('ready\n');
const copy = `${path.basename(database)}.restoring-`;
while (!fs.readdirSync(path.dirname(database)).some((name) => name.startsWith(copy))) {
  if (Date.now() > deadline) report({ refused: 0, outcome: 'no restore seen' });
}
let refused = 0;
for (;;) {
  if (Date.now() > deadline) report({ refused, outcome: 'still refused' });
  const before = fs.statSync(database, { throwIfNoEntry: false });
  if (before === undefined) report({ refused, outcome: 'missing' });
  let db: Database.Database | undefined;
  try {
    db = new Database(database, { fileMustExist: true });
    db.pragma('busy_timeout = 0');
    const tenants = db.prepare<[], string>('SELECT id FROM tenants ORDER BY id').pluck().all();
    const after = fs.statSync(database, { throwIfNoEntry: false });
    if (after === undefined) report({ refused, outcome: 'missing' });
    // Opened just before the rename, read just after the release: the file that is no longer at the path, which a
    // server's start refuses (db-restore-meanwhile.test.ts). Read again, at the path.
    if (after.ino === before.ino) report({ refused, outcome: 'read', tenants });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'SQLITE_CANTOPEN') report({ refused, outcome: 'missing' });
    if (code !== 'SQLITE_BUSY') throw error;
    refused++;
  } finally {
    db?.close();
  }
}
