import { spawn } from 'node:child_process';
import http from 'node:http';
import https from 'node:https';
import { parsedLogLines } from '../server/log-lines';
import { REPO_ROOT } from './repo-root';
import { getFreePort, releasePort } from './free-port';
import { killGroupAndWait, signalGroup, trackGroup } from './server-process-group';

export interface ServerProcessOptions {
  /** Label used in error messages, e.g. `app server`. */
  name?: string;
  /** Executable to run; the current Node binary when omitted. */
  command?: string;
  args: readonly string[];
  /** Working directory; the repository root when omitted. */
  cwd?: string;
  /**
   * Variables laid over the parent's environment; `undefined` removes one. PORT and HOST are always set by the
   * helper from `port` and `host`, so the child listens where the helper waits for it.
   */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * A free port is picked when omitted, and given back (free-port.ts) once the process and every other process of
   * its group are gone: when it exits, or with `killGroupOnExit: false` when `stop()` has ended what it left.
   */
  port?: number;
  host?: string;
  /**
   * The process speaks HTTPS (TLS_CERT_FILE and TLS_KEY_FILE in `env`): the URL is `https://…`, and the readiness
   * probe skips verifying the certificate (a test's own, self-signed).
   */
  https?: boolean;
  /** Path polled until it answers 200; `/readyz` when omitted. */
  readyPath?: string;
  readyTimeoutMs?: number;
  /** Bytes of each output stream kept in memory (the newest ones); 1 MiB when omitted. */
  maxOutputBytes?: number;
  /**
   * Whether the rest of the process group is killed when the process started exits (true when omitted). False lets
   * a test see what its children do on their own once it is gone (`stop()` still kills the group, whether the
   * process started exited before or only on the SIGTERM).
   */
  killGroupOnExit?: boolean;
}

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  readonly name: string;
  readonly pid: number;
  readonly host: string;
  readonly port: number;
  /** `http://<host>:<port>` (`https://…` with the `https` option), without a trailing slash. */
  readonly url: string;
  /** Everything the process wrote so far (bounded by maxOutputBytes). */
  stdout(): string;
  stderr(): string;
  /**
   * The server's whole log lines so far, parsed (testing/server/log-lines.ts). `T` names the fields a test reads.
   */
  logLines<T = Record<string, unknown>>(): T[];
  /** Resolves once `pattern` appears in stdout or stderr; rejects after `timeoutMs` or when the process exits. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Settles when the process exits, whoever ended it. */
  readonly exited: Promise<ProcessExit>;
  /**
   * SIGTERM to the whole process group, SIGKILL after `graceMs` (5 s), and SIGKILL to what is left of the group once
   * the process started has exited; resolves with its exit once none of the group runs (5 s at most after that
   * SIGKILL: a port is given back only when none does). Idempotent.
   */
  stop(options?: { graceMs?: number }): Promise<ProcessExit>;
}

const READY_POLL_MS = 100;
const READY_PROBE_TIMEOUT_MS = 2_000;

/**
 * Starts a server as a child process in its own process group, waits until `readyPath` answers 200, and captures
 * its output. The caller must `stop()` it (normally in afterAll/afterEach).
 */
