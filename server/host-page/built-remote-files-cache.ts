import fs from 'node:fs';
import path from 'node:path';
import { MANIFEST_FILE } from '../remotes/built-remotes';
import { readBuiltRemoteFiles, type BuiltRemoteFiles } from './built-remote-files';

export interface BuiltRemoteFilesCache {
  /** The files of `<distDir>/remotes/<name>/`, read again only when its manifest changes; null without one. */
  get(name: string): BuiltRemoteFiles | null;
}

export function createBuiltRemoteFilesCache(distDir: string): BuiltRemoteFilesCache {
  const cache = new Map<string, { mtimeMs: number; size: number; files: BuiltRemoteFiles | null }>();
  return {
    get(name) {
      let stat: fs.Stats;
      try {
        stat = fs.statSync(path.join(distDir, 'remotes', name, MANIFEST_FILE));
      } catch {
        cache.delete(name);
        return null;
      }
      const cached = cache.get(name);
      if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached.files;
      const files = readBuiltRemoteFiles(distDir, name);
      cache.set(name, { mtimeMs: stat.mtimeMs, size: stat.size, files });
      return files;
    },
  };
}
