import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import fs from 'node:fs';
import path from 'node:path';
import pino, { type Logger } from 'pino';
import { makeTempDir } from '../../testing/temp-dir';
import {
  STORES_CLOSE_MIN_MS,
  STORES_CLOSE_TIMEOUT_MESSAGE,
  createGracefulShutdown,
  shutdownSettingsFromEnv,
} from './graceful-shutdown';
import { createLogger } from '../logger';
import { ServerLifecycle } from './server-lifecycle';

interface Harness {
  port: number;
  lifecycle: ServerLifecycle;
  events: string[];
  exits: number[];
  shutdown: ReturnType<typeof createGracefulShutdown>;
  /** Lets the pending /slow requests answer. */
  release: () => void;
  /** Resolves once a /slow request has reached its handler: it is in flight from then on. */
  slowStarted: Promise<void>;
  server: http.Server;
}

const servers: http.Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

async function harness(
  settings = { drainDelayMs: 0, timeoutMs: 5_000 },
  {
    logger = createLogger('test'),
    atExit,
    closeResources = async () => undefined,
  }: { logger?: Logger; atExit?: () => void; closeResources?: () => Promise<void> } = {},
): Promise<Harness> {
  const lifecycle = new ServerLifecycle();
  const events: string[] = [];
  const exits: number[] = [];
  let releaseSlow!: () => void;
  const slowGate = new Promise<void>((resolve) => (releaseSlow = resolve));
  let startedSlow!: () => void;
  const slowStarted = new Promise<void>((resolve) => (startedSlow = resolve));
  const app = express();
  app.use(lifecycle.connectionCloser);
  app.get('/readyz', (_req, res) => {
    res.status(lifecycle.draining ? 503 : 200).json({ status: lifecycle.draining ? 'unavailable' : 'ok' });
  });
  app.get('/slow', async (_req, res) => {
    startedSlow();
    await slowGate;
    events.push('slow answered');
    res.json({ done: true });
  });
  const server = http.createServer(app);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const shutdown = createGracefulShutdown({
    server,
    lifecycle,
    logger,
    settings,
    closeResources: async () => {
      await closeResources();
      events.push('resources closed');
    },
    exit: (code) => {
      atExit?.();
      events.push(`exit ${code}`);
      exits.push(code);
    },
  });
  return {
    port: (server.address() as AddressInfo).port,
    lifecycle,
    events,
    exits,
    shutdown,
    release: releaseSlow,
    slowStarted,
    server,
  };
}

function get(
  port: number,
  path: string,
  agent?: http.Agent,
): Promise<{ status: number; body: string; connection?: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent: agent ?? false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }));
      })
      .on('error', reject);
  });
}