export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const name = options.name ?? 'server';
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? (await getFreePort(host));
  const readyPath = options.readyPath ?? '/readyz';
  const readyTimeoutMs = options.readyTimeoutMs ?? 30_000;
  const maxOutputBytes = options.maxOutputBytes ?? 1024 * 1024;
  const url = `${options.https ? 'https' : 'http'}://${host}:${port}`;

  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  env.PORT = String(port);
  env.HOST = host;

  const child = spawn(options.command ?? process.execPath, [...options.args], {
    cwd: options.cwd ?? REPO_ROOT,
    env,
    // Its own process group, so stop() also reaches any grandchild (a wrapper CLI, a worker).
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid;
  if (pid === undefined) {
    const spawnError = await new Promise<Error>((resolve) => child.once('error', resolve));
    throw new Error(`Could not start the ${name} (${options.command ?? process.execPath}): ${spawnError.message}`);
  }
  trackGroup(pid);

  const output = { stdout: '', stderr: '' };
  const outputListeners = new Set<() => void>();
  const capture = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
    const text = output[stream] + chunk.toString('utf8');
    output[stream] = text.length > maxOutputBytes ? text.slice(text.length - maxOutputBytes) : text;
    for (const listener of outputListeners) listener();
  };
  child.stdout.on('data', capture('stdout'));
  child.stderr.on('data', capture('stderr'));

  let exitInfo: ProcessExit | null = null;
  const exited = new Promise<ProcessExit>((resolve) => {
    child.once('exit', (code, signal) => {
      exitInfo = { code, signal };
      // The leader is gone; anything it started in its group goes with it (unless the test watches them).
      if (options.killGroupOnExit ?? true) endGroup().catch(() => {}); // stop() reports what went wrong
      for (const listener of outputListeners) listener();
      resolve(exitInfo);
    });
  });

  const describeOutput = (): string =>
    `--- ${name} stdout ---\n${tail(output.stdout)}\n--- ${name} stderr ---\n${tail(output.stderr)}`;

  // Once every process of the group is gone, and with it whatever listened on the port, the port is given back (a
  // port the caller gave stays the caller's); not while one of them may still listen there.
  let groupEnded: Promise<void> | undefined;
  const endGroup = (): Promise<void> =>
    (groupEnded ??= killGroupAndWait(pid).then((gone) => {
      if (gone && options.port === undefined) releasePort(port);
    }));

  let stopping: Promise<ProcessExit> | null = null;
  const stop = (stopOptions: { graceMs?: number } = {}): Promise<ProcessExit> => {
    if (stopping) return stopping;
    stopping = (async () => {
      if (!exitInfo) {
        signalGroup(pid, 'SIGTERM');
        const graceMs = stopOptions.graceMs ?? 5_000;
        let timer: NodeJS.Timeout | undefined;
        const killed = new Promise<void>((resolve) => {
          timer = setTimeout(() => {
            signalGroup(pid, 'SIGKILL');
            resolve();
          }, graceMs);
        });
        await Promise.race([exited, killed]);
        clearTimeout(timer);
      }
      const exit = await exited;
      // What the group kept after the leader exited (killGroupOnExit: false) ends with it, before the port is back.
      await endGroup();
      return exit;
    })();
    return stopping;
  };

  const waitForOutput = (pattern: RegExp, timeoutMs = 10_000): Promise<RegExpMatchArray> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const match = output.stdout.match(pattern) ?? output.stderr.match(pattern);
        if (match) {
          done();
          resolve(match);
        } else if (exitInfo) {
          done();
          reject(new Error(`The ${name} exited before printing ${pattern}.\n${describeOutput()}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`The ${name} did not print ${pattern} within ${timeoutMs} ms.\n${describeOutput()}`));
      }, timeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        outputListeners.delete(check);
      };
      outputListeners.add(check);
      check();
    });

  try {
    await waitUntilReady(`${url}${readyPath}`, readyTimeoutMs, () => exitInfo);
  } catch (error) {
    await stop({ graceMs: 1_000 });
    throw new Error(
      `The ${name} did not become ready at ${url}${readyPath}: ${(error as Error).message}\n${describeOutput()}`,
    );
  }

  return {
    name,
    pid,
    host,
    port,
    url,
    stdout: () => output.stdout,
    stderr: () => output.stderr,
    logLines: <T>() => parsedLogLines<T>(output.stdout),
    waitForOutput,
    exited,
    stop,
  };
}

async function waitUntilReady(url: string, timeoutMs: number, exitOf: () => ProcessExit | null): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastProblem = 'no answer yet';
  while (Date.now() < deadline) {
    const exit = exitOf();
    if (exit) throw new Error(`the process exited (code ${exit.code}, signal ${exit.signal})`);
    const status = await probe(url);
    if (status === 200) return;
    lastProblem = typeof status === 'number' ? `last answer was HTTP ${status}` : status;
    await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
  }
  throw new Error(`timed out after ${timeoutMs} ms (${lastProblem})`);
}

/** The status of one GET, or why there was none. No keep-alive, so no socket outlives the probe. */
function probe(url: string): Promise<number | string> {
  return new Promise((resolve) => {
    const get = url.startsWith('https:') ? https.get : http.get;
    const options = { agent: false, timeout: READY_PROBE_TIMEOUT_MS, rejectUnauthorized: false };
    const request = get(url, options, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('timeout', () => request.destroy(new Error('probe timed out')));
    request.on('error', (error) => resolve(error.message));
  });
}

function tail(text: string, lines = 40): string {
  return text.split('\n').slice(-lines).join('\n');
}
