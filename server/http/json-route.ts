import type { IRouter, Request, RequestHandler, Response } from 'express';
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
   * deleted), and why: such a request gets a 405 with that message before any handler runs, and every 405 of the
   * path leaves them out of its `Allow`. Undefined: nothing refused.
   */
  refuse?: (req: Request) => MethodRefusal | undefined;
}

/** What a path refuses for one request (RouteOptions.refuse). */
export interface MethodRefusal {
  methods: readonly HttpMethod[];
  message: string;
}

/** Where the path's refusal for this request waits for its last handler, the 405 of methods it has none for. */
const REFUSAL_LOCAL = 'methodRefusal';

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
  const always = allowOf([]);
  // HEAD is answered by the GET handler (Express), so a refused GET refuses it too.
  const isRefused = (req: Request, refusal: MethodRefusal | undefined): refusal is MethodRefusal =>
    refusal !== undefined && refusal.methods.includes((req.method === 'HEAD' ? 'GET' : req.method) as HttpMethod);
  const { refuse } = options;
  /** Answers 405 with what this request may use instead, and why when the path refuses the method. */
  const notAllowed = (req: Request, res: Response, refusal: MethodRefusal | undefined): HttpError => {
    const allow = refusal ? allowOf(refusal.methods) : always;
    res.setHeader('Allow', allow);
    return new HttpError(
      'method_not_allowed',
      isRefused(req, refusal) ? refusal.message : `${req.method} is not allowed here. Allowed: ${allow}.`,
    );
  };
  if (refuse) {
    // First on the path: a refused method never reaches its handler (nor its body parser).
    route.all((req: Request, res, next) => {
      const refusal = refuse(req);
      res.locals[REFUSAL_LOCAL] = refusal;
      if (isRefused(req, refusal)) next(notAllowed(req, res, refusal));
      else next();
    });
  }
  for (const method of methods) {
    const handler = handlers[method];
    if (!handler) continue;
    const chain = Array.isArray(handler) ? handler : [handler];
    route[method.toLowerCase() as Lowercase<HttpMethod>](...chain);
  }
  const passThrough = new Set<string>(options.passThrough ?? []);
  route.all((req: Request, res, next) => {
    if (passThrough.has(req.method)) {
      next('route');
      return;
    }
    next(notAllowed(req, res, res.locals[REFUSAL_LOCAL] as MethodRefusal | undefined));
  });
}
