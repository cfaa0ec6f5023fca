/**
 * The server as `server/main.ts` starts it (same configuration from the environment, same app factory, the demo
 * content), plus two bench-only settings:
 *
 *   BENCH_EXTRA_SLOTS=<n>   registers n more slots (extra-slots.ts) through the app's registerSlots before ready()
 *   BENCH_DIST_DIR=<dir>    serves the front end from <dir> (the bundled host of the sign-in page benchmark)
 *
 * server/main.ts exports nothing to build on, so its few start-up lines are repeated here; keep them in step.
 */
import path from 'node:path';
import { createApp } from '../../server/app';
import { readConfig } from '../../server/config';
import { createGracefulShutdown, shutdownOnSignals } from '../../server/hardening/graceful-shutdown';
import { createHttpServer } from '../../server/hardening/http-server';
import { installProcessErrorHandlers } from '../../server/hardening/process-error-handlers';
import { createLogger } from '../../server/logger';
import { loadOrCreateSessionSecret } from '../../server/session-secret';
import { extraSlots } from './extra-slots';

function extraSlotCount(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 0;
  if (!/^\d+$/.test(raw)) throw new Error(`BENCH_EXTRA_SLOTS=${JSON.stringify(raw)} must be a whole number.`);
  return Number(raw);
}

async function main(): Promise<void> {
  const config = readConfig(process.env);
  const logger = createLogger(config.nodeEnv, config.logLevel);
  installProcessErrorHandlers(logger);
  const sessionSecret = config.sessionSecret ?? [loadOrCreateSessionSecret(config.databasePath).secret];
  const distDir = process.env.BENCH_DIST_DIR ? path.resolve(process.env.BENCH_DIST_DIR) : undefined;

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
    ...(distDir ? { distDir } : {}),
  });
  const extra = extraSlotCount(process.env.BENCH_EXTRA_SLOTS);
  if (extra > 0) app.registerSlots(extraSlots(extra));
  try {
    await app.ready();
  } catch (error) {
    await app.close();
    throw error;
  }

  const server = createHttpServer(app.handler, config.serverTimeouts);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  logger.info({ port: config.port, extraSlots: extra, distDir: distDir ?? 'default' }, 'bench server listening');

  shutdownOnSignals(
    createGracefulShutdown({
      server,
      lifecycle: app.lifecycle,
      logger,
      settings: config.shutdown,
      closeResources: () => app.close(),
    }),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`The bench server could not start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
