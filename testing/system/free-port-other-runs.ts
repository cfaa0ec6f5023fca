import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/** For the tests of free-port.ts and of the helpers that use it: other processes on the machine that take ports. */
export const FREE_PORT_MODULE = path.join(__dirname, 'free-port.ts');

/** Another run on the same machine: a process of its own that asks for a port and holds it until its stdin ends. */
export function otherRun(environment: NodeJS.ProcessEnv = {}): { child: ChildProcess; answer: Promise<string> } {
  return otherProcess(
    `require(${JSON.stringify(FREE_PORT_MODULE)}).getFreePort().then(
    (port) => console.log(port), (error) => console.log(error.message));`,
    environment,
  );
}

/** A process of its own running `code`, which prints one line; it lives until its stdin ends. */
export function otherProcess(
  code: string,
  environment: NodeJS.ProcessEnv,
): { child: ChildProcess; answer: Promise<string> } {
  const held = `${code}\nprocess.stdin.resume(); process.stdin.on('end', () => process.exit(0));`;
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', held], {
    env: { ...process.env, JEST_WORKER_ID: process.env.JEST_WORKER_ID ?? '1', ...environment },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const answer = new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(text.trim());
    });
    child.once('exit', (code) => reject(new Error(`the other run ended (${code}) before it answered: ${text}`)));
  });
  return { child, answer };
}

export function ended(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.stdin?.end();
  });
}

/** A port of this run's range that nobody holds: another run's, once that run has ended. */
export async function portNobodyHolds(): Promise<number> {
  const other = otherRun();
  try {
    const port = Number(await other.answer);
    if (!Number.isInteger(port)) throw new Error(`expected a port, got ${port}`);
    return port;
  } finally {
    await ended(other.child);
  }
}
