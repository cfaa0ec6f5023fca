import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DIST_DIR } from './repo-root';

/** The remotes this repository builds (Module Federation container names, brief: demo catalogue). */
export const BUILT_REMOTES: readonly string[] = Object.freeze(['team_marketing', 'team_records']);

/**
 * The container entry a built remote's manifest names (`remoteEntry.<hash>.js` in production), relative to the
 * remote's folder; null without a readable manifest.
 */
export function builtRemoteEntryFile(name: string, distDir = DIST_DIR): string | null {
  try {
    const manifest = JSON.parse(readFileSync(path.join(distDir, 'remotes', name, 'mf-manifest.json'), 'utf8')) as {
      metaData?: { remoteEntry?: { name?: unknown; path?: unknown } };
    };
    const entry = manifest.metaData?.remoteEntry;
    if (typeof entry?.name !== 'string') return null;
    return typeof entry.path === 'string' && entry.path !== '' ? `${entry.path}/${entry.name}` : entry.name;
  } catch {
    return null;
  }
}

/** The files a browser test needs from `npm run build`. */
export function requiredBuildFiles(distDir = DIST_DIR): string[] {
  return [
    path.join(distDir, 'host', 'index.html'),
    ...BUILT_REMOTES.flatMap((name) => [
      path.join(distDir, 'remotes', name, 'mf-manifest.json'),
      path.join(distDir, 'remotes', name, builtRemoteEntryFile(name, distDir) ?? 'remoteEntry.js'),
    ]),
  ];
}

/** Throws, naming what is missing and the command that makes it, when the build output is absent. */
export function assertBuilt(distDir = DIST_DIR): void {
  const missing = requiredBuildFiles(distDir).filter((file) => !existsSync(file));
  if (missing.length > 0) {
    throw new Error(
      `The browser tests drive the built product, but ${distDir} is incomplete: missing ` +
        `${missing.map((file) => path.relative(path.dirname(distDir), file)).join(', ')}. Run \`npm run build\` first.`,
    );
  }
}
