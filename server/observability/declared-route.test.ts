/**
 * The route Express's router would run for a method and a path, found by asking the router's own layers: what the
 * metrics and the spans label an answer with when a middleware refused the request before its route ran.
 */
import express, { type Express } from 'express';
import request from 'supertest';
import { declaredRouteFor, routeLabel } from './declared-route';

/** Answers with the label the route that ran gives itself (what the metrics read of a request a route answered). */
const ok: express.RequestHandler = (req, res) => {
  res.setHeader('X-Route', routeLabel(req.baseUrl, (req.route as { path?: unknown }).path) ?? '');
  res.end();
};

function appWithRoutes(): Express {
  const app = express();
  // A middleware mounted on several paths (the session step): never a route itself.
  app.use(['/meta', '/api/things'], (_req, _res, next) => next());
  app.get('/meta', ok);
  const things = express.Router();
  things.get('/api/things/:name/records', ok);
  things.route('/api/things/:name/records/:id').get(ok).put(ok);
  app.use(things);
  const mounted = express.Router();
  mounted.post('/:id/run', ok);
  app.use('/jobs', mounted);
  app.all('/anything', ok);
  app.get(['/', '/login'], ok);
  return app;
}

describe('declaredRouteFor', () => {
  const router = appWithRoutes().router;

  it('gives the pattern of the route for the method and path, with the mount paths of its routers', () => {
    expect(declaredRouteFor(router, 'GET', '/meta')).toBe('/meta');
    expect(declaredRouteFor(router, 'GET', '/api/things/articles/records')).toBe('/api/things/:name/records');
    expect(declaredRouteFor(router, 'PUT', '/api/things/articles/records/7')).toBe('/api/things/:name/records/:id');
    expect(declaredRouteFor(router, 'POST', '/jobs/42/run')).toBe('/jobs/:id/run');
    expect(declaredRouteFor(router, 'DELETE', '/anything')).toBe('/anything');
    expect(declaredRouteFor(router, 'GET', '/login')).toBe('/|/login');
  });

  it('gives the label the route gives itself when it runs', async () => {
    const app = appWithRoutes();
    for (const [method, path] of [
      ['GET', '/meta'],
      ['GET', '/api/things/articles/records'],
      ['PUT', '/api/things/articles/records/7'],
      ['POST', '/jobs/42/run'],
      ['DELETE', '/anything'],
      ['GET', '/login'],
    ] as const) {
      const answer = await request(app)[method.toLowerCase() as 'get' | 'put' | 'post' | 'delete'](path);
      expect(answer.headers['x-route']).toBe(declaredRouteFor(app.router, method, path));
    }
  });

  it('matches as Express does: HEAD by GET routes, a trailing slash, the method’s case', () => {
    expect(declaredRouteFor(router, 'HEAD', '/meta')).toBe('/meta');
    expect(declaredRouteFor(router, 'GET', '/meta/')).toBe('/meta');
    expect(declaredRouteFor(router, 'get', '/meta')).toBe('/meta');
  });

  it('finds nothing for a path or a method no route serves, nor for a path Express cannot decode', () => {
    expect(declaredRouteFor(router, 'POST', '/meta')).toBeUndefined();
    expect(declaredRouteFor(router, 'GET', '/meta/more')).toBeUndefined();
    expect(declaredRouteFor(router, 'GET', '/api/things')).toBeUndefined();
    expect(declaredRouteFor(router, 'POST', '/jobsx/42/run')).toBeUndefined();
    expect(declaredRouteFor(router, 'GET', '/api/things/%E0%A4%A/records')).toBeUndefined();
    expect(declaredRouteFor(undefined, 'GET', '/meta')).toBeUndefined();
  });
});

describe('routeLabel', () => {
  it('puts the mount path before the pattern, joins several patterns, and labels nothing else', () => {
    expect(routeLabel('', '/meta')).toBe('/meta');
    expect(routeLabel('/jobs', '/:id/run')).toBe('/jobs/:id/run');
    expect(routeLabel('', ['/', '/login'])).toBe('/|/login');
    expect(routeLabel('', undefined)).toBeUndefined();
    expect(routeLabel('', /regexp/)).toBeUndefined();
  });
});
