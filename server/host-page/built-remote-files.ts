import fs from 'node:fs';
import path from 'node:path';
import { MANIFEST_FILE } from '../remotes/built-remotes';
import { manifestRemoteEntry } from '../remotes/manifest-remote-entry';

/** The files a page loads from a remote built into this server's dist folder, as URLs on this server. */
export interface BuiltRemoteFiles {
  /** `/remotes/<name>/mf-manifest.json`. */
  manifest: string;
  /** Its container entry (`remoteEntry.<hash>.js` in production builds). */
  entry: string;
  /**
   * Whether the federation runtime can load the remote from `entry` alone, without its manifest: a `global`
   * container whose global is the remote's name (what the kit builds). The runtime assumes exactly that for a
   * remote registered by a script.
   */
  loadableByEntry: boolean;
  /** Component -> the JavaScript and CSS its exposed module loads up front. */
  exposes: ReadonlyMap<string, { js: string[]; css: string[] }>;
}

/** A file name as a build writes it: no path tricks, nothing to escape. */
const SAFE_FILE = /^[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)*$/;

function files(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (file): file is string => typeof file === 'string' && SAFE_FILE.test(file) && !file.includes('..'),
  );
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * Reads what `<distDir>/remotes/<name>/mf-manifest.json` says a page loads: the entry and each expose's sync
 * assets. Only for builds with `publicPath: 'auto'` (this repository's remotes), whose files sit beside the
 * manifest, under `/remotes/<name>/`. Null when there is no such manifest or it is not readable as one.
 */
export function readBuiltRemoteFiles(distDir: string, name: string): BuiltRemoteFiles | null {
  let manifest: Record<string, unknown>;
  try {
    manifest = record(JSON.parse(fs.readFileSync(path.join(distDir, 'remotes', name, MANIFEST_FILE), 'utf8')));
  } catch {
    return null;
  }
  const remoteEntry = manifestRemoteEntry(manifest);
  if (remoteEntry === null || remoteEntry.publicPath !== 'auto') return null;

  const base = `/remotes/${name}/`;
  const exposes = new Map<string, { js: string[]; css: string[] }>();
  for (const raw of Array.isArray(manifest.exposes) ? manifest.exposes : []) {
    const expose = record(raw);
    if (typeof expose.name !== 'string') continue;
    const assets = record(expose.assets);
    exposes.set(expose.name.replace(/^\.\//, ''), {
      js: files(record(assets.js).sync).map((file) => `${base}${file}`),
      css: files(record(assets.css).sync).map((file) => `${base}${file}`),
    });
  }
  const loadableByEntry = remoteEntry.type === 'global' && remoteEntry.globalName === name;
  return { manifest: `${base}${MANIFEST_FILE}`, entry: `${base}${remoteEntry.file}`, loadableByEntry, exposes };
}
