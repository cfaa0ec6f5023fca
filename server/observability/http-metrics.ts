import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import { routeLabel } from './declared-route';
import { errorAnswerRoute } from './error-answer-route';
import { methodLabel } from './known-methods';
import type { MetricsRegistry } from './metrics-registry';
import { RequestDurationHistogram } from './request-duration-histogram';

/** Seconds: from a cached `/slots` answer (under a millisecond) to a slow sign-in (scrypt, a busy database). */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The route label of a request no route matched or was refused on its way to: files, and paths no route serves. */
export const UNMATCHED_ROUTE = '(other)';

/**
 * `slots_http_request_duration_seconds{method, route, status}`: how long each answer took, by the route pattern it
 * matched (`/api/resources/:resource/:id`), never by its URL, so the number of series stays bounded whatever
 * visitors ask for, and by method only among the known ones (methodLabel). Measured until the answer is finished (its last byte handed to the socket).
 */
export function createHttpMetrics(metrics: MetricsRegistry): HttpMetrics {
  const durations = metrics.custom(
    new RequestDurationHistogram(
      'slots_http_request_duration_seconds',
      'Time to answer an HTTP request, by method, route pattern and status.',
      DURATION_BUCKETS,
    ),
  );
  const observeSince = (req: IncomingMessage, res: ServerResponse, route: string, started: bigint): void => {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    durations.observe(methodLabel(req.method), route, res.statusCode, seconds);
  };
  return {
    middleware: (req, res, next) => {
      const started = process.hrtime.bigint();
      // `on`: an answer finishes once, and a `once` wrapper costs more than the measure (traceServerRequests).
      res.on('finish', () => observeSince(req, res, routeOf(req, res.statusCode), started));
      next();
    },
    answerTimer: (route) => ({
      start: () => process.hrtime.bigint(),
      answered: (req, res, started) => observeSince(req, res, route, started),
    }),
  };
}

/** The request-duration measure, for answers of Express's routes and for those given before Express's router. */
export interface HttpMetrics {
  /** First of the app's middleware: its clock covers everything the request runs; labelled by the matched route. */
  readonly middleware: RequestHandler;
  /**
   * The same measure for an answer given at once, its route known before any router ran (slots/public-fast-path.ts).
   * It reads the clock when the answer's `end()` returned, which handed its last byte to the socket, rather than at
   * the `finish` event a tick later: a listener on every answer (Node's own `finish` listener made into an array,
   * copied at the emit, a `once` wrapper bound and removed) cost more than the rest of the measure together.
   */
  answerTimer(route: string): AnswerTimer;
}

/** Times an answer given synchronously: `start()` before the request's first step, `answered` once it is ended. */
export interface AnswerTimer {
  start(): bigint;
  answered(req: IncomingMessage, res: ServerResponse, started: bigint): void;
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
