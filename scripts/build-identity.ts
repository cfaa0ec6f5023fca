/**
 * What `npm run build` records of the sources it built (server/process/build-identity.ts reads it back): the git
 * commit and whether tracked files differed from it, and when. An image build has no .git (.dockerignore): there the
 * Dockerfile passes its REVISION build argument as BUILD_REVISION, so the image says the sources it was built from.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BUILD_IDENTITY_FILE, UNKNOWN_BUILD, type BuildIdentity } from '../server/process/build-identity';

/** Hex digits of a revision: git's short hash, and a full one given by an image build cut to the same. */
const SHORT_HASH_LENGTH = 12;

export function buildIdentityOf(root: string, env: NodeJS.ProcessEnv = process.env, now = new Date()): BuildIdentity {
  const builtAt = now.toISOString();
  const given = env.BUILD_REVISION?.trim();
  // Given explicitly (the image build, a CI that builds from an export): said as given, full hashes shortened. A
  // `-dirty` after the hash (`git describe --dirty`, as the operators' guide builds the image) says the tree had
  // changes; a bare hash does not say whether it had, since the build cannot look (no .git in its context).
  if (given && given !== UNKNOWN_BUILD.revision) {
    const described = /^([0-9a-f]{40})(-dirty)?$/.exec(given);
    if (!described) return { revision: given, dirty: null, builtAt };
    const hash = described[1]!.slice(0, SHORT_HASH_LENGTH);
    return described[2]
      ? { revision: `${hash}-dirty`, dirty: true, builtAt }
      : { revision: hash, dirty: null, builtAt };
  }
  try {
    const git = (...args: string[]) =>
      execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const hash = git('rev-parse', `--short=${SHORT_HASH_LENGTH}`, 'HEAD');
    // Tracked files only, as `git describe --dirty`: an untracked file (a local .env, a symlink) is not the release.
    const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
    return { revision: dirty ? `${hash}-dirty` : hash, dirty, builtAt };
  } catch {
    return { ...UNKNOWN_BUILD, builtAt };
  }
}

/** Writes the identity where the compiled server reads it (<outDir>/server/build-identity.json); returns the file. */
export function writeBuildIdentity(outDir: string, identity: BuildIdentity): string {
  const file = path.join(outDir, 'server', BUILD_IDENTITY_FILE);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(identity)}\n`);
  return file;
}
