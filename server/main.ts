/**
 * The entry that listens: reads the environment (server/config.ts), builds the app with the demo content, listens,
 * prints where to open it and how to sign in, and shuts down gracefully on SIGTERM/SIGINT.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createApp, type App } from './app';
import { DEFAULT_DATABASE_PATH, readConfig } from './config';
import { createLogger } from './logger';
import { loadOrCreateSessionSecret } from './session-secret';
import { formatStartMessage } from './start-message';

/** How long in-flight requests may take to finish after a stop signal before connections are cut. */
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  const config = readConfig(process.env);
  const logger = createLogger(config.nodeEnv, config.logLevel);
  const sessionSecret = config.sessionSecret ?? [loadOrCreateSessionSecret(config.databasePath).secret];

  const app = createApp({
    databasePath: config.databasePath,
    sessionSecret,
    nodeEnv: config.nodeEnv,
    redisUrl: config.redisUrl,
    trustProxy: config.trustProxy,
    sessionIdleMs: config.sessionIdleMs,
    sessionAbsoluteMs: config.sessionAbsoluteMs,
    logger,
    logRequests: config.logRequests,
    env: process.env,
    demo: { adminPassword: config.demoPassword },
  });
  try {
    await app.ready();
  } catch (error) {
    await app.close();
    throw error;
  }

  const server = http.createServer(app.handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  logger.info({ host: config.host, port, sessions: app.sessions.kind }, 'listening');

  const isDefaultDatabase = config.databasePath === path.resolve(DEFAULT_DATABASE_PATH);
  process.stdout.write(
    formatStartMessage({
      url: `http://${displayHost(config.host)}:${port}/`,
      account: app.demoAccount,
      databasePathForCommand: isDefaultDatabase ? undefined : config.databasePath,
    }),
  );

  installShutdown(server, app, logger);
}

function installShutdown(server: http.Server, app: App, logger: App['logger']): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second stop signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'stopping: no new connections, finishing requests in flight');
    const force = setTimeout(() => {
      logger.warn('requests still running after the grace period: closing their connections');
      server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    server.close((error) => {
      clearTimeout(force);
      if (error) logger.error({ err: error }, 'server close failed');
      app
        .close()
        .then(() => {
          logger.info('stopped');
          process.exitCode = 0;
        })
        .catch((closeError: unknown) => {
          logger.error({ err: closeError }, 'closing the stores failed');
          process.exitCode = 1;
        })
        .finally(() => {
          // Nothing should keep the process alive now; make sure of it.
          setTimeout(() => process.exit(), 1_000).unref();
        });
    });
    // Keep-alive connections with no request in flight would hold server.close() open.
    server.closeIdleConnections();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

function displayHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

main().catch((error: unknown) => {
  process.stderr.write(`The server could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
