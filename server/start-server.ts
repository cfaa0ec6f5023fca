/**
 * The product's start-up, for every entry that listens (server/main.ts, the bench server, the test fixture server):
 * reads the environment (server/config/), builds the app, lets the entry register and seed what it serves (main.ts:
 * the demo), listens with the configured timeouts (plain HTTP/1.1, or HTTPS with HTTP/2 and HTTP/1.1 when
 * TLS_CERT_FILE and TLS_KEY_FILE are set: process/secure-server.ts; during the start already when it applies the
 * schema steps, indexes the search words or waits for another host doing so, answering only the probes:
 * health/starting-listener.ts), prints where to open it and how to sign in, and shuts down
 * gracefully on SIGTERM/SIGINT (readiness off, requests in flight finished, stores closed, exit 0), and re-reads
 * REMOTES_CONFIG on SIGHUP.
 */
import fs from 'node:fs';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Logger } from 'pino';
import { createApp, type App } from './app';
import { publicUrlWithoutTlsWarning, withoutPublicUrlWarning } from './security/public-url';
import { DEFAULT_DATABASE_PATH, readConfig, storageSettingsOf, type ServerConfig } from './env-config';
import { createGracefulShutdown, type ShutdownOutcome } from './process/graceful-shutdown';
import { createHttpServer } from './process/http-server';
import { listenRefusal } from './process/listen-refusal';
import { readBuildIdentity } from './process/build-identity';
import { RELEASE_SCHEMA_VERSION } from './storage/migrations';
import { newSqliteDatabase } from './storage/new-sqlite-database';
import { commandPrefix, installedCommandLine } from './process/operator-commands';
import { API_SECURITY_HEADERS } from './security/api-security-headers';
import { createSecureServer, type SecureServer } from './process/secure-server';
import { installProcessErrorHandlers } from './process/process-error-handlers';
import { keepTickShapesAlive } from './process/tick-shapes';
import { createLogger } from './logger';
import { listenForMetrics, type MetricsListener } from './observability/metrics-listener';
import { metricsEnabled } from './observability/metrics-settings';
import { nameTracedRoute, stopTracing, tracedRequestListener, tracingStarted } from './observability/tracing';
import { loadOrCreateSessionSecret } from './config/session-secret';
import { formatStartMessage, type SignInAccount } from './start-message';
import { DEFAULT_DIST_DIR } from './app-options';
import { missingHostWarning } from './host-page/host-page-module';
import { StartingGate } from './health/starting-gate';
import { StartingListener } from './health/starting-listener';

export { STARTING_LISTENER_MESSAGE } from './health/starting-listener';

export interface StartServerOptions {
  /** Registrations of the entry (slots, resources, modules, dashboards), made before `app.ready()`. */
  configure?: (app: App, config: ServerConfig) => void | Promise<void>;
  /** Work once the app is ready and before it listens, e.g. seeding data. */
  afterReady?: (app: App, config: ServerConfig) => void | Promise<void>;
  /** The account the start message tells the operator to sign in with (read once the app is ready), if any. */
  signInAccount?: () => SignInAccount | undefined;
  /** Root of the build output (host shell and remotes); `<repo>/dist` by default. */
  distDir?: string;
  /** See AppOptions.slotProblems: `fail` (default) stops the start on slots that break the props contract. */
  slotProblems?: 'fail' | 'log';
}

/** A server that listens; it stops on SIGTERM/SIGINT, or through `shutdown`. */
export interface RunningServer {
  readonly app: App;
  /** Plain HTTP/1.1, or HTTPS with HTTP/2 and HTTP/1.1 when TLS_CERT_FILE and TLS_KEY_FILE are set. */
  readonly server: http.Server | SecureServer;
  readonly config: ServerConfig;
  readonly logger: Logger;
  /** The port it listens on (the one picked when PORT=0). */
  readonly port: number;
  /** Where to open it, e.g. `http://127.0.0.1:3000/` (`https://…` with TLS). */
  readonly url: string;
  /** The port of the separate `/metrics` listener (METRICS_PORT; the one picked when 0), if there is one. */
  readonly metricsPort: number | undefined;
  /** The graceful shutdown a signal runs; it ends the process (exit 0 when everything finished cleanly). */
  shutdown(reason: string): Promise<ShutdownOutcome>;
}