describe('createGracefulShutdown', () => {
  it('turns readiness off, lets the in-flight request finish, then closes resources and exits 0', async () => {
    const h = await harness({ drainDelayMs: 300, timeoutMs: 5_000 });
    h.lifecycle.beforeCut(() => h.events.push('cutting'));
    const inFlight = get(h.port, '/slow');
    await h.slowStarted;
    const done = h.shutdown('SIGTERM');
    expect(h.lifecycle.draining).toBe(true);

    // During the drain delay the listener still accepts, and says "not ready".
    const probe = await get(h.port, '/readyz');
    expect(probe.status).toBe(503);
    expect(probe.connection).toBe('close');
    expect(h.exits).toEqual([]);

    h.release();
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ done: true });
    // It arrived before the shutdown, yet its answer also asks the client to reconnect elsewhere.
    expect(answer.connection).toBe('close');
    await expect(done).resolves.toBe('clean');
    // Nothing was cut: the request log's listener is never told.
    expect(h.events).toEqual(['slow answered', 'resources closed', 'exit 0']);
    await expect(get(h.port, '/readyz')).rejects.toThrow(/ECONNREFUSED/);
  });

  it('exits once every line it logged is written, in order', async () => {
    const folder = makeTempDir();
    const file = path.join(folder.path, 'server.log');
    // The server's own stdout stream (sonic-boom), which writes asynchronously.
    const logger = createLogger('production', 'info', pino.destination({ dest: file, sync: false }));
    let linesAtExit: string[] = [];
    const h = await harness(undefined, {
      logger,
      atExit: () => {
        linesAtExit = fs
          .readFileSync(file, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => (JSON.parse(line) as { msg: string }).msg);
      },
    });
    try {
      await expect(h.shutdown('SIGTERM')).resolves.toBe('clean');
      expect(linesAtExit).toEqual(['shutting down: no longer ready', 'stopped']);
    } finally {
      folder.remove();
    }
  });

  it('is not held open by an idle keep-alive connection', async () => {
    const h = await harness();
    const agent = new http.Agent({ keepAlive: true });
    expect((await get(h.port, '/readyz', agent)).status).toBe(200);
    const started = Date.now();
    await expect(h.shutdown('SIGTERM')).resolves.toBe('clean');
    // Well below the shutdown's timeout (5 s), which an open connection would wait for.
    expect(Date.now() - started).toBeLessThan(3_000);
    agent.destroy();
  });

  it('cuts requests still running at the timeout and exits 1', async () => {
    const h = await harness({ drainDelayMs: 0, timeoutMs: 200 });
    const inFlight = get(h.port, '/slow').then(
      () => 'answered',
      (error: Error) => error.message,
    );
    await h.slowStarted;
    // What the request log listens for: told while the requests are still there to be logged.
    h.lifecycle.beforeCut(() => h.events.push('cutting'));
    await expect(h.shutdown('SIGTERM')).resolves.toBe('forced');
    expect(await inFlight).toMatch(/socket hang up|ECONNRESET/);
    expect(h.exits).toEqual([1]);
    expect(h.events).toEqual(['cutting', 'resources closed', 'exit 1']);
    h.release();
  });

  it('exits 1 without the stores when they do not close within what is left of the timeout, saying so', async () => {
    const lines: Array<{ level: number; msg: string; waitedMs?: number }> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    // As a pool waiting for connections that a frozen PostgreSQL holds: it never ends within the shutdown.
    const h = await harness(
      { drainDelayMs: 0, timeoutMs: 200 },
      { logger, closeResources: () => new Promise(() => {}) },
    );
    const started = Date.now();
    await expect(h.shutdown('SIGTERM')).resolves.toBe('failed');
    const tookMs = Date.now() - started;
    // Nothing was in flight: the stores had the least time they get, not the 200 ms left of the timeout.
    expect(tookMs).toBeGreaterThanOrEqual(STORES_CLOSE_MIN_MS - 50);
    expect(tookMs).toBeLessThan(STORES_CLOSE_MIN_MS + 2_000);
    expect(h.exits).toEqual([1]);
    expect(lines.map(({ level, msg }) => [level, msg])).toEqual([
      [30, 'shutting down: no longer ready'],
      [50, STORES_CLOSE_TIMEOUT_MESSAGE],
      [30, 'stopped'],
    ]);
    expect(lines[1]?.waitedMs).toBe(STORES_CLOSE_MIN_MS);
  });

  it('gives the stores what is left of the timeout when the requests left more than the least time', async () => {
    // A log that is not a stream to end: the measure is the stores' wait, not the log's (up to 2 s, endLog).
    const logger = pino({ level: 'info' }, { write: () => undefined });
    const h = await harness(
      { drainDelayMs: 0, timeoutMs: STORES_CLOSE_MIN_MS + 1_500 },
      { logger, closeResources: () => new Promise(() => {}) },
    );
    const started = Date.now();
    await expect(h.shutdown('SIGTERM')).resolves.toBe('failed');
    const tookMs = Date.now() - started;
    expect(tookMs).toBeGreaterThanOrEqual(STORES_CLOSE_MIN_MS + 1_400);
    expect(tookMs).toBeLessThan(STORES_CLOSE_MIN_MS + 3_000);
  });

  it('runs once however many signals arrive', async () => {
    const h = await harness();
    const first = h.shutdown('SIGTERM');
    const second = h.shutdown('SIGINT');
    expect(second).toBe(first);
    await first;
    expect(h.exits).toEqual([0]);
  });
});

describe('shutdownSettingsFromEnv', () => {
  it('defaults to no delay and a 10 s limit, and reads both variables', () => {
    expect(shutdownSettingsFromEnv({})).toEqual({ drainDelayMs: 0, timeoutMs: 10_000 });
    expect(shutdownSettingsFromEnv({ SHUTDOWN_DELAY_MS: '2000', SHUTDOWN_TIMEOUT_MS: '30000' })).toEqual({
      drainDelayMs: 2_000,
      timeoutMs: 30_000,
    });
  });
});
