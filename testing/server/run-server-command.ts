import { spawn } from 'node:child_process';
import path from 'node:path';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

export interface CommandRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * A server command (`server/cli/<script>`) as its npm script runs it, with tsx, from the repository root: `env` on top
 * of this process's environment (the database settings), `input` piped to stdin.
 */
export function runServerCommand(
  script: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  input = '',
): Promise<CommandRun> {
  const file = path.join(REPO_ROOT, 'server', 'cli', script);
  return runNode(['--import', 'tsx', file, ...args], REPO_ROOT, env, input);
}

/** `node <argv>` in `cwd`, `env` on top of this process's environment, `input` piped to stdin. */
export function runNode(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv, input = ''): Promise<CommandRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}
