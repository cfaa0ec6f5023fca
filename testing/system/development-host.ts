import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import webpack, { type Stats } from 'webpack';
import { hostConfiguration } from '../../webpack.config';
import { buildOnce } from './build-once';
import { DIST_DIR, REPO_ROOT } from './repo-root';

/**
 * What the development host is built from, relative to the repository: its sources, the contract, the webpack
 * configuration with the plugins and presets it uses, and the dependencies' versions. A build that reads a file of
 * the repository outside these fails (checkKeyCovers), so the key cannot silently miss a change.
 */
const SOURCES = [
  'host',
  'shared',
  'build',
  'remotes/kit',
  'webpack.config.ts',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
];

/**
 * The host built in development mode (StrictMode, the props schemas checked), beside the production remotes of dist/
 * (linked), for tests of what only a development host does; returns the folder to serve (its `host/` and `remotes/`).
 * A build takes one to two minutes on two cores, and two test files side by side each made one: now one build serves
 * every file of a run, and later runs while its sources are unchanged (buildOnce). It is kept in the temp folder under
 * a hash of this checkout's path (whose dist/remotes it links) and of its sources' contents. Never remove it: shared.
 */
export async function sharedDevelopmentHost(): Promise<string> {
  const files = sourceFiles();
  return buildOnce({
    cacheRoot: path.join(
      os.tmpdir(),
      `slots-dev-host-${createHash('sha256').update(REPO_ROOT).digest('hex').slice(0, 16)}`,
    ),
    key: contentsHash(files).slice(0, 24),
    build: async (dir) => {
      checkKeyCovers(await compile(dir), new Set(files));
      fs.symlinkSync(path.join(DIST_DIR, 'remotes'), path.join(dir, 'remotes'), 'dir');
    },
  });
}

/** The build's input files, relative to the repository, sorted: tests and the scaffold's template are not. */
function sourceFiles(): string[] {
  const files: string[] = [];
  const template = path.join('remotes', 'kit', 'template');
  const walk = (relative: string) => {
    const stat = fs.statSync(path.join(REPO_ROOT, relative), { throwIfNoEntry: false });
    if (!stat || relative === template || relative.endsWith('node_modules')) return;
    if (stat.isDirectory())
      for (const entry of fs.readdirSync(path.join(REPO_ROOT, relative))) walk(path.join(relative, entry));
    else if (!/\.test\.tsx?$/.test(relative)) files.push(relative);
  };
  SOURCES.forEach(walk);
  return files.sort();
}

/** The files' names and contents, hashed. */
function contentsHash(files: readonly string[]): string {
  const hash = createHash('sha256');
  for (const file of files) {
    const contents = fs.readFileSync(path.join(REPO_ROOT, file));
    hash.update(`${file}\0${contents.length}\0`).update(contents);
  }
  return hash.digest('hex');
}

async function compile(dir: string): Promise<Stats | undefined> {
  const compiler = webpack({ ...hostConfiguration('development', dir), cache: false });
  return new Promise((resolve, reject) =>
    compiler.run((error, stats) => {
      compiler.close(() => undefined);
      if (error || stats?.hasErrors()) reject(error ?? new Error(stats?.toString('errors-only')));
      else resolve(stats);
    }),
  );
}

/** Fails when the build read a file of the repository the key leaves out: a change there would reuse a stale build. */
function checkKeyCovers(stats: Stats | undefined, keyed: ReadonlySet<string>): void {
  // Folders are listed too (those webpack resolved in): their files are what counts.
  const unkeyed = [...(stats?.compilation.fileDependencies ?? [])]
    .filter((file) => fs.statSync(file, { throwIfNoEntry: false })?.isFile())
    .map((file) => path.relative(REPO_ROOT, file))
    .filter((file) => !file.startsWith('..') && !path.isAbsolute(file))
    .filter((file) => !file.split(path.sep).includes('node_modules') && !keyed.has(file));
  if (unkeyed.length > 0) {
    throw new Error(
      `The development host build read ${unkeyed.join(', ')}, which testing/system/development-host.ts does not key ` +
        'its kept build by: add them to SOURCES.',
    );
  }
}
