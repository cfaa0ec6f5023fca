/**
 * The entry that listens: reads the environment (server/config.ts), builds the app with the demo content, listens
 * with the configured timeouts, prints where to open it and how to sign in, and shuts down gracefully on
 * SIGTERM/SIGINT (readiness off, requests in flight finished, stores closed, exit 0).
 */
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createApp } from './app';
import { DEFAULT_DATABASE_PATH, readConfig } from './config';
import { createGracefulShutdown, shutdownOnSignals } from './hardening/graceful-shutdown';
import { createHttpServer } from './hardening/http-server';
import { installProcessErrorHandlers } from './hardening/process-error-handlers';
import { createLogger } from './logger';
import { loadOrCreateSessionSecret } from './session-secret';
import { formatStartMessage } from './start-message';

async function main(): Promise<void> {
  const config = readConfig(process.env);
  const logger = createLogger(config.nodeEnv, config.logLevel);
  installProcessErrorHandlers(logger);
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
    allowedOrigins: config.allowedOrigins,
    loginRateLimit: config.loginRateLimit,
    env: process.env,
    demo: { adminPassword: config.demoPassword },
  });
  try {
    await app.ready();
  } catch (error) {
    await app.close();
    throw error;
  }

  const server = createHttpServer(app.handler, config.serverTimeouts);
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

  const shutdown = createGracefulShutdown({
    server,
    lifecycle: app.lifecycle,
    logger,
    settings: config.shutdown,
    closeResources: () => app.close(),
  });
  shutdownOnSignals(shutdown);
}

function displayHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

main().catch((error: unknown) => {
  process.stderr.write(`The server could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
