import { spawn } from 'node:child_process';

/**
 * The OCI runtime every podman call names: Debian's default, crun, fails on these machines (hybrid cgroups, its
 * setrlimit calls); runc works. A global option, so builds (their RUN steps) use it too.
 */
export const PODMAN_RUNTIME = 'runc';

export interface PodmanRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface PodmanOptions {
  /** Piped to stdin (e.g. a password for a CLI run in a container). */
  input?: string;
  /** Lines of output go to this as they come (long builds show their progress instead of a silent minute). */
  onOutput?: (line: string) => void;
  /** Resolve with the failure instead of rejecting (a test that expects a non-zero exit). */
  allowFailure?: boolean;
  /** Variables for podman itself beside this process's (CONTAINERS_CONF for a play of its own settings). */
  env?: Record<string, string>;
}

/** `podman --runtime runc <args>`; rejects with the command and its output when it exits non-zero. */
export function podman(args: readonly string[], options: PodmanOptions = {}): Promise<PodmanRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('podman', ['--runtime', PODMAN_RUNTIME, ...args], {
      env: { ...process.env, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const forward = (text: string): void => {
      if (!options.onOutput) return;
      for (const line of text.split('\n')) if (line.trim() !== '') options.onOutput(line);
    };
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      forward(chunk.toString());
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      forward(chunk.toString());
    });
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0 || options.allowFailure) resolve({ code, stdout, stderr });
      else reject(new Error(`podman ${args.join(' ')} exited ${code}\n${tail(stdout)}\n${tail(stderr)}`));
    });
    child.stdin.end(options.input ?? '');
  });
}

/** Whether the local store holds an image of that name (`podman image exists`). */
export async function imageExists(name: string): Promise<boolean> {
  return (await podman(['image', 'exists', name], { allowFailure: true })).code === 0;
}

function tail(text: string, lines = 40): string {
  return text.split('\n').slice(-lines).join('\n');
}
