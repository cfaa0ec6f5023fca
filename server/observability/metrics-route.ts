import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { RequestHandler } from 'express';
import { HttpError } from '../http/http-error';
import type { MetricsRegistry } from './metrics-registry';

export const METRICS_PATH = '/metrics';

/**
 * `GET /metrics` on the app's port: Prometheus' text format for `Authorization: Bearer <token>` (the scheme in any
 * case), 401 (with `WWW-Authenticate: Bearer`) for anyone else. Mounted only when METRICS_TOKEN is set: the figures (routes,
 * sign-in failures, remotes) are for operators, never for visitors.
 */
export function metricsRoute(metrics: MetricsRegistry, token: string): RequestHandler {
  const expected = Buffer.from(token);
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      next();
      return;
    }
    if (!sameSecret(req.headers.authorization, expected)) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
      next(HttpError.unauthenticated());
      return;
    }
    sendMetrics(metrics, res).catch(next);
  };
}

/**
 * The separate listener of METRICS_PORT: `GET /metrics` only (with the token check when a token is set too), 404
 * for every other path. Not the app: no session, no file, nothing else reachable through it.
 */
export function createMetricsServer(metrics: MetricsRegistry, token: string | undefined): http.Server {
  const expected = token === undefined ? null : Buffer.from(token);
  return http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== METRICS_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    if (expected !== null && !sameSecret(req.headers.authorization, expected)) {
      res.writeHead(401, { 'WWW-Authenticate': 'Bearer realm="metrics"' }).end();
      return;
    }
    sendMetrics(metrics, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
}

async function sendMetrics(metrics: MetricsRegistry, res: http.ServerResponse): Promise<void> {
  const body = await metrics.text();
  res.writeHead(200, { 'Content-Type': metrics.contentType, 'Cache-Control': 'no-store' });
  res.end(body);
}

/** `Bearer <token>`, the scheme in any case (`bearer`, `BEARER`): auth schemes are case-insensitive (RFC 7235). */
const BEARER_CREDENTIALS = /^bearer +(.+)$/i;

/**
 * Whether `authorization` carries the expected token. Compared in constant time: the answer's timing says nothing of
 * how much of a guessed token was right.
 */
function sameSecret(authorization: string | undefined, expected: Buffer): boolean {
  const given = authorization === undefined ? undefined : BEARER_CREDENTIALS.exec(authorization)?.[1];
  if (given === undefined) return false;
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
