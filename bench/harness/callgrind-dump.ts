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
  const prefix = `${path.basename(outFile)}.${part}-`;
  const names = (await readdir(path.dirname(outFile))).filter((name) => name.startsWith(prefix));
  if (names.length === 0) throw new Error(`no callgrind dump ${prefix}* next to ${outFile}`);
  let main = 0;
  let background = 0;
  for (const name of names) {
    const count = summaryOf(await readFile(path.join(path.dirname(outFile), name), 'utf8'));
    if (Number(name.slice(prefix.length)) === 1) main += count;
    else background += count;
  }
  return { main, background };
}

/**
 * Resolves once the dump numbered `part` of `outFile` is written: `callgrind_control --dump` returns when it has
 * asked, and Valgrind writes the files when its process next runs code and looks for commands (a server waiting for
 * connections runs none: `poke`, called every half second until then, gives it some). Written means every thread's
 * file there, each ending with its `totals:` line, and no new one after a further half second.
 */
export async function waitForDump(
  outFile: string,
  part: number,
  poke: () => Promise<void> = async () => {},
  timeoutMs = 60_000,
): Promise<void> {
  const prefix = `${path.basename(outFile)}.${part}-`;
  const deadline = Date.now() + timeoutMs;
  let seen = -1;
  for (;;) {
    const names = (await readdir(path.dirname(outFile))).filter((name) => name.startsWith(prefix));
    const texts = await Promise.all(names.map((name) => readFile(path.join(path.dirname(outFile), name), 'utf8')));
    const complete = names.length > 0 && texts.every((text) => /^totals:/m.test(text));
    if (complete && names.length === seen) return;
    seen = complete ? names.length : -1;
    if (Date.now() > deadline) throw new Error(`callgrind did not write ${prefix}* within ${timeoutMs} ms`);
    await Promise.all([poke(), sleep(500)]);
  }
}
