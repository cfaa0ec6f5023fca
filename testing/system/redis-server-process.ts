import { spawn, type ChildProcess } from 'node:child_process';
import { getFreePort, releasePort } from './free-port';
import { redisPing } from './redis-ping';

export interface RedisServerOptions {
  /** The redis-server executable; the Debian package puts it on PATH. */
  binary?: string;
  /** How long to wait for the first PONG. */
  startTimeoutMs?: number;
  /** A fixed port, e.g. to bring Redis back where the servers expect it; a free one when omitted. */
  port?: number;
}

const PORT_ATTEMPTS = 3;
const STOP_GRACE_MS = 5000;

/**
 * The Redis servers of each port `start()` picked: the first, and those the test brought back on its port after a
 * crash (`start({ port })`). The port is given back (`releasePort`) when `stop()` leaves none of them running, not
 * when one is killed, so that no other server of the test file takes the port between a crash and the restart.
 */
const onPickedPort = new Map<number, Set<RedisServerProcess>>();

/**
 * A throwaway `redis-server` child process: a free port on 127.0.0.1, no RDB snapshots, no append-only file, so
 * nothing is written to disk and nothing survives `stop()`. Ready once it answers PING.
 */
export class RedisServerProcess {
  private outputText = '';
  private exitPromise: Promise<void>;
  private exited = false;
  private readonly killOnParentExit = (): void => {
    this.child.kill('SIGKILL');
  };

  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
  ) {
    child.stdout?.on('data', (chunk: Buffer) => this.record(chunk));
    child.stderr?.on('data', (chunk: Buffer) => this.record(chunk));
    this.exitPromise = new Promise((resolve) => {
      child.once('exit', () => {
        this.exited = true;
        process.off('exit', this.killOnParentExit);
        resolve();
      });
    });
    // A test runner that dies mid-test must not leave a Redis listening behind it.
    process.on('exit', this.killOnParentExit);
  }

  static async start(options: RedisServerOptions = {}): Promise<RedisServerProcess> {
    let lastError: Error | undefined;
    const attempts = options.port === undefined ? PORT_ATTEMPTS : 1;
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      const port = options.port ?? (await getFreePort());
      const redis = await RedisServerProcess.spawnOn(port, options);
      try {
        await redis.waitUntilReady(options.startTimeoutMs ?? 10_000);
        const servers = options.port === undefined ? new Set<RedisServerProcess>() : onPickedPort.get(port);
        if (servers) onPickedPort.set(port, servers.add(redis));
        return redis;
      } catch (error) {
        await redis.stop();
        if (options.port === undefined) releasePort(port);
        lastError = error instanceof Error ? error : new Error(String(error));
        // Only a port taken between getFreePort() and the bind is worth another try.
        if (!/address already in use/i.test(redis.output())) throw lastError;
      }
    }
    throw lastError ?? new Error('redis-server did not start.');
  }

  private static spawnOn(port: number, options: RedisServerOptions): Promise<RedisServerProcess> {
    const binary = options.binary ?? 'redis-server';
    const child = spawn(
      binary,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    return new Promise((resolve, reject) => {
      child.once('spawn', () => resolve(new RedisServerProcess(child, port)));
      child.once('error', (error: NodeJS.ErrnoException) => {
        reject(
          error.code === 'ENOENT'
            ? new Error(`${binary} is not installed: apt-get install redis-server (.ci/run does it).`)
            : error,
        );
      });
    });
  }

  /** `redis://127.0.0.1:<port>`, the value for REDIS_URL. */
  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return !this.exited;
  }

  /** What the server printed so far (for failure messages). */
  output(): string {
    return this.outputText;
  }

  /**
   * SIGTERM, then SIGKILL if it has not exited after a grace period. Safe to call twice. The last Redis stopped on a
   * port `start()` picked gives the port back (see `onPickedPort`): to bring Redis back on its port, `kill()` it.
   */
  async stop(): Promise<void> {
    if (!this.exited) {
      this.resume();
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), STOP_GRACE_MS);
      await this.exitPromise;
      clearTimeout(timer);
    }
    const servers = onPickedPort.get(this.port);
    if (!servers?.has(this) || [...servers].some((redis) => redis.running)) return;
    onPickedPort.delete(this.port);
    releasePort(this.port);
  }

  /**
   * SIGKILL at once: Redis "goes away" the way a crashed or unreachable server does. Its port stays held for a Redis
   * started again on it (`start({ port })`) until `stop()`.
   */
  async kill(): Promise<void> {
    if (this.exited) return;
    this.child.kill('SIGKILL');
    await this.exitPromise;
  }

  /**
   * SIGSTOP: Redis stops answering but keeps its data and connections, as a server frozen by its host or cut off by
   * the network does; `resume()` (SIGCONT) brings it back with every session it held.
   */
  pause(): void {
    if (!this.exited) this.child.kill('SIGSTOP');
  }

  resume(): void {
    if (!this.exited) this.child.kill('SIGCONT');
  }

  private async waitUntilReady(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.exited) {
        throw new Error(`redis-server exited before answering PING on port ${this.port}:\n${this.outputText}`);
      }
      if (await redisPing(this.port, 500)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`redis-server gave no PONG on port ${this.port} within ${timeoutMs} ms:\n${this.outputText}`);
  }

  private record(chunk: Buffer): void {
    // Keep the tail only: enough to explain a failure, bounded for a long run.
    this.outputText = (this.outputText + chunk.toString('utf8')).slice(-16_384);
  }
}
