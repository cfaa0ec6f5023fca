import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import type { PlainHandler } from '../http/plain-handler';
import { routeLabel } from './declared-route';
import { errorAnswerRoute } from './error-answer-route';
import type { MetricsRegistry } from './metrics-registry';
import { RequestDurationHistogram } from './request-duration-histogram';

/** Seconds: from a cached `/slots` answer (under a millisecond) to a slow sign-in (scrypt, a busy database). */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The route label of a request no route matched or was refused on its way to: files, and paths no route serves. */
export const UNMATCHED_ROUTE = '(other)';

/**
 * `slots_http_request_duration_seconds{method, route, status}`: how long each answer took, by the route pattern it
 * matched (`/api/resources/:resource/:id`), never by its URL, so the number of series stays bounded whatever
 * visitors ask for. Measured until the answer is finished (its last byte handed to the socket).
 */
export function createHttpMetrics(metrics: MetricsRegistry): HttpMetrics {
  const durations = metrics.custom(
    new RequestDurationHistogram(
      'slots_http_request_duration_seconds',
      'Time to answer an HTTP request, by method, route pattern and status.',
      DURATION_BUCKETS,
    ),
  );
  const time = (req: IncomingMessage, res: ServerResponse, route: () => string): void => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      durations.observe(req.method ?? '', route(), res.statusCode, seconds);
    });
  };
  return {
    middleware: (req, res, next) => {
      time(req, res, () => routeOf(req, res.statusCode));
      next();
    },
    timeAs: (route) => (req, res, next) => {
      time(req, res, () => route);
      next();
    },
  };
}

/** The request-duration measure, for answers of Express's routes and for those given before Express's router. */
export interface HttpMetrics {
  /** First of the app's middleware: its clock covers everything the request runs; labelled by the matched route. */
  readonly middleware: RequestHandler;
  /** The same measure for an answer whose route is known before any router ran (http/public-fast-path.ts). */
  timeAs(route: string): PlainHandler;
}

/**
 * The pattern of the route that answered, with its routers' mount paths; for an error answered before the route
 * ran (the session store down), the route it was refused on its way to; UNMATCHED_ROUTE otherwise.
 */
export function routeOf(req: Request, status: number): string {
  return (
    routeLabel(req.baseUrl, (req.route as { path?: unknown } | undefined)?.path) ??
    errorAnswerRoute(req, status) ??
    UNMATCHED_ROUTE
  );
}
