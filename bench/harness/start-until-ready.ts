import { spawn } from 'node:child_process';
import { getFreePort } from '../../testing/system/free-port';

/** One start of a server, as the start-up benchmarks time it. */
export interface ServerStart {
  /** Node's arguments: its flags, then the entry. */
  args: readonly string[];
  /** The server's environment; PORT is set here. */
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** How often `/readyz` is asked: every poll may come up to this late after the server could answer. */
  pollMs: number;
  timeoutMs: number;
}

export interface ReadyServer {
  /**
   * From spawning `node` to its first answer to `/readyz`, whatever the status: it listens and answers its probes,
   * `/healthz` 200 from then. A start that listens once ready answers 200 at once (the same figure as readyMs); one
   * that listens while starting (PostgreSQL applying the schema steps: health/starting-listener.ts) answers 503 first.
   */
  answeredMs: number;
  /** From spawning `node` to the first 200 of `/readyz` (its stores answer, its start-up done), seen from outside. */
  readyMs: number;
  pid: number;
}

/**
 * Spawns the server as a supervisor would, asks `/readyz` until it answers 200, hands it to `use` (to read its memory,
 * or a file it wrote), and stops it with SIGTERM whatever happens. Shared by bench/suites/server-startup.ts (time to
 * ready, idle memory) and bench/startup-phases.ts (the same start, phase by phase), so the two time one start. Not
 * `/healthz`: a start that listens while it starts answers it 200 long before it can serve.
 */
export async function whileReady<T>(start: ServerStart, use: (server: ReadyServer) => Promise<T>): Promise<T> {
  const port = await getFreePort();
  const started = performance.now();
  const child = spawn(process.execPath, start.args, {
    cwd: start.cwd,
    env: { ...start.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The output's tail, for the error when the server stops before it is ready.
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let answeredMs: number | undefined;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`The server exited before it was ready:\n${output}`);
      if (performance.now() - started > start.timeoutMs) throw new Error(`Not ready in ${start.timeoutMs} ms.`);
      const status = await readyzStatus(port);
      const now = performance.now() - started;
      if (status !== undefined) answeredMs ??= now;
      if (status === 200) return await use({ answeredMs: answeredMs ?? now, readyMs: now, pid: child.pid! });
      await new Promise((resolve) => setTimeout(resolve, start.pollMs));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

/** The status `/readyz` answers with; undefined while nothing listens. */
async function readyzStatus(port: number): Promise<number | undefined> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/readyz`)).status;
  } catch {
    return undefined;
  }
}
