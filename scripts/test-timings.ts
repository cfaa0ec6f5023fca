/**
 * Where a Jest run's time goes: every test file's duration, the slowest first, and the totals per folder.
 *
 *   npx tsx scripts/test-timings.ts --selectProjects host        # runs Jest with these arguments, then reports
 *   npx tsx scripts/test-timings.ts run.json                     # reports a run saved by `jest --json --outputFile`
 *   npx tsx scripts/test-timings.ts /tmp/jest_0/perf-cache-…     # reports the last run of a project, from Jest's cache
 *
 * Durations are wall-clock times of each file in its worker, from its setup files to its end: the worker's start and
 * the test environment's (jsdom's) load are outside them, so the run's time times its workers minus their sum is
 * that overhead. On a loaded machine they measure
 * the load as much as the tests: compare runs of one machine.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The part of `jest --json` read here. */
export interface JestJson {
  /** Unknown for a run read from Jest's cache. */
  startTime?: number;
  testResults: { name: string; startTime: number; endTime: number; status: string }[];
}

export interface FileTiming {
  file: string;
  seconds: number;
  status: string;
}

/**
 * Jest's own record of a project's last run (`perf-cache-*` in its cacheDirectory, which it keeps to run the slowest
 * files first): each file's path, its result (1 passed, 0 failed) and duration in ms. A CI run's per-file times, when
 * it saved no `--json`; its files ran at unknown times, so no run time.
 */
export type JestPerfCache = Record<string, [number, number]>;

export function runFromPerfCache(cache: JestPerfCache): JestJson {
  return {
    testResults: Object.entries(cache).map(([name, [result, ms]]) => ({
      name,
      startTime: 0,
      endTime: ms,
      status: result === 1 ? 'passed' : 'failed',
    })),
  };
}

/** Each file's duration, the slowest first; `file` relative to `root`. */
export function fileTimings(run: JestJson, root: string): FileTiming[] {
  return run.testResults
    .map((result) => ({
      file: path.relative(root, result.name),
      seconds: (result.endTime - result.startTime) / 1000,
      status: result.status,
    }))
    .sort((a, b) => b.seconds - a.seconds);
}

/** The summed durations per folder (`depth` path segments, e.g. `server/slots`), the largest first. */
export function folderTimings(
  files: readonly FileTiming[],
  depth = 2,
): { folder: string; seconds: number; files: number }[] {
  const folders = new Map<string, { seconds: number; files: number }>();
  for (const { file, seconds } of files) {
    const folder = file.split('/').slice(0, depth).join('/');
    const entry = folders.get(folder) ?? { seconds: 0, files: 0 };
    folders.set(folder, { seconds: entry.seconds + seconds, files: entry.files + 1 });
  }
  return [...folders].map(([folder, entry]) => ({ folder, ...entry })).sort((a, b) => b.seconds - a.seconds);
}

/** The report: run time, the summed file times, the folders, then the `top` slowest files. */
export function report(run: JestJson, root: string, top = 30): string {
  const files = fileTimings(run, root);
  const summed = files.reduce((sum, file) => sum + file.seconds, 0);
  const seconds = (value: number) => value.toFixed(1).padStart(8);
  const wall =
    run.startTime === undefined
      ? ''
      : ` in ${((Math.max(...run.testResults.map((result) => result.endTime)) - run.startTime) / 1000).toFixed(0)} s`;
  return [
    `${files.length} files${wall}; their durations add up to ${summed.toFixed(0)} s`,
    '',
    'per folder (summed):',
    ...folderTimings(files).map((folder) => `${seconds(folder.seconds)} s  ${folder.folder} (${folder.files} files)`),
    '',
    `the ${Math.min(top, files.length)} slowest files:`,
    ...files
      .slice(0, top)
      .map((file) => `${seconds(file.seconds)} s  ${file.file}${file.status === 'passed' ? '' : ` (${file.status})`}`),
  ].join('\n');
}

/** The folder all of a run's files are in (a run saved elsewhere, e.g. in another clone). */
function commonFolder(run: JestJson): string {
  const [first, ...others] = run.testResults.map((result) => path.dirname(result.name).split(path.sep));
  let length = first?.length ?? 0;
  for (const parts of others)
    while (parts.slice(0, length).join(path.sep) !== first!.slice(0, length).join(path.sep)) length--;
  return first?.slice(0, length).join(path.sep) ?? '';
}

function main(args: string[]): number {
  const root = path.resolve(__dirname, '..');
  if (args.length === 1 && /\.json$|(^|\/)perf-cache-[^/]*$/.test(args[0]!) && fs.existsSync(args[0]!)) {
    const saved = JSON.parse(fs.readFileSync(args[0]!, 'utf8')) as JestJson | JestPerfCache;
    const run = 'testResults' in saved ? (saved as JestJson) : runFromPerfCache(saved as JestPerfCache);
    console.log(report(run, commonFolder(run)));
    return 0;
  }
  const output = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'test-timings-')), 'run.json');
  const jest = spawnSync('npx', ['jest', ...args, '--json', `--outputFile=${output}`], { cwd: root, stdio: 'inherit' });
  if (!fs.existsSync(output)) return jest.status ?? 1;
  console.log(`\n${report(JSON.parse(fs.readFileSync(output, 'utf8')) as JestJson, root)}`);
  fs.rmSync(path.dirname(output), { recursive: true });
  return jest.status ?? 1;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
