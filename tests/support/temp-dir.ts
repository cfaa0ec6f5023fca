import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface TempDir {
  readonly path: string;
  /** Deletes the folder and everything in it; safe to call twice. */
  remove(): Promise<void>;
}

/** A fresh folder under the OS temp directory, e.g. for a test's SQLite file. */
export async function makeTempDir(prefix = 'slots-test-'): Promise<TempDir> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  return {
    path: dir,
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
