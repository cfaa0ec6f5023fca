/**
 * What is read here of a layer of an Express 5 router (the `router` package, 2.x): the router's own `match`, which
 * has no side effect (it returns what it matched), so asking it after the request was routed changes nothing.
 */
interface RouterLayer {
  /** What of `path` the layer's pattern matched (a mount path's part, for a router), or false; throws on a bad escape. */
  match(path: string): { path: string } | false;
  route?: { path: unknown; methods: Readonly<Record<string, boolean | undefined>> };
  handle?: { stack?: unknown };
}

/**
 * How a route is labelled in the metrics and named on spans: its pattern under the path its router was reached
 * through (`req.baseUrl`, then `req.route.path`). A route of several paths is all of them joined by `|`: bounded all
 * the same, but it tells its paths' requests apart no more (the host's pages are routes of one path each, for that).
 * Undefined for anything that is not a route's path.
 */
export function routeLabel(mountPath: string, pattern: unknown): string | undefined {
  if (typeof pattern === 'string') return `${mountPath}${pattern}`;
  if (Array.isArray(pattern)) return pattern.map((one) => `${mountPath}${String(one)}`).join('|');
  return undefined;
}

/**
 * The label of the route that Express's `router` (an app's `app.router`) would run for `method` on `path` (a URL's
 * path, its query left out), as routeLabel gives it to a request that reached that route; undefined when none would.
 * Layers and the routers mounted among them are tried as Express tries them, mount paths trimmed as it trims them.
 */
export function declaredRouteFor(router: unknown, method: string, path: string): string | undefined {
  return routeIn(stackOf(router), method.toLowerCase(), path, '');
}

function routeIn(stack: readonly RouterLayer[], method: string, path: string, mountPath: string): string | undefined {
  for (const layer of stack) {
    let match: { path: string } | false;
    try {
      match = layer.match(path);
    } catch {
      // A path Express cannot decode: it answers 400 without running any route.
      return undefined;
    }
    if (!match) continue;
    if (layer.route) {
      if (handlesMethod(layer.route.methods, method)) return routeLabel(mountPath, layer.route.path);
      continue;
    }
    const inner = stackOf(layer.handle);
    if (inner.length === 0) continue;
    const removed = match.path;
    // Express enters a router only when its mount path ends at a separator of the request's path.
    const next = path[removed.length];
    if (!path.startsWith(removed) || (next !== undefined && next !== '/')) continue;
    const rest = path.slice(removed.length);
    const base = mountPath + (removed.endsWith('/') ? removed.slice(0, -1) : removed);
    const found = routeIn(inner, method, rest.startsWith('/') ? rest : `/${rest}`, base);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Route.prototype._handlesMethod of the router package: `all` routes take any method, GET routes take HEAD. */
function handlesMethod(methods: Readonly<Record<string, boolean | undefined>>, method: string): boolean {
  if (methods._all) return true;
  if (method === 'head' && !methods.head) return methods.get === true;
  return methods[method] === true;
}

function stackOf(router: unknown): readonly RouterLayer[] {
  const stack = (router as { stack?: unknown } | undefined)?.stack;
  return Array.isArray(stack) ? (stack as RouterLayer[]) : [];
}
