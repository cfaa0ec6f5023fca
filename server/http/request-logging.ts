import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { assignRequestId } from '../hardening/request-id';

/** Probes hit these every few seconds; a line for each would drown everything else. */
const UNLOGGED_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz']);

/**
 * Gives every request an id (`X-Request-Id`, echoed) and `req.log`, a child logger that stamps that id on every line
 * the request causes (errors included). With `logRequests`, also one line per answered request: id, method, URL,
 * status, time — never headers or bodies, which carry cookies and passwords.
 */
export function requestLogging(logger: Logger, logRequests: boolean): RequestHandler {
  return pinoHttp({
    logger,
    genReqId: assignRequestId,
    autoLogging: logRequests ? { ignore: (req) => UNLOGGED_PATHS.has(pathOf(req.url)) } : false,
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
    serializers: {
      req: (req: { id?: unknown; method?: string; url?: string }) => ({ id: req.id, method: req.method, url: req.url }),
      res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
    },
  });
}

function pathOf(url: string | undefined): string {
  const path = url ?? '/';
  const query = path.indexOf('?');
  return query === -1 ? path : path.slice(0, query);
}
