import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';

/**
 * Gives every request `req.log`. With `logRequests`, also one line per answered request (method, path, status,
 * time; never headers, which carry session cookies); without, `req.log` is the app logger itself, at no cost.
 */
export function requestLogging(logger: Logger, logRequests: boolean): RequestHandler {
  if (logRequests) {
    return pinoHttp({
      logger,
      serializers: {
        req: (req: { method?: string; url?: string }) => ({ method: req.method, url: req.url }),
        res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
      },
    });
  }
  return (req, _res, next) => {
    req.log = logger;
    next();
  };
}
