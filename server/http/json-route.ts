import type { IRouter, Request, RequestHandler } from 'express';
import { HttpError } from './http-error';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteOptions {
  /**
   * Methods this route does not answer but leaves to later routers, e.g. `GET /login`, which is the sign-in page of
   * the host shell while `POST /login` is the API. They are still listed in `Allow`.
   */
  passThrough?: readonly ('GET' | 'HEAD')[];
  /**
   * Methods the path refuses for this request, though it has handlers for them (a resource whose records cannot be
   * deleted): left out of `Allow`, which every 405 of the path carries, the one its handler throws included.
   */
  refusedFor?: (req: Request) => readonly HttpMethod[];
}

/** Where a route that refuses methods per request leaves its `Allow` for the error handler (error-handler.ts). */
export const ALLOW_LOCAL = 'allow';

/**
 * Declares one path with its handlers per method; any other method gets a JSON 405 with an `Allow` header.
 * GET also answers HEAD (Express does that for GET routes).
 */
export function jsonRoute(
  router: IRouter,
  path: string,
  handlers: Partial<Record<HttpMethod, RequestHandler | RequestHandler[]>>,
  options: RouteOptions = {},
): void {
  const route = router.route(path);
  const methods = Object.keys(handlers) as HttpMethod[];
  const allowOf = (refused: readonly string[]) => {
    const allowed = new Set<string>([...methods, ...(options.passThrough ?? [])].filter((m) => !refused.includes(m)));
    if (allowed.has('GET')) allowed.add('HEAD');
    return [...allowed].join(', ');
  };
  const { refusedFor } = options;
  if (refusedFor) {
    // First on the path: a handler's own 405 (thrown) carries the methods this request may use.
    route.all((req: Request, res, next) => {
      res.locals[ALLOW_LOCAL] = allowOf(refusedFor(req));
      next();
    });
  }
  for (const method of methods) {
    const handler = handlers[method];
    if (!handler) continue;
    const chain = Array.isArray(handler) ? handler : [handler];
    route[method.toLowerCase() as Lowercase<HttpMethod>](...chain);
  }
  const passThrough = new Set<string>(options.passThrough ?? []);
  const always = allowOf([]);
  route.all((req: Request, res, next) => {
    if (passThrough.has(req.method)) {
      next('route');
      return;
    }
    const allow = typeof res.locals[ALLOW_LOCAL] === 'string' ? (res.locals[ALLOW_LOCAL] as string) : always;
    res.setHeader('Allow', allow);
    next(new HttpError('method_not_allowed', `${req.method} is not allowed here. Allowed: ${allow}.`));
  });
}
