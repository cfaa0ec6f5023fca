/**
 * `npm run db:restore` on a terminal: what it replaces and the name it keeps it under, asked first, and restored only
 * on yes; not asked with --yes, where nothing is replaced, or of a file that is no backup.
 */
import fs from 'node:fs';
import path from 'node:path';
import { compileServerCommands, type CompiledServerCommands } from '../../testing/server/compiled-server-commands';
import { serversDatabase, tenantsIn } from '../../testing/server/servers-sqlite-database';
import { folderSnapshot } from '../../testing/folder-snapshot';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';

jest.setTimeout(60_000);

let dir: TempDir;
let database: string;
// The command compiled once, run on the terminal as `npm run db:restore` runs it: node starts it in a fraction of
// tsx's time, and this file starts it six times.
let commands: CompiledServerCommands;

beforeAll(async () => {
  commands = await compileServerCommands();
});
afterAll(() => commands?.remove());
beforeEach(() => {
  dir = makeTempDir('slots-restore-terminal-');
  database = path.join(dir.path, 'app.db');
});
afterEach(() => dir.remove());

/** The kept database's file name the question gave (in `dir`): `This replaces … kept beside it, as <path>.` */
function keptNameAskedIn(output: string): string {
  const asked = /kept beside it, as (\S+)\.\r\n/.exec(output)?.[1] ?? '';
  expect(path.dirname(asked)).toBe(dir.path);
  return path.basename(asked);
}

describe('npm run db:restore on a terminal', () => {
  it('says what it replaces and where it keeps it, and restores only on yes', async () => {
    serversDatabase(database, 'current');
    const backup = path.join(dir.path, 'backup.db');
    serversDatabase(backup, 'backed-up');
    const env = { DATABASE_URL: '', DATABASE_PATH: database, SESSION_SECRET: '' };
    const before = folderSnapshot(dir.path);

    const declined = commands.inTerminal('db-restore.ts', [backup], env);
    await declined.waitFor('[y/N]');
    // The terminal's own codes (readline's) stand between the two lines.
    expect(declined.output()).toContain(
      `This replaces SQLite ${database} with the backup ${backup}. The database as it is now is kept beside it, as ` +
        `${database}.before-restore-`,
    );
    expect(keptNameAskedIn(declined.output())).toMatch(/^app\.db\.before-restore-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ$/);
    expect(declined.output()).toContain('Restore the backup? [y/N] ');
    declined.type('n\r');
    await declined.waitFor('Not restored: the answer was not yes. Nothing was changed.');
    declined.end();
    expect(await declined.closed).toBe(1);
    expect(folderSnapshot(dir.path)).toEqual(before);

    const confirmed = commands.inTerminal('db-restore.ts', [backup], env);
    await confirmed.waitFor('[y/N]');
    const asked = keptNameAskedIn(confirmed.output());
    confirmed.type('yes\r');
    await confirmed.waitFor('Start the server and check its log.');
    confirmed.end();
    expect(await confirmed.closed).toBe(0);
    expect(tenantsIn(database)).toEqual(['backed-up']);
    // The database is kept under the very name the question gave, and the result line says it again.
    expect(fs.readdirSync(dir.path).sort()).toEqual(['app.db', asked, 'backup.db']);
    expect(tenantsIn(path.join(dir.path, asked))).toEqual(['current']);
    expect(confirmed.output()).toContain(`The database as it was is kept in ${path.join(dir.path, asked)}; delete it`);
  });

  it('keeps the database under the next free name when the one it asked about is taken meanwhile, and says so', async () => {
    serversDatabase(database, 'current');
    const backup = path.join(dir.path, 'backup.db');
    serversDatabase(backup, 'backed-up');
    const env = { DATABASE_URL: '', DATABASE_PATH: database, SESSION_SECRET: '' };

    const run = commands.inTerminal('db-restore.ts', [backup], env);
    await run.waitFor('[y/N]');
    const asked = keptNameAskedIn(run.output());
    // Another restore's kept file, or one the operator copied there, while the question waited: never written over.
    fs.writeFileSync(path.join(dir.path, asked), 'not to be written over');
    run.type('y\r');
    await run.waitFor('Start the server and check its log.');
    run.end();
    expect(await run.closed).toBe(0);
    expect(fs.readFileSync(path.join(dir.path, asked), 'utf8')).toBe('not to be written over');
    expect(tenantsIn(path.join(dir.path, `${asked}-2`))).toEqual(['current']);
    expect(run.output()).toContain(
      `The database as it was is kept in ${path.join(dir.path, `${asked}-2`)} (${path.join(dir.path, asked)}, the ` +
        'name asked about, was taken meanwhile); delete it once the restore is checked.',
    );
  });

  it('asks nothing with --yes, nor where there is no database to replace, nor of a file that is no backup', async () => {
    const env = { DATABASE_URL: '', DATABASE_PATH: database, SESSION_SECRET: '' };
    const backup = path.join(dir.path, 'backup.db');
    serversDatabase(backup, 'backed-up');
    const onNewMachine = commands.inTerminal('db-restore.ts', [backup], env);
    expect(await onNewMachine.closed).toBe(0);
    expect(onNewMachine.output()).not.toContain('[y/N]');
    expect(tenantsIn(database)).toEqual(['backed-up']);

    fs.writeFileSync(path.join(dir.path, 'notes.txt'), 'not a database\n');
    const noBackup = commands.inTerminal('db-restore.ts', [path.join(dir.path, 'notes.txt')], env);
    expect(await noBackup.closed).toBe(1);
    expect(noBackup.output()).toContain('does not begin with the SQLite header');
    expect(noBackup.output()).not.toContain('[y/N]');

    serversDatabase(path.join(dir.path, 'second.db'), 'second');
    const yes = commands.inTerminal('db-restore.ts', [path.join(dir.path, 'second.db'), '--yes'], env);
    expect(await yes.closed).toBe(0);
    expect(yes.output()).not.toContain('[y/N]');
    expect(tenantsIn(database)).toEqual(['second']);
  });
});
