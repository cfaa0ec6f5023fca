import { pathOf } from '../http/request-path';
import { declaredRouteFor, routeLabel } from './declared-route';

/** What Express adds to a request it handles (its prototype, then its router), read here without loading Express. */
interface ExpressRequestParts {
  app?: { router?: unknown };
  route?: { path?: unknown };
  baseUrl?: string;
  originalUrl?: string;
}

/**
 * The route label of an error answer (400 and up) Express gave: the route that ran, else the route the request was
 * refused on its way to, by a middleware in front of it: the session step (its store or the database down: 503), a
 * router's permission check (401, 403). Such a refusal is labelled as the route's own answers are (`/meta`,
 * `/api/resources/:name/records`), never by the middleware's mount paths; null for a path no route serves (whatever
 * middleware it went through: it is labelled as any unrouted request is).
 *
 * Undefined for any other answer, so that they cost nothing more: a success (a route names itself; a file a
 * middleware served has no route) and a request Express never saw (the public fast path, a client request). The
 * app's router is searched only for the error answers no route gave.
 */
export function errorAnswerRoute(req: { method?: string; url?: string }, status: number): string | null | undefined {
  if (status < 400) return undefined;
  return routeOnItsWay(req);
}

/**
 * The route that ran for a request, else the route it was on its way to (as errorAnswerRoute gives it, whatever the
 * status); null for a path no route serves, undefined for a request Express never saw.
 */
function routeOnItsWay(req: { method?: string; url?: string }): string | null | undefined {
  const { app, route, baseUrl, originalUrl } = req as ExpressRequestParts;
  if (app === undefined) return undefined;
  const ran = routeLabel(baseUrl ?? '', route?.path);
  if (ran !== undefined) return ran;
  // The path Express routed: its `originalUrl`, which no mount path has trimmed.
  return declaredRouteFor(app.router, req.method ?? 'GET', pathOf(originalUrl ?? req.url)) ?? null;
}

/**
 * The route a request's span is named by once it is answered: `named` (what Express's instrumentation, or the public
 * fast path, reported last), unless the answer is an error errorAnswerRoute labels: then its route, or none at all
 * for a path no route serves (the span keeps the method alone, as any unrouted request's).
 *
 * An answer `cut` short (the client gone, or the shutdown's cut) is named alike by the route that ran or the one it
 * was on its way to, whatever its status: `named` is then whatever layer last ran, which for a request cut while
 * the session loaded is that step's mount, all its paths joined.
 */
export function spanRoute(
  req: { method?: string; url?: string },
  status: number,
  named: string | undefined,
  cut = false,
): string | undefined {
  const route = cut ? routeOnItsWay(req) : errorAnswerRoute(req, status);
  return route === undefined ? named : (route ?? undefined);
}
