import http from 'node:http';
import type { RequestListener } from 'node:http';
import { InvalidSettingError, readInteger } from '../config/env-values';
import { answerUnreadableRequestsInJson } from './unreadable-requests';

/** How long a client may take, so slow or stalled clients cannot hold connections open (slowloris). */
export interface ServerTimeoutSettings {
  /** Time to receive the request headers (`HEADERS_TIMEOUT_MS`, default 15 s). */
  headersTimeoutMs: number;
  /** Time to receive the whole request, body included (`REQUEST_TIMEOUT_MS`, default 30 s). */
  requestTimeoutMs: number;
  /**
   * Time an idle keep-alive connection stays open (`KEEP_ALIVE_TIMEOUT_MS`, default 5 s). Behind a load balancer,
   * make it longer than the balancer's own idle timeout.
   */
  keepAliveTimeoutMs: number;
}

export function serverTimeoutSettingsFromEnv(env: NodeJS.ProcessEnv): ServerTimeoutSettings {
  const settings = {
    headersTimeoutMs: readInteger(env, 'HEADERS_TIMEOUT_MS', 15_000, 1),
    requestTimeoutMs: readInteger(env, 'REQUEST_TIMEOUT_MS', 30_000, 1),
    keepAliveTimeoutMs: readInteger(env, 'KEEP_ALIVE_TIMEOUT_MS', 5_000, 1),
  };
  if (settings.headersTimeoutMs > settings.requestTimeoutMs) {
    throw new InvalidSettingError(
      'HEADERS_TIMEOUT_MS',
      String(settings.headersTimeoutMs),
      `at most REQUEST_TIMEOUT_MS (${settings.requestTimeoutMs})`,
    );
  }
  return settings;
}

/** The timeouts as Node's HTTP/1.1 server reads them, in its constructor's options or as its properties. */
export interface Http1Timeouts {
  headersTimeout: number;
  requestTimeout: number;
  keepAliveTimeout: number;
  connectionsCheckingInterval: number;
}

/**
 * The settings as Node's HTTP/1.1 server takes them, for the plain server and the HTTP/1.1 side of the secure one.
 * Node checks the header and request deadlines only every `connectionsCheckingInterval` (30 s by default), which
 * would let a stalled client outstay a short deadline, so the check runs at least twice per deadline.
 */
export function http1Timeouts(settings: ServerTimeoutSettings): Http1Timeouts {
  return {
    headersTimeout: settings.headersTimeoutMs,
    requestTimeout: settings.requestTimeoutMs,
    keepAliveTimeout: settings.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.max(
      50,
      Math.min(1_000, Math.floor(Math.min(settings.headersTimeoutMs, settings.requestTimeoutMs) / 2)),
    ),
  };
}

/**
 * The HTTP server for the app, with its timeouts (http1Timeouts), answering what it cannot read in JSON with
 * `answerHeaders` (every JSON answer's). An HTTP/1.1 request without a Host header reaches the app, which refuses it
 * in JSON as well (http/host-header.ts): Node's own refusal is an empty 400 written where nothing can add to it.
 */
export function createHttpServer(
  listener: RequestListener,
  settings: ServerTimeoutSettings,
  answerHeaders: Readonly<Record<string, string>>,
): http.Server {
  const server = http.createServer({ ...http1Timeouts(settings), requireHostHeader: false }, listener);
  // Older typings and some Node versions ignore the constructor option; set the property as well.
  server.keepAliveTimeout = settings.keepAliveTimeoutMs;
  answerUnreadableRequestsInJson(server, answerHeaders);
  return server;
}
