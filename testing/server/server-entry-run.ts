/**
 * A server entry run as a child process by tsx, as `npm run serve` runs server/main.ts: on a free port of 127.0.0.1,
 * in production mode, without Redis, its output captured. For tests of the start-up itself; tests of what a running
 * server answers start it with testing/system/server-process.ts.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { parsedLogLines } from './log-lines';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

export interface EntryRun {
  output: () => string;
  /** Its whole JSON log lines so far, parsed (log-lines.ts). */
  logLines: <T = Record<string, unknown>>() => T[];
  exited: Promise<number | null>;
  kill: (signal: NodeJS.Signals) => void;
}

/** Starts `entry` (a path from the repository's root) with `env` over the defaults above. */
export function runServerEntry(entry: string, env: Record<string, string>): EntryRun {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, entry)], {
    cwd: REPO_ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'production', REDIS_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  return {
    output: () => output,
    logLines: <T>() => parsedLogLines<T>(stdout),
    exited,
    kill: (signal) => child.kill(signal),
  };
}

/** The address the start message prints, once it has (30 s at most). */
export async function printedUrl(started: EntryRun): Promise<string> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    // `open <url>`, or with PUBLIC_URL `open <PUBLIC_URL> (this server listens on <url>)`.
    const match = /(?:open|listens on) (https?:\/\/127\.0\.0\.1:\d+)\//.exec(started.output());
    if (match?.[1]) return match[1];
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no URL printed:\n${started.output()}`);
}
