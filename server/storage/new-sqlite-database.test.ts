/**
 * What a start says of the file at DATABASE_PATH that is not this installation's database: an empty one (0 bytes),
 * which SQLite makes a new database in as in a missing one, is said to be a new database; a file that is no SQLite
 * database is refused, and its folder left as it was (no session-secret made beside it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { printedUrl, runServerEntry } from '../../testing/server/server-entry-run';
import { tenantsIn } from '../../testing/server/servers-sqlite-database';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { newSqliteDatabase } from './new-sqlite-database';

jest.setTimeout(90_000);

let dir: TempDir;
let database: string;
beforeEach(() => {
  dir = makeTempDir('slots-new-database-');
  database = path.join(dir.path, 'app.db');
});
afterEach(() => dir.remove());

function start(): ReturnType<typeof runServerEntry> {
  return runServerEntry('server/main.ts', { DATABASE_URL: '', DATABASE_PATH: database, SESSION_SECRET: '' });
}

it('is no file or an empty one; a file with anything in it, or a folder, is none', () => {
  expect(newSqliteDatabase(database)).toEqual({ file: database, found: 'nothing' });
  fs.writeFileSync(database, '');
  expect(newSqliteDatabase(database)).toEqual({ file: database, found: 'an empty file' });
  fs.writeFileSync(database, 'x');
  expect(newSqliteDatabase(database)).toBeUndefined();
  expect(newSqliteDatabase(dir.path)).toBeUndefined();
});

it('a start in an empty file says it made a new database there, and serves it', async () => {
  fs.writeFileSync(database, '');
  const server = start();
  try {
    await printedUrl(server);
    expect(server.output()).toContain(
      `Made a new database at SQLite ${database}, in the empty file (0 bytes) there. If this installation's data is ` +
        'in another file, stop the server and set DATABASE_PATH to that file.\n',
    );
    expect(server.logLines().map((line) => line.msg)).toContain('database schema created');
    // The demo's tenants, in the file at the path.
    expect(tenantsIn(database).length).toBeGreaterThan(0);
  } finally {
    server.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }
});

it('a start on a file that is no SQLite database refuses it, and writes nothing to it or beside it', async () => {
  fs.writeFileSync(database, 'the notes someone kept here\n');
  fs.writeFileSync(path.join(dir.path, 'notes.txt'), 'more notes\n');
  const server = start();
  expect(await server.exited).toBe(1);
  expect(server.output()).toContain(
    `The server could not start: The file ${database} is not a SQLite database (file is not a database): point ` +
      "DATABASE_PATH at this server's database, or at a new path to start afresh. Nothing was written to it.\n",
  );
  expect(server.output()).not.toContain('Made a new database');
  expect(fs.readFileSync(database, 'utf8')).toBe('the notes someone kept here\n');
  // Nothing beside it: of SQLite's (a -journal, -wal or -shm), or the session-secret a start with its database makes.
  expect(fs.readdirSync(dir.path).sort()).toEqual(['app.db', 'notes.txt']);
  expect(fs.readFileSync(path.join(dir.path, 'notes.txt'), 'utf8')).toBe('more notes\n');
});
