import { readdir, readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';

/** The instructions one callgrind dump counted, per thread (callgrind run with `--separate-threads=yes`). */
export interface ThreadInstructions {
  /** Thread 1: the process's main thread, where Node runs JavaScript and its event loop. */
  main: number;
  /** Every other thread: V8's background compilation and garbage collection, libuv's pool, a worker's. */
  background: number;
}

/**
 * The `summary:` line of one callgrind output file: the events it counted (instructions, with callgrind's default
 * `--collect` settings). Throws when the file has none: a dump cut short must not read as zero.
 */
export function summaryOf(text: string): number {
  const match = /^summary:\s+(\d+)/m.exec(text);
  if (!match) throw new Error('callgrind output without a summary line');
  return Number(match[1]);
}

/**
 * What the dump numbered `part` of `outFile` counted, main thread and the others apart. With `--separate-threads=yes`
 * callgrind writes one file per thread, `<outFile>.<part>-<thread>` (thread 01 first).
 */
export async function readThreadInstructions(outFile: string, part: number): Promise<ThreadInstructions> {
  const files = await dumpFiles(outFile, part);
  if (files.length === 0) throw new Error(`no callgrind dump ${dumpPrefix(outFile, part)}* next to ${outFile}`);
  let main = 0;
  let background = 0;
  for (const file of files) {
    const count = summaryOf(await readFile(file.path, 'utf8'));
    if (file.thread === 1) main += count;
    else background += count;
  }
  return { main, background };
}

/**
 * Resolves once the dump numbered `part` of `outFile` is written: `callgrind_control --dump` returns once it has
 * asked, and Valgrind writes the files a moment later. Written means every thread's file there, each ending with its
 * `totals:` line, and no new one after a further half second.
 */
export async function waitForDump(outFile: string, part: number, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let seen = -1;
  for (;;) {
    const files = await dumpFiles(outFile, part);
    const texts = await Promise.all(files.map((file) => readFile(file.path, 'utf8')));
    const complete = files.length > 0 && texts.every((text) => /^totals:/m.test(text));
    if (complete && files.length === seen) return;
    seen = complete ? files.length : -1;
    if (Date.now() > deadline) {
      throw new Error(`callgrind did not write ${dumpPrefix(outFile, part)}* within ${timeoutMs} ms`);
    }
    await sleep(500);
  }
}

/** The files of one dump: `<outFile>.<part>-<thread>` with `--separate-threads=yes`, thread 01 the main one. */
async function dumpFiles(outFile: string, part: number): Promise<{ path: string; thread: number }[]> {
  const prefix = dumpPrefix(outFile, part);
  const names = (await readdir(path.dirname(outFile))).filter((name) => name.startsWith(prefix));
  return names.map((name) => ({
    path: path.join(path.dirname(outFile), name),
    thread: Number(name.slice(prefix.length)),
  }));
}

function dumpPrefix(outFile: string, part: number): string {
  return `${path.basename(outFile)}.${part}-`;
}
