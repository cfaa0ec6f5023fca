/**
 * `npm run db:backup` as an operator runs it (a real process) beside a running app writing to the same SQLite file,
 * then the backup restored: the app starts on it and the demo account signs in.
 */
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { runServerCommand, type CommandRun } from '../../testing/server/run-server-command';
import { createDemoApp, createTestApp, DEMO_PASSWORD, signedInAgent } from '../../testing/server/test-app';
import { makeTempDir } from '../../testing/temp-dir';
import { migrate } from './migrate';
import { MIGRATIONS } from './migrations';

jest.setTimeout(60_000);

function backup(args: string[], env: NodeJS.ProcessEnv): Promise<CommandRun> {
  return runServerCommand('db-backup.ts', args, { DATABASE_URL: '', ...env });
}

function countRecords(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return Number(db.prepare('SELECT count(*) FROM records').pluck().get());
  } finally {
    db.close();
  }
}

describe('npm run db:backup (SQLite)', () => {
  it('copies the file while the app writes to it; the copy is whole, private, and starts an app', async () => {
    const running = await createDemoApp();
    const target = makeTempDir('slots-backup-');
    const file = path.join(target.path, 'app-backup.db');
    try {
      const { app } = running;
      // The app keeps committing while the backup process copies: SQLite's backup starts over, never copies half.
      const recordsBefore = countRecords(running.databasePath);
      let writing = true;
      let written = 0;
      const writes = (async () => {
        while (writing) {
          await app.records.insert('acme', 'authors', { title: `Written during the backup ${written++}` });
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
      })();
      const run = await backup([file], { DATABASE_PATH: running.databasePath });
      writing = false;
      await writes;
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout.startsWith(`Backed up SQLite ${running.databasePath} to ${file} (`)).toBe(true);
      expect(run.stdout).toMatch(/^Backed up .* to .*app-backup\.db \(\d+ KiB, schema \d+, 1 account, \d+ records\)/);
      expect(written).toBeGreaterThan(0);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(fs.readdirSync(target.path).filter((name) => name.includes('.partial-'))).toEqual([]);
      // A state the app committed: the records written during the backup are a prefix of those written, no gaps.
      const copy = new Database(file, { readonly: true });
      const titles = copy
        .prepare<[], string>("SELECT json_extract(data, '$.title') FROM records WHERE data LIKE '%during the backup%'")
        .pluck()
        .all();
      copy.close();
      const numbers = titles.map((title) => Number(title.split(' ').at(-1))).sort((a, b) => a - b);
      expect(numbers).toEqual(numbers.map((_number, index) => index));
      expect(run.stdout).toContain(` ${recordsBefore + numbers.length} records)`);
    } finally {
      await running.close();
    }
    // Restored: the backup as an app's database.
    fs.renameSync(file, path.join(target.path, 'app.db'));
    const restored = await createTestApp({ dir: target });
    try {
      await signedInAgent(restored.app, 'admin', DEMO_PASSWORD);
      expect((await restored.app.tenants.list()).length).toBeGreaterThan(0);
    } finally {
      await restored.close();
    }
  });

  it('leaves a file no server runs on exactly as it was, with no -wal or -shm beside it', async () => {
    const dir = makeTempDir('slots-backup-at-rest-');
    try {
      const source = path.join(dir.path, 'app.db');
      const made = await createTestApp();
      await made.close({ keepData: true });
      fs.copyFileSync(made.databasePath, source);
      made.dir.remove();
      expect(fs.readdirSync(dir.path)).toEqual(['app.db']);
      const bytes = fs.readFileSync(source);
      const run = await backup([path.join(dir.path, 'copy.db')], { DATABASE_PATH: source });
      expect([run.code, run.stderr]).toEqual([0, '']);
      // Left there, they would make the next db:copy warn that a server may still run on the file.
      expect(fs.readdirSync(dir.path).sort()).toEqual(['app.db', 'copy.db']);
      expect(fs.readFileSync(source).equals(bytes)).toBe(true);
      expect(countRecords(path.join(dir.path, 'copy.db'))).toBe(countRecords(source));
    } finally {
      dir.remove();
    }
  });

  it('never overwrites, never creates a database, and sends PostgreSQL users to pg_dump', async () => {
    const dir = makeTempDir('slots-backup-refusals-');
    try {
      const existing = path.join(dir.path, 'existing.db');
      fs.writeFileSync(existing, 'keep me');
      const source = path.join(dir.path, 'missing.db');
      const noSource = await backup([path.join(dir.path, 'new.db')], { DATABASE_PATH: source });
      expect(noSource.code).toBe(1);
      expect(noSource.stderr).toContain(`There is no SQLite database at ${source}. Nothing was written.`);
      expect(fs.readdirSync(dir.path)).toEqual(['existing.db']);

      const overwrite = await backup([existing], { DATABASE_PATH: existing });
      expect(overwrite.code).toBe(1);
      expect(overwrite.stderr).toContain('exists already: a backup never overwrites a file');
      expect(fs.readFileSync(existing, 'utf8')).toBe('keep me');

      // A folder it cannot write in (in the image: a relative path lands in the read-only /app) names the database's
      // folder, which it can (/sys refuses even root here, as the read-only root refuses the image's user).
      const unwritable = await backup(['/sys/backup.db'], { DATABASE_PATH: existing });
      expect(unwritable.code).toBe(1);
      expect(unwritable.stderr).toContain(
        `The folder /sys is not writable by this user. Write it beside the database, e.g. ${path.join(dir.path, 'backup.db')}. Nothing was written.`,
      );

      const postgres = await backup([path.join(dir.path, 'x.db')], {
        DATABASE_URL: 'postgres://db.internal/slots',
      });
      expect(postgres.code).toBe(2);
      expect(postgres.stderr).toMatch(/PostgreSQL, backed up with pg_dump/);
      expect((await backup([], {})).stderr).toBe(
        'Name the new file to write the backup to.\nusage: npm run db:backup -- <new file>\n',
      );
    } finally {
      dir.remove();
    }
  });
});

/**
 * The restore hint names what the backup does not hold: the session secret, without which a restore on a new machine
 * ends every session (the sessions are in the backup, but no cookie verifies).
 */
describe("db:backup's restore hint", () => {
  it('names the session-secret file beside the database, or SESSION_SECRET when that is set', async () => {
    const dir = makeTempDir('slots-backup-secret-');
    try {
      const source = path.join(dir.path, 'app.db');
      const db = new Database(source);
      migrate(db, MIGRATIONS);
      db.close();
      fs.writeFileSync(path.join(dir.path, 'session-secret'), 'a-secret-long-enough-to-sign\n', { mode: 0o600 });

      const run = await backup([path.join(dir.path, 'one.db')], { DATABASE_PATH: source, SESSION_SECRET: '' });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(
        `Keep ${path.join(dir.path, 'session-secret')} with the backup and put it back beside the restored file`,
      );

      const withEnv = await backup([path.join(dir.path, 'two.db')], {
        DATABASE_PATH: source,
        SESSION_SECRET: 'set-in-the-environment-0123',
      });
      expect(withEnv.code).toBe(0);
      expect(withEnv.stdout).toContain('Start the restored server with the same SESSION_SECRET');
    } finally {
      dir.remove();
    }
  });
});
