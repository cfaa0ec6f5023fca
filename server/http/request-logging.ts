import type { Express, Request } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { redactUrl } from '../logger';
import { traceLogFields } from '../observability/request-trace';
import type { PlainHandler } from './plain-handler';
import { assignRequestId } from './request-id';

/** Probes hit these every few seconds; a line for each would drown everything else. */
const UNLOGGED_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz']);

const CHILD_LOGGER = Symbol('requestLogger');

type LazyLogRequest = Request & { [CHILD_LOGGER]?: Logger };

/**
 * Gives every request an id (`X-Request-Id`, echoed) and `req.log`, a child logger that stamps that id and the
 * request's trace (`trace_id`, `span_id`: from its W3C `traceparent`, or a new trace) on every line the request
 * causes (errors included). With `logRequests`, also one line per answered request: id, method, URL,
 * status, time — never headers or bodies, which carry cookies and passwords, and no secret of the query string.
 *
 * Both variants need nothing of Express, so the public fast path (public-fast-path.ts) runs the same one.
 *
 * Without `logRequests` most requests log nothing, so pino-http (a child logger and listeners per request) is left
 * out: `req.log` is a getter of the app's request prototype that makes the child logger on first use only.
 */
export function requestLogging(app: Express, logger: Logger, logRequests: boolean): PlainHandler {
  if (logRequests) {
    return pinoHttp({
      logger,
      genReqId: assignRequestId,
      customProps: traceLogFields,
      autoLogging: { ignore: (req) => UNLOGGED_PATHS.has(pathOf(req.url)) },
      customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
      serializers: {
        req: (req: { id?: unknown; method?: string; url?: string }) => ({
          id: req.id,
          method: req.method,
          url: redactUrl(req.url ?? '/'),
        }),
        res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
      },
    });
  }
  Object.defineProperty(app.request, 'log', {
    configurable: true,
    get(this: LazyLogRequest): Logger {
      // Same `req` binding as pino-http's, with the URL as received (routers strip their mount path from req.url).
      this[CHILD_LOGGER] ??= logger.child({
        req: { id: this.id, method: this.method, url: redactUrl(this.originalUrl) },
        ...traceLogFields(this),
      });
      return this[CHILD_LOGGER];
    },
    set(this: LazyLogRequest, child: Logger) {
      this[CHILD_LOGGER] = child;
    },
  });
  return (req, res, next) => {
    req.id = assignRequestId(req, res);
    next();
  };
}

function pathOf(url: string | undefined): string {
  const path = url ?? '/';
  const query = path.indexOf('?');
  return query === -1 ? path : path.slice(0, query);
}
