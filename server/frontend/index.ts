import path from 'node:path';
import express, { type Router } from 'express';

export interface FrontendRouterOptions {
  /** Root of the build output; the host shell lives in `<distDir>/host/`. */
  distDir: string;
}

/**
 * Serves the built host shell: its static assets, and `index.html` for the client-side routes of DESIGN.md
 * point 15. Initial version: owned and completed by the host work.
 */
export function createFrontendRouter(options: FrontendRouterOptions): Router {
  const router = express.Router();
  const hostDir = path.join(options.distDir, 'host');
  router.use(express.static(hostDir, { index: false }));
  return router;
}
