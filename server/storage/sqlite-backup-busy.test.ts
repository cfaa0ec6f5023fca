/**
 * db:backup of a file large enough to take a while: under a server that keeps committing it still finishes, and cut
 * short by a signal it leaves nothing behind (no partial copy, no copy of the database in the temporary folder).
 */
import Database from 'better-sqlite3';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { migrate } from './migrate';
import { MIGRATIONS } from './migrations';

jest.setTimeout(120_000);

const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** The server's schema and `mib` MiB of other pages, in WAL mode as the server keeps it. */
function largeDatabase(file: string, mib: number): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  migrate(db, MIGRATIONS);
  db.exec('CREATE TABLE padding (id INTEGER PRIMARY KEY, bytes BLOB)');
  db.prepare(
    'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) ' +
      'INSERT INTO padding (bytes) SELECT randomblob(4000) FROM n',
  ).run(mib * 256);
  return db;
}

interface BackupProcess {
  child: ChildProcessWithoutNullStreams;
  /** Its exit code, or the signal that ended it, and what it printed. */
  ended: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

/** `npm run db:backup` as an operator runs it: a process of its own, beside the test's writer. */
function startBackup(source: string, destination: string, tmp: string): BackupProcess {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(REPO_ROOT, 'server', 'cli', 'db-backup.ts'), destination],
    { cwd: REPO_ROOT, env: { ...process.env, DATABASE_URL: '', DATABASE_PATH: source, TMPDIR: tmp } },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const ended = new Promise<Awaited<BackupProcess['ended']>>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, ended };
}

/** What the backup left in the temporary folder (tsx keeps its own cache there). */
function backupLeftovers(tmp: string): string[] {
  return fs.readdirSync(tmp).filter((name) => name.startsWith('slots-backup-'));
}

describe('db:backup of a large file', () => {
  let dir: TempDir;
  let tmp: string;
  beforeEach(() => {
    dir = makeTempDir('slots-backup-busy-');
    tmp = path.join(dir.path, 'tmp');
    fs.mkdirSync(tmp);
  });
  afterEach(() => dir.remove());

  it('finishes while a server commits every millisecond, with a state the server committed', async () => {
    const source = path.join(dir.path, 'app.db');
    const server = largeDatabase(source, 40);
    const write = server.prepare('INSERT INTO padding (bytes) VALUES (randomblob(100))');
    let commits = 0;
    const writer = setInterval(() => {
      write.run();
      commits++;
    }, 1);
    const backup = startBackup(source, path.join(dir.path, 'backup.db'), tmp);
    // Copied a hundred pages at a time, each commit between two steps started the copy over: it never ended.
    const tooLong = setTimeout(() => backup.child.kill('SIGTERM'), 30_000);
    try {
      const run = await backup.ended;
      expect({ code: run.code, stderr: run.stderr, committedMeanwhile: commits > 10 }).toEqual({
        code: 0,
        stderr: '',
        committedMeanwhile: true,
      });
    } finally {
      clearTimeout(tooLong);
      clearInterval(writer);
      server.close();
    }
    const copy = new Database(path.join(dir.path, 'backup.db'), { readonly: true });
    try {
      expect(copy.prepare<[], number>('SELECT count(*) FROM padding').pluck().get()).toBeGreaterThanOrEqual(40 * 256);
      expect(copy.pragma('quick_check', { simple: true })).toBe('ok');
    } finally {
      copy.close();
    }
  });

  it('interrupted (Ctrl-C), leaves no partial copy beside the backup nor a copy in the temporary folder', async () => {
    const source = path.join(dir.path, 'app.db');
    // Closed: no server on it, so the backup reads it from a copy of its own in TMPDIR.
    largeDatabase(source, 150).close();
    const backup = startBackup(source, path.join(dir.path, 'backup.db'), tmp);
    const started = (): boolean => fs.readdirSync(dir.path).some((name) => name.includes('.partial-'));
    while (!started() && backup.child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 5));
    backup.child.kill('SIGINT');
    const run = await backup.ended;
    // Stopped by the signal it was sent, as any command cut short by Ctrl-C: not a success.
    expect({ signal: run.signal, stdout: run.stdout }).toEqual({ signal: 'SIGINT', stdout: '' });
    expect(fs.readdirSync(dir.path).sort()).toEqual(['app.db', 'tmp']);
    expect(backupLeftovers(tmp)).toEqual([]);
  });
});
