import type { IRouter, Request, RequestHandler } from 'express';
import { HttpError } from './http-error';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteOptions {
  /**
   * Methods this route does not answer but leaves to later routers, e.g. `GET /login`, which is the sign-in page of
   * the host shell while `POST /login` is the API. They are still listed in `Allow`.
   */
  passThrough?: readonly ('GET' | 'HEAD')[];
}

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
  for (const method of methods) {
    const handler = handlers[method];
    if (!handler) continue;
    const chain = Array.isArray(handler) ? handler : [handler];
    route[method.toLowerCase() as Lowercase<HttpMethod>](...chain);
  }
  const passThrough = new Set<string>(options.passThrough ?? []);
  const allowed = new Set<string>([...methods, ...passThrough]);
  if (allowed.has('GET')) allowed.add('HEAD');
  const allow = [...allowed].join(', ');
  route.all((req: Request, res, next) => {
    if (passThrough.has(req.method)) {
      next('route');
      return;
    }
    res.setHeader('Allow', allow);
    next(new HttpError('method_not_allowed', `${req.method} is not allowed here. Allowed: ${allow}.`));
  });
}