/** Starts the server as `npm start` / `npm run serve` do. Rejects (with nothing left open) when it cannot start. */
export async function startServer(env: NodeJS.ProcessEnv, options: StartServerOptions = {}): Promise<RunningServer> {
  const config = readConfig(env);
  const logger = createLogger(config.nodeEnv, config.logLevel);
  installProcessErrorHandlers(logger);
  // Before any request: an idle period must not cost every later request its optimized ticks (tick-shapes.ts).
  keepTickShapesAlive();
  // Said at the start: a mistyped DATABASE_PATH makes a new, empty installation rather than failing.
  const newDatabase = config.postgres === undefined ? newSqliteDatabase(config.databasePath) : undefined;
  const { sessionSecret, madeSecretFile } = sessionSecretOf(config);

  const app = withoutSecretIfRefused(madeSecretFile, () =>
    createApp({
      storage: storageSettingsOf(config),
      sessionSecret,
      nodeEnv: config.nodeEnv,
      redisUrl: config.redisUrl,
      trustProxy: config.trustProxy,
      sessionIdleMs: config.sessionIdleMs,
      sessionAbsoluteMs: config.sessionAbsoluteMs,
      logger,
      logRequests: config.logRequests,
      ...(config.serveSourceMaps === undefined ? {} : { serveSourceMaps: config.serveSourceMaps }),
      allowedOrigins: config.allowedOrigins,
      ...(config.publicOrigin === undefined ? {} : { publicOrigin: config.publicOrigin }),
      loginRateLimit: config.loginRateLimit,
      teamTokenLimit: config.teamTokenLimit,
      slotEvents: config.slotEvents,
      remoteDescriptorTimeoutMs: config.remoteDescriptorTimeoutMs,
      // With METRICS_PORT, /metrics is served on that port only; else, with METRICS_TOKEN, on the app's port.
      ...(metricsEnabled(config.metrics)
        ? { metrics: config.metrics.port === undefined ? { token: config.metrics.token } : {} }
        : {}),
      env,
      // Traced, the fast path's answers keep their route on their HTTP span (`http.route`, `GET /slots`).
      ...(tracingStarted() ? { nameTracedRoute } : {}),
      ...(options.slotProblems === undefined ? {} : { slotProblems: options.slotProblems }),
      ...((options.distDir ?? config.frontendDir) === undefined
        ? {}
        : { distDir: options.distDir ?? config.frontendDir }),
    }),
  );
  // Made before the start, and listening during it only when it takes long (below): what it answers until the start
  // has finished is the starting gate's, never the app's. What Node cannot read is answered before the app, with the
  // headers of every JSON answer.
  const gate = new StartingGate(API_SECURITY_HEADERS);
  const server = config.tls
    ? createSecureServer(
        gate.listener(tracedRequestListener(app.handler, 'http2', app.answerAtOnce)),
        config.serverTimeouts,
        config.tls,
        API_SECURITY_HEADERS,
      )
    : createHttpServer(
        gate.listener(tracedRequestListener(app.handler, 'http', app.answerAtOnce)),
        config.serverTimeouts,
        API_SECURITY_HEADERS,
      );
  // A start that waits for another host's schema steps or indexing of the search words, or does them itself, takes
  // minutes on a large database: listening meanwhile, the host answers its liveness probe (an orchestrator killed it
  // as dead before, and the next start began again), says on /readyz what it is doing, refuses a taken port at once
  // and stops cleanly on SIGTERM (health/starting-listener.ts). Other starts listen once ready.
  const starting = new StartingListener(server, gate, app.startup, logger, config);
  try {
    await options.configure?.(app, config);
    await app.ready();
    await options.afterReady?.(app, config);
    // After the entry's seeding (the demo's tenants): a tenant it creates is no unknown name, and the warnings of
    // names still unknown come with the start's log, before it listens.
    app.checkRuleNames();
    const missingHost = missingHostWarning(options.distDir ?? config.frontendDir ?? DEFAULT_DIST_DIR);
    if (missingHost) logger.warn({ frontendDir: config.frontendDir }, missingHost);
    const withoutTls = publicUrlWithoutTlsWarning(config);
    if (withoutTls) logger.warn({ publicUrl: `${config.publicOrigin}/` }, withoutTls);
    const withoutPublicUrl = withoutPublicUrlWarning(config);
    if (withoutPublicUrl) logger.warn({ host: config.host }, withoutPublicUrl);
    // Stopped after the last step or batch (a signal, while remotes were asked): the same clean stop.
    app.startup.signal.throwIfAborted();
  } catch (error) {
    await starting.abandon(error, () => app.close());
    throw error;
  }

  const refused = await starting.listen();
  if (refused !== undefined) {
    await app.close();
    throw await listenRefusal(refused, { host: 'HOST', port: 'PORT' }, config.host, config.port);
  }
  gate.open();
  const metricsPort = config.metrics.port;
  let metricsListener: MetricsListener | undefined;
  try {
    if (metricsPort !== undefined) {
      metricsListener = await listenForMetrics(app.metrics, { ...config.metrics, port: metricsPort });
    }
  } catch (error) {
    // The listener closed, and the start's signal handlers gone if it listened early.
    await starting.abandon(error, () => app.close());
    throw await listenRefusal(error, { host: 'METRICS_HOST', port: 'METRICS_PORT' }, config.metrics.host, metricsPort);
  }
  // Before the start is said: a supervisor may send SIGTERM as soon as it reads the address, and a signal with no
  // handler yet would end the process at once, with nothing closed or logged.
  const shutdown = createGracefulShutdown({
    server,
    lifecycle: app.lifecycle,
    logger,
    settings: config.shutdown,
    storesNotClosed: () => storesNotClosed(app),
    closeResources: async () => {
      const closing = (async () => {
        await metricsListener?.close();
        await app.close();
      })();
      // The last spans (this shutdown's requests among them) are sent beside the close, not after it: a database
      // that does not answer holds the close until the deadline (stopTracing). A collector that does not answer in
      // time loses them, which is said, and the stop is still clean.
      const lastSpans = stopTracing(closing).then((spans) => {
        if (!spans.sent) logger.warn({ reason: spans.reason }, 'shutdown: the last spans were not sent');
      });
      await Promise.all([closing, lastSpans]);
    },
  });
  starting.handOver(shutdown);
  // SIGHUP re-reads REMOTES_CONFIG; an invalid file is logged and the configuration in use stays.
  process.on('SIGHUP', () => {
    app.reloadRemotesConfig().catch((error: unknown) => logger.error({ err: error }, 'Remotes reload failed.'));
  });
  const { port } = server.address() as AddressInfo;
  const url = `${config.tls ? 'https' : 'http'}://${displayHost(config.host)}:${port}/`;
  const publicUrl = config.publicOrigin === undefined ? {} : { publicUrl: `${config.publicOrigin}/` };
  // The release, said where an operator checking an upgrade looks first: the log's line and the start message.
  const identity = readBuildIdentity();
  logger.info(
    {
      revision: identity.revision,
      builtAt: identity.builtAt,
      schema: RELEASE_SCHEMA_VERSION,
      host: config.host,
      port,
      protocols: config.tls ? 'h2, http/1.1 (TLS)' : 'http/1.1',
      storage: app.storage.kind,
      sessions: app.sessions.kind,
      ...publicUrl,
      ...(metricsListener ? { metricsHost: config.metrics.host, metricsPort: metricsListener.port } : {}),
    },
    'listening',
  );

  const isDefaultDatabase = config.databasePath === path.resolve(DEFAULT_DATABASE_PATH);
  const prefix = commandPrefix(env);
  process.stdout.write(
    formatStartMessage({
      url,
      ...publicUrl,
      account: options.signInAccount?.(),
      databasePathForCommand: isDefaultDatabase ? undefined : config.databasePath,
      postgres: config.postgres !== undefined,
      commands: installedCommandLine(prefix),
      commandsShareTheEnvironment: prefix !== '',
      newDatabase,
      release: { identity, schema: RELEASE_SCHEMA_VERSION },
      trustProxy: config.trustProxy,
      nodeEnv: config.nodeEnv,
    }),
  );

  return { app, server, config, logger, port, url, metricsPort: metricsListener?.port, shutdown };
}

