import { spawn } from 'node:child_process';
import path from 'node:path';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** A server command running on a terminal: what it wrote so far, a way to type, and its exit code once closed. */
export interface CommandInTerminal {
  /** Resolves once the terminal shows `text` (rejects after 20 s, with what it showed). */
  waitFor(text: string): Promise<void>;
  type(text: string): void;
  end(): void;
  readonly closed: Promise<number | null>;
  output(): string;
}

/**
 * `server/cli/<script>` as its npm script runs it (tsx, from the repository root), on a terminal that `script` gives
 * it (util-linux), so `process.stdin.isTTY` holds as for an operator at a shell: what the commands ask on a terminal
 * only (a hidden password, a confirmation) can be tested. `env` on top of this process's environment.
 */
export function serverCommandInTerminal(
  script: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): CommandInTerminal {
  return nodeInTerminal(['--import', 'tsx', path.join(REPO_ROOT, 'server', 'cli', script), ...args], REPO_ROOT, env);
}

/** `node <argv>` in `cwd` on a terminal, as above (a compiled command: compiled-server-commands.ts). */
export function nodeInTerminal(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv): CommandInTerminal {
  const command = [process.execPath, ...argv].join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const waitFor = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "${text}" in:\n${output}`)), 20_000);
      const check = () => {
        if (output.includes(text)) {
          clearTimeout(timer);
          child.stdout.off('data', check);
          resolve();
        }
      };
      child.stdout.on('data', check);
      check();
    });
  const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
  return {
    waitFor,
    type: (text: string) => child.stdin.write(text),
    end: () => child.stdin.end(),
    closed,
    output: () => output,
  };
}
