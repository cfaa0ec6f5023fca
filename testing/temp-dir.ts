import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TempDir {
  readonly path: string;
  /** Deletes the folder and everything in it; safe to call twice. */
  remove(): void;
}

/** A fresh folder under the OS temp directory, e.g. for a test's SQLite file or build output. */
export function makeTempDir(prefix = 'slots-test-'): TempDir {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { path: dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
