import fs from 'node:fs';
import path from 'node:path';
import express, { type RequestHandler, type Router } from 'express';
import { ERROR_STATUS, type ErrorBody } from '../../shared';
import { setBuildCacheHeaders } from '../remotes/static-cache';

export interface FrontendRouterOptions {
  /** Root of the build output; the host shell lives in `<distDir>/host/`. */
  distDir: string;
}

/** The client routes of the host (DESIGN.md point 15); each is answered with index.html. */
export const CLIENT_ROUTES = ['/', '/login', '/resources/*splat'];

export const HOST_NOT_BUILT_MESSAGE =
  'The admin interface has not been built yet. Run `npm run build` (or `npm start`, which builds first), then reload.';

/**
 * Serves the built host shell: its assets (a year of cache for hashed files) and `index.html` (`no-cache`) for the
 * client routes only. `/api/*`, `/slots`, `/meta`, `/remotes/*` and anything unknown fall through to the JSON 404.
 * Before a build the client routes answer 503 with a JSON error saying how to build.
 */
export function createFrontendRouter(options: FrontendRouterOptions): Router {
  const hostDir = path.join(options.distDir, 'host');
  const indexFile = path.join(hostDir, 'index.html');
  const router = express.Router();

  router.use(
    express.static(hostDir, {
      index: false,
      redirect: false,
      dotfiles: 'ignore',
      fallthrough: true,
      cacheControl: false,
      setHeaders: setBuildCacheHeaders,
    }),
  );

  const sendIndex: RequestHandler = (_req, res, next) => {
    // Checked per request: a build made after the server started is served without a restart.
    if (!fs.existsSync(indexFile)) {
      const body: ErrorBody = { error: { code: 'unavailable', message: HOST_NOT_BUILT_MESSAGE } };
      res.status(ERROR_STATUS.unavailable).setHeader('Cache-Control', 'no-store');
      res.json(body);
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(indexFile, { cacheControl: false, dotfiles: 'deny' }, (error) => {
      if (error && !res.headersSent) next(error);
    });
  };
  router.get(CLIENT_ROUTES, sendIndex);
  return router;
}
