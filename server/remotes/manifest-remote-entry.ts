/** A file name as a build writes it: no path tricks, nothing to escape. */
const SAFE_FILE = /^[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)*$/;

/** The container entry script an `mf-manifest.json` names, as written in it. */
export interface ManifestRemoteEntry {
  /** `metaData.remoteEntry` path and name joined (`remoteEntry.js`, `static/remoteEntry.0123abcd.js`). */
  file: string;
  /** `metaData.publicPath`: `auto` (the files sit beside the manifest), an absolute URL, or missing. */
  publicPath: string | undefined;
  /** `metaData.remoteEntry.type` (`global` for the kit's builds), when given. */
  type: string | undefined;
  /** `metaData.globalName`, when given. */
  globalName: string | undefined;
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * The remote entry script a federation manifest names (`metaData.remoteEntry`), or null when `manifest` names none
 * a build would write (not a federation manifest, or a file name with path tricks). The same fields the runtime
 * reads to load the remote; built-in remotes are read alike (host-page/built-remote-files.ts).
 */
export function manifestRemoteEntry(manifest: unknown): ManifestRemoteEntry | null {
  const metaData = record(record(manifest).metaData);
  const remoteEntry = record(metaData.remoteEntry);
  const file = [remoteEntry.path, remoteEntry.name].filter((part) => typeof part === 'string' && part !== '').join('/');
  if (typeof remoteEntry.name !== 'string' || !SAFE_FILE.test(file) || file.includes('..')) return null;
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return {
    file,
    publicPath: text(metaData.publicPath),
    type: text(remoteEntry.type),
    globalName: text(metaData.globalName),
  };
}

/**
 * Where a page loads the entry script from, for a manifest read at `manifestUrl`: after an absolute
 * `metaData.publicPath` (the runtime puts the file name right after it), else beside the manifest (`auto`, the
 * kit's builds).
 */
export function remoteEntryUrl(entry: ManifestRemoteEntry, manifestUrl: string): string {
  if (entry.publicPath !== undefined && /^https?:\/\//i.test(entry.publicPath)) {
    return new URL(`${entry.publicPath}${entry.file}`).href;
  }
  return new URL(entry.file, manifestUrl).href;
}

/**
 * The module names a federation manifest exposes (`Callout`, not `./Callout`: each entry's `name` and `path`), or
 * null when it has no `exposes` list.
 */
export function manifestExposeNames(manifest: unknown): Set<string> | null {
  const exposes = (manifest as { exposes?: unknown } | null)?.exposes;
  if (!Array.isArray(exposes)) return null;
  const names = new Set<string>();
  for (const expose of exposes) {
    const { name, path } = (expose ?? {}) as { name?: unknown; path?: unknown };
    if (typeof name === 'string') names.add(name.replace(/^\.\//, ''));
    if (typeof path === 'string') names.add(path.replace(/^\.\//, ''));
  }
  return names;
}
