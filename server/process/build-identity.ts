import fs from 'node:fs';
import path from 'node:path';

/**
 * Which sources this server was built from, as `npm run build` recorded them (scripts/build-identity.ts), so that the
 * log, the start message and /metrics can say which release runs: package.json and the image's version label are
 * always 0.1.0, and the image's revision label is on the image, not on the host the server logs from.
 */
export interface BuildIdentity {
  /** The git commit's short hash, `-dirty` after it when tracked files differed from it; `unknown` without git. */
  revision: string;
  /** Whether tracked files differed from the commit; null when not known (no git, or given by the image build). */
  dirty: boolean | null;
  /** When the build ran (ISO 8601); null for a server run from its TypeScript sources (tsx, tests), never built. */
  builtAt: string | null;
}

/** The file the build writes beside the compiled server's folders: dist/server/build-identity.json. */
export const BUILD_IDENTITY_FILE = 'build-identity.json';

/** What a server that was not built says (run from its sources), or whose record is missing or unreadable. */
export const UNKNOWN_BUILD: BuildIdentity = Object.freeze({ revision: 'unknown', dirty: null, builtAt: null });

/**
 * The identity recorded by the build this file was compiled in: dist/server/process/build-identity.js reads
 * dist/server/build-identity.json. Never throws: a server that cannot say its release still serves.
 */
export function readBuildIdentity(file = path.join(__dirname, '..', BUILD_IDENTITY_FILE)): BuildIdentity {
  try {
    const read = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<BuildIdentity>;
    return {
      revision: typeof read.revision === 'string' && read.revision !== '' ? read.revision : UNKNOWN_BUILD.revision,
      dirty: typeof read.dirty === 'boolean' ? read.dirty : null,
      builtAt: typeof read.builtAt === 'string' ? read.builtAt : null,
    };
  } catch {
    return UNKNOWN_BUILD;
  }
}
