import type { Express } from 'express';

/** A route the app declares: its path pattern (e.g. `/api/resources/:name`) and the methods it handles. */
export interface DeclaredRoute {
  path: string;
  methods: string[];
}

interface LayerLike {
  route?: { path: unknown; methods: Record<string, boolean> };
  handle?: { stack?: unknown };
  rawPath?: unknown;
}

/**
 * Every route of an Express 5 app, found by walking its router and the routers mounted in it, so tests cover
 * routes added later without being told about them. Paths of mounted routers are prefixed with their mount path.
 */
export function declaredRoutes(app: Express): DeclaredRoute[] {
  const router = (app as unknown as { router?: { stack?: unknown } }).router;
  const routes = new Map<string, Set<string>>();
  walk(router?.stack, '', routes);
  return [...routes].map(([path, methods]) => ({ path, methods: [...methods].sort() }));
}

function walk(stack: unknown, prefix: string, routes: Map<string, Set<string>>): void {
  if (!Array.isArray(stack)) return;
  for (const layer of stack as LayerLike[]) {
    if (layer.route && typeof layer.route.path === 'string') {
      const path = join(prefix, layer.route.path);
      const methods = routes.get(path) ?? new Set<string>();
      for (const [method, handled] of Object.entries(layer.route.methods)) {
        if (handled) methods.add(method === '_all' ? '*' : method.toUpperCase());
      }
      routes.set(path, methods);
    } else if (layer.handle && Array.isArray(layer.handle.stack)) {
      const mount = typeof layer.rawPath === 'string' ? layer.rawPath : '/';
      walk(layer.handle.stack, join(prefix, mount), routes);
    }
  }
}

function join(prefix: string, path: string): string {
  const joined = `${prefix.replace(/\/$/, '')}/${path.replace(/^\//, '')}`;
  return joined.length > 1 ? joined.replace(/\/$/, '') : joined;
}
