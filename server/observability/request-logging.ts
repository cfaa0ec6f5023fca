import type { IncomingMessage } from 'node:http';
import type { Express, Request } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { redactUrl } from '../logger';
import { traceLogFields } from './request-trace';
import type { ServerLifecycle } from '../process/server-lifecycle';
import type { PlainHandler } from '../http/plain-handler';
import { clientAddress, type TrustProxyFn } from '../http/client-address';
import { assignRequestId } from '../http/request-id';
import { pathOf } from '../http/request-path';

/** Probes hit these every few seconds; a line for each would drown everything else. */
const UNLOGGED_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz']);

const CHILD_LOGGER = Symbol('requestLogger');

type LazyLogRequest = Request & { [CHILD_LOGGER]?: Logger };

/** Whether `error` is the one pino-http makes for a 5xx answered without an error of its own. */
function statusError(status: number, error: Error): boolean {
  return error.message === `failed with status code ${status}`;
}

function withoutErr(fields: object): object {
  const { err: _err, ...rest } = fields as { err?: unknown };
  return rest;
}

/**
 * Gives every request an id (`X-Request-Id`, echoed) and `req.log`, a child logger that stamps that id and the
 * request's trace (`trace_id`, `span_id`: from its W3C `traceparent`, or a new trace) on every line the request
 * causes (errors included). With `logRequests`, also one line per answered request: id, method, URL, status,
 * time, the client's address and the signed-in account — never headers or bodies, which carry cookies and
 * passwords, and no secret of the query string — and, given the `lifecycle`, one for each request the shutdown's
 * timeout cuts (`request cut at shutdown`).
 *
 * Both variants need nothing of Express, so the public fast path (public-fast-path.ts) runs the same one.
 *
 * Without `logRequests` most requests log nothing, so pino-http (a child logger and listeners per request) is left
 * out: `req.log` is a getter of the app's request prototype that makes the child logger on first use only.
 */
export function requestLogging(
  app: Express,
  logger: Logger,
  logRequests: boolean,
  lifecycle?: ServerLifecycle,
): PlainHandler {
  if (logRequests) {
    /** Requests the shutdown cut, logged as such already: pino-http's own line for them would say "aborted". */
    const loggedAsCut = new WeakSet<IncomingMessage>();
    const logging = pinoHttp({
      logger,
      genReqId: assignRequestId,
      customProps: traceLogFields,
      autoLogging: { ignore: (req) => UNLOGGED_PATHS.has(pathOf(req.url)) },
      customLogLevel: (req, res, error) => {
        if (loggedAsCut.has(req)) return 'silent';
        return error || res.statusCode >= 500 ? 'error' : 'info';
      },
      serializers: {
        req: (req: { id?: unknown; method?: string; url?: string }) => ({
          id: req.id,
          method: req.method,
          url: redactUrl(req.url ?? '/'),
        }),
        res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
      },
      // Read when the answer is logged: by then the session has told who asked.
      customSuccessObject: (req, _res, fields: object) => ({ ...fields, ...whoAsked(req, app) }),
      // A 5xx answered with no error thrown (a 503 while a store is away, the sign-in checks all taken): pino-http
      // makes an Error of its own, whose stack points into pino-http, not at anything that happened. The line says
      // the status; the cause, when there is one, is the error handler's line beside it.
      customErrorObject: (req, res, error, fields: object) => {
        const own = statusError(res.statusCode, error) ? withoutErr(fields) : fields;
        return { ...own, ...whoAsked(req, app) };
      },
      customErrorMessage: (_req, res, error) =>
        statusError(res.statusCode, error) ? `request answered ${res.statusCode}` : 'request errored',
    });
    return lifecycle === undefined ? logging : logCutRequests(logging, lifecycle, loggedAsCut);
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

/**
 * Who a logged answer went to: the client's address (as `req.ip` gives it, a trusted proxy's `X-Forwarded-For`
 * followed) and the signed-in account's username, if any. Without them a line could not tell whose password guesses
 * or which client's errors it was.
 */
function whoAsked(req: IncomingMessage, app: Express): { client?: string; user?: string } {
  const client = clientAddress(req, app.get('trust proxy fn') as TrustProxyFn);
  const user = (req as Partial<Request>).user?.username;
  return { ...(client === undefined ? {} : { client }), ...(user === undefined ? {} : { user }) };
}

/** What the request log says of a request the shutdown's timeout cut (its answer never finished). */
export const REQUEST_CUT_MESSAGE = 'request cut at shutdown';

/**
 * `logging`, and a line for each request still in flight when the shutdown's timeout cuts them (level warn, with
 * its id, method, URL and trace, as every line of it): written before the cut, since the process may end before a
 * cut connection reports its close, when pino-http would have written its "request aborted" line.
 */
function logCutRequests(
  logging: PlainHandler,
  lifecycle: ServerLifecycle,
  loggedAsCut: WeakSet<IncomingMessage>,
): PlainHandler {
  /** Each request in flight, with when it arrived. */
  const inFlight = new Map<IncomingMessage, number>();
  lifecycle.beforeCut(() => {
    for (const [req, arrived] of inFlight) {
      loggedAsCut.add(req);
      req.log.warn({ responseTime: Date.now() - arrived, cut: 'shutdown' }, REQUEST_CUT_MESSAGE);
    }
  });
  return (req, res, next) => {
    if (!UNLOGGED_PATHS.has(pathOf(req.url))) {
      inFlight.set(req, Date.now());
      // `on`: an answer closes once, and a `once` wrapper is bound and removed per answer (tracing-sdk.ts, releaseOnEnd).
      res.on('close', () => inFlight.delete(req));
    }
    logging(req, res, next);
  };
}
