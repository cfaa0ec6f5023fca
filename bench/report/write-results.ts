import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BenchResults, MachineInfo } from './bench-results';
import { renderMarkdown } from './render-markdown';

export interface WrittenResults {
  json: string;
  markdown: string;
  example: string | null;
}

/**
 * Writes `<stamp>.json` and `<stamp>.md`, refreshes `latest.json`/`latest.md`, and with `example` also
 * `example-<date>.md`, the one file of the folder that git keeps.
 */
export async function writeResults(
  results: BenchResults,
  directory: string,
  options: { example: boolean },
): Promise<WrittenResults> {
  await mkdir(directory, { recursive: true });
  const stamp = results.startedAt.replace(/[:.]/g, '-');
  const json = `${JSON.stringify(results, null, 2)}\n`;
  const markdown = `${renderMarkdown(results)}\n`;
  const jsonPath = path.join(directory, `${stamp}.json`);
  const markdownPath = path.join(directory, `${stamp}.md`);
  await writeFile(jsonPath, json);
  await writeFile(markdownPath, markdown);
  await writeFile(path.join(directory, 'latest.json'), json);
  await writeFile(path.join(directory, 'latest.md'), markdown);
  let examplePath: string | null = null;
  if (options.example) {
    examplePath = path.join(directory, `example-${results.startedAt.slice(0, 10)}.md`);
    await writeFile(examplePath, markdown);
  }
  return { json: jsonPath, markdown: markdownPath, example: examplePath };
}

export function describeMachine(): MachineInfo {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown CPU',
    memoryGiB: Math.round(os.totalmem() / 1024 ** 3),
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    loadAverage: { start: roundLoad(os.loadavg()[0]), end: null },
  };
}

/** The current one-minute load average, for the end of the run. */
export function currentLoadAverage(): number {
  return roundLoad(os.loadavg()[0]);
}

function roundLoad(value: number | undefined): number {
  return Math.round((value ?? 0) * 100) / 100;
}
