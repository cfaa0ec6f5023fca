import { execFileSync, spawn, type ChildProcess } from 'node:child_process';

/** A command run in a remote team's project folder; its output, or a thrown error with it. */
export function runInProject(dir: string, command: string, args: string[]): string {
  return execFileSync(command, args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export interface ProjectDevServer {
  process: ChildProcess;
  /** Waits until the output written since `from` (an offset into it) matches; throws after a minute. */
  until(pattern: RegExp, from?: number): Promise<void>;
  output(): string;
  /** Ends `npm run dev` and the processes it started (its own process group). */
  stop(): void;
}

/** `npm run dev -- --port <port>` in a project, once its first build (`Built <remote>`) is done. */
export async function startProjectDevServer(dir: string, remote: string, port: number): Promise<ProjectDevServer> {
  const started = spawn('npm', ['run', 'dev', '--', '--port', String(port)], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  started.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  started.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const until = async (pattern: RegExp, from = 0) => {
    const deadline = Date.now() + 60_000;
    while (!pattern.test(output.slice(from))) {
      if (Date.now() > deadline) throw new Error(`dev server: no ${pattern} in:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const server = {
    process: started,
    until,
    output: () => output,
    stop: () => {
      if (started.pid && started.exitCode === null) process.kill(-started.pid, 'SIGTERM');
    },
  };
  try {
    await until(new RegExp(`Built ${remote}`));
  } catch (error) {
    server.stop();
    throw error;
  }
  return server;
}
