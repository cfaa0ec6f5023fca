import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { readBuildIdentity } from '../server/process/build-identity';
import { makeTempDir, type TempDir } from '../testing/temp-dir';
import { buildIdentityOf, writeBuildIdentity } from './build-identity';

const NOW = new Date('2026-11-29T17:00:00.000Z');
/** No BUILD_REVISION, and git told nothing of the machine's own settings. */
const ENV = { PATH: process.env.PATH, HOME: '/nonexistent', GIT_CONFIG_NOSYSTEM: '1' };

let dir: TempDir;
beforeEach(() => (dir = makeTempDir('slots-build-identity-')));
afterEach(() => dir.remove());

function git(...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
    cwd: dir.path,
    encoding: 'utf8',
  }).trim();
}

describe('buildIdentityOf (what npm run build records)', () => {
  it("names a checkout's commit, and says when tracked files differed from it", () => {
    git('init', '-q');
    fs.writeFileSync(path.join(dir.path, 'a.txt'), 'one\n');
    git('add', 'a.txt');
    git('commit', '-qm', 'one');
    const hash = git('rev-parse', '--short=12', 'HEAD');
    // An untracked file is not the release (a local .env, node_modules linked in).
    fs.writeFileSync(path.join(dir.path, 'untracked.txt'), 'x\n');
    expect(buildIdentityOf(dir.path, ENV, NOW)).toEqual({ revision: hash, dirty: false, builtAt: NOW.toISOString() });
    fs.writeFileSync(path.join(dir.path, 'a.txt'), 'two\n');
    expect(buildIdentityOf(dir.path, ENV, NOW)).toEqual({
      revision: `${hash}-dirty`,
      dirty: true,
      builtAt: NOW.toISOString(),
    });
  });

  it('says unknown without git (an image built from a copy without .git), or the revision the image build gives', () => {
    expect(buildIdentityOf(dir.path, ENV, NOW)).toEqual({
      revision: 'unknown',
      dirty: null,
      builtAt: NOW.toISOString(),
    });
    const full = '0123456789abcdef0123456789abcdef01234567';
    expect(buildIdentityOf(dir.path, { ...ENV, BUILD_REVISION: full }, NOW)).toEqual({
      revision: '0123456789ab',
      dirty: null,
      builtAt: NOW.toISOString(),
    });
    // `git describe --dirty` of a tree with changes (the guide's REVISION): the hash shortened, the changes said.
    expect(buildIdentityOf(dir.path, { ...ENV, BUILD_REVISION: `${full}-dirty` }, NOW)).toEqual({
      revision: '0123456789ab-dirty',
      dirty: true,
      builtAt: NOW.toISOString(),
    });
    // Anything else given (a tag, a CI's own name) is said as it is, whether it had changes not known.
    expect(buildIdentityOf(dir.path, { ...ENV, BUILD_REVISION: 'v1.2.0' }, NOW)).toMatchObject({
      revision: 'v1.2.0',
      dirty: null,
    });
    // The Dockerfile's default when no REVISION is given.
    expect(buildIdentityOf(dir.path, { ...ENV, BUILD_REVISION: 'unknown' }, NOW).revision).toBe('unknown');
  });

  it('is written where the compiled server reads it', () => {
    const identity = { revision: '0123456789ab', dirty: false, builtAt: NOW.toISOString() };
    const file = writeBuildIdentity(dir.path, identity);
    expect(file).toBe(path.join(dir.path, 'server', 'build-identity.json'));
    expect(readBuildIdentity(file)).toEqual(identity);
  });
});
