import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { makeTempDir, type TempDir } from '../temp-dir';
import { buildOnce } from './build-once';

let cache: TempDir;
beforeEach(() => {
  cache = makeTempDir('slots-build-once-');
});
afterEach(() => cache.remove());

/** A build that takes a while and counts its runs. */
function slowBuild(runs: string[], ms = 200) {
  return async (dir: string) => {
    runs.push(dir);
    await new Promise((resolve) => setTimeout(resolve, ms));
    fs.writeFileSync(path.join(dir, 'built.txt'), 'whole');
  };
}

describe('buildOnce', () => {
  it('builds once for callers that come at the same time, each getting the whole build, and later ones too', async () => {
    const runs: string[] = [];
    const ask = () => buildOnce({ cacheRoot: cache.path, key: 'a', build: slowBuild(runs) });
    const dirs = await Promise.all([ask(), ask(), ask()]);
    expect(new Set(dirs)).toEqual(new Set([path.join(cache.path, 'a')]));
    expect(fs.readFileSync(path.join(dirs[0], 'built.txt'), 'utf8')).toBe('whole');
    await ask();
    expect(runs).toHaveLength(1);
    // Nothing left beside it: no lock, no half-made folder.
    expect(fs.readdirSync(cache.path)).toEqual(['a']);
  });

  it('builds again for another key, and removes builds of other keys nobody used for a while', async () => {
    const runs: string[] = [];
    await buildOnce({ cacheRoot: cache.path, key: 'old', build: slowBuild(runs, 0) });
    await buildOnce({ cacheRoot: cache.path, key: 'recent', build: slowBuild(runs, 0) });
    const longAgo = new Date(Date.now() - 2 * 60 * 60_000);
    fs.utimesSync(path.join(cache.path, 'old'), longAgo, longAgo);
    await buildOnce({ cacheRoot: cache.path, key: 'new', build: slowBuild(runs, 0) });
    expect(runs).toHaveLength(3);
    expect(fs.readdirSync(cache.path).sort()).toEqual(['new', 'recent']);
  });

  it('takes over the lock of a builder that died, rather than wait for it', async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    fs.mkdirSync(path.join(cache.path, 'a.lock'));
    fs.writeFileSync(path.join(cache.path, 'a.lock', 'pid'), String(dead));
    const runs: string[] = [];
    await buildOnce({ cacheRoot: cache.path, key: 'a', build: slowBuild(runs, 0), waitMs: 2_000 });
    expect(runs).toHaveLength(1);
  });

  it('waits for a live builder, and fails after waitMs saying which lock it waited for', async () => {
    fs.mkdirSync(path.join(cache.path, 'a.lock'));
    fs.writeFileSync(path.join(cache.path, 'a.lock', 'pid'), String(process.pid));
    await expect(buildOnce({ cacheRoot: cache.path, key: 'a', build: slowBuild([], 0), waitMs: 600 })).rejects.toThrow(
      `The build under ${path.join(cache.path, 'a.lock')} was not done`,
    );
  });

  it('leaves nothing of a failed build: the caller gets its error, the next caller builds', async () => {
    const failing = buildOnce({
      cacheRoot: cache.path,
      key: 'a',
      build: async () => {
        throw new Error('compile error');
      },
    });
    await expect(failing).rejects.toThrow('compile error');
    expect(fs.readdirSync(cache.path)).toEqual([]);
    const runs: string[] = [];
    await buildOnce({ cacheRoot: cache.path, key: 'a', build: slowBuild(runs, 0) });
    expect(runs).toHaveLength(1);
  });
});
