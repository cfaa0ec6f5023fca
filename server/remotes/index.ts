import path from 'node:path';
import express, { type Router } from 'express';
import type { RemotesPayload } from '../../shared';

export interface RemotesRouterOptions {
  env: NodeJS.ProcessEnv;
  /** Root of the build output; each remote built by this repository lives in `<distDir>/remotes/<name>/`. */
  distDir: string;
}

/**
 * `GET /api/remotes` (the remotes the host registers with the Module Federation runtime) and the static files of
 * the remotes built by this repository under `/remotes/<name>/`.
 * Initial version: owned and completed by the host/federation work (config file, derivation from builds).
 */
export function createRemotesRouter(options: RemotesRouterOptions): Router {
  const router = express.Router();
  router.get('/api/remotes', (_req, res) => {
    const payload: RemotesPayload = { remotes: [] };
    res.json(payload);
  });
  router.use('/remotes', express.static(path.join(options.distDir, 'remotes'), { index: false }));
  return router;
}