/**
 * The stores the app's close has not closed yet, as log lines name them: its database (`PostgreSQL "slots" on
 * db.internal:5432`, `SQLite /data/app.db`) and, when sessions live there, Redis with its address.
 */
function storesNotClosed(app: App): string[] {
  const stores = [app.storage, ...(app.sessions.displayName === undefined ? [] : [app.sessions])];
  return stores.filter((store) => !store.closed).map((store) => store.displayName ?? '');
}

/**
 * SESSION_SECRET's secrets, or the one kept beside the database, made by this start if there was none. With
 * DATABASE_URL, readConfig insists on SESSION_SECRET: no file is written in the working folder.
 */
function sessionSecretOf(config: ServerConfig): { sessionSecret: string[]; madeSecretFile: string | undefined } {
  if (config.sessionSecret !== undefined) return { sessionSecret: config.sessionSecret, madeSecretFile: undefined };
  const kept = loadOrCreateSessionSecret(config.databasePath);
  return { sessionSecret: [kept.secret], madeSecretFile: kept.created ? kept.file : undefined };
}

/**
 * `open`'s app; a database it refuses (a file that is no SQLite database, a newer release's, a damaged one) also
 * removes the session-secret file this start made beside it: the refused start leaves the folder as it found it.
 */
function withoutSecretIfRefused(madeSecretFile: string | undefined, open: () => App): App {
  try {
    return open();
  } catch (error) {
    if (madeSecretFile !== undefined) fs.rmSync(madeSecretFile, { force: true });
    throw error;
  }
}

function displayHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}
