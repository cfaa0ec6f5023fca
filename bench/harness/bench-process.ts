import path from 'node:path';
import { REPO_ROOT } from '../../testing/system/repo-root';
import { startServerProcess, type ServerProcess } from '../../testing/system/server-process';

export interface BenchProcessOptions {
  name: string;
  /** TypeScript entry that listens on PORT/HOST, relative to the repository root. */
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
 * A server under load as its own production Node process (`node --import tsx <entry>`), started and awaited by the
 * shared test helper. Its output goes to a log file rather than back through a pipe: the bench process also runs
 * the load generator, and reading tens of megabytes of request logs would steal its CPU and skew every figure.
 * `sh -c exec` only redirects: the server replaces the shell, so the pid and signals are the server's own.
 */
export function startBenchProcess(options: BenchProcessOptions): Promise<ServerProcess> {
  const command = [
    'exec',
    shellQuote(process.execPath),
    ...(options.nodeArgs ?? []).map(shellQuote),
    '--import',
    'tsx',
    shellQuote(path.join(REPO_ROOT, options.entry)),
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
