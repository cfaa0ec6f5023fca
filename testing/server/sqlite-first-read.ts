/**
 * What another process reads of a SQLite database the first time a restore lets it (sqlite-first-read-child.ts):
 * the file a server starting during the restore would run on.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

export type FirstRead =
  | { refused: number; outcome: 'read'; tenants: string[] }
  | { refused: number; outcome: 'missing' | 'no restore seen' | 'still refused' };

export interface FirstReader {
  /** Once the process runs and watches the database's folder: start the restore then. */
  ready: Promise<void>;
  /** What its first read not refused saw, and how many reads were refused (SQLITE_BUSY) before it. */
  read: Promise<FirstRead>;
}

export function firstReadOnceUnlocked(database: string): FirstReader {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(__dirname, 'sqlite-first-read-child.ts'), database],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let isReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (isReady = resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (stdout.startsWith('ready\n')) isReady();
  });
  const read = new Promise<FirstRead>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      const line = stdout.split('\n')[1] ?? '';
      if (code === 0 && line !== '') resolve(JSON.parse(line) as FirstRead);
      else reject(new Error(`the reading process ended with ${String(code)}:\n${stdout}${stderr}`));
    });
  });
  // Ended before it was ready: read's rejection says why.
  void read.catch(() => isReady());
  return { ready, read };
}
