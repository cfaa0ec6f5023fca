import { startServerProcess, type ServerProcess } from '../../testing/system/server-process';
import { compiledEntry } from './compiled-entry';

export interface BenchProcessOptions {
  name: string;
  /** TypeScript entry that listens on PORT/HOST, relative to the repository root; compiled before it starts. */
  entry: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Where the process's stdout and stderr go. */
  logFile: string;
  /** Extra Node flags, e.g. `--cpu-prof`. */
  nodeArgs?: readonly string[];
  /** The server speaks HTTPS: its URL and readiness probe are `https://…`. */
  https?: boolean;
}

/**
 * A server under load as its own production Node process (`node <the entry compiled>`; compiled-entry.ts says why not
 * tsx), started and awaited by the shared test helper. Its output goes to a log file rather than back through a pipe:
 * the bench process also runs the load generator, and reading tens of megabytes of request logs would steal its CPU
 * and skew every figure. `sh -c exec` only redirects: the server replaces the shell, so the pid and signals are the
 * server's own.
 */
export async function startBenchProcess(options: BenchProcessOptions): Promise<ServerProcess> {
  const { file } = await compiledEntry(options.entry);
  const command = [
    'exec',
    shellQuote(process.execPath),
    ...(options.nodeArgs ?? []).map(shellQuote),
    shellQuote(file),
    `>>${shellQuote(options.logFile)}`,
    '2>&1',
  ].join(' ');
  return startServerProcess({
    name: options.name,
    command: '/bin/sh',
    args: ['-c', command],
    env: { NODE_ENV: 'production', ...options.env },
    readyTimeoutMs: 60_000,
    https: options.https ?? false,
  });
}

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
