import path from 'node:path';
import express, { type Router } from 'express';
import type { RemotesPayload } from '../../shared';
import { RemoteCatalogue } from './remote-catalogue';
import { remotesCors } from './remotes-cors';
import { serveBuildOutput } from '../http/build-output-files';

export { loadRemotesConfig, type RemotesConfig, type LoadRemotesConfigOptions } from './remotes-config';
export { RemoteCatalogue, type RemoteCatalogueOptions } from './remote-catalogue';
export { RemotesConfigError } from './remotes-config-error';
export { findBuiltRemotes, builtRemoteEntry, MANIFEST_FILE, type BuiltRemote } from './built-remotes';

export interface RemotesRouterOptions {
  /** Root of the build output; each remote built by this repository lives in `<distDir>/remotes/<name>/`. */
  distDir: string;
  /** The remotes now (they change when a remote's descriptor is read, and on a configuration reload). */
  catalogue: RemoteCatalogue;
  /** Whether the host may show failed slots' details (the server does not run in production). */
  showSlotDetails?: boolean;
  /** Serve the remotes' source maps (`*.map`). */
  sourceMaps: boolean;
}

/**
 * `GET /api/remotes` (the remotes the host registers with the Module Federation runtime) and the files of the remotes
 * built by this repository under `/remotes/<name>/` (long cache for hashed files, `no-cache` for the manifest and
 * the entry, CORS for the allowed host origins). The body is encoded once per change of the catalogue.
 */
export function createRemotesRouter(options: RemotesRouterOptions): Router {
  const { catalogue } = options;
  let body = { version: -1, json: '' };
  let cors = { allowed: catalogue.allowedOrigins, handler: remotesCors(catalogue.allowedOrigins) };

  const router = express.Router();
  router.get('/api/remotes', (_req, res) => {
    if (body.version !== catalogue.version) {
      const payload: RemotesPayload = {
        remotes: catalogue.remotes(),
        showSlotDetails: options.showSlotDetails ?? false,
      };
      body = { version: catalogue.version, json: JSON.stringify(payload) };
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.type('application/json').send(body.json);
  });
  router.use(
    '/remotes',
    (req, res, next) => {
      if (cors.allowed !== catalogue.allowedOrigins) {
        cors = { allowed: catalogue.allowedOrigins, handler: remotesCors(catalogue.allowedOrigins) };
      }
      cors.handler(req, res, next);
    },
    serveBuildOutput(path.join(options.distDir, 'remotes'), { sourceMaps: options.sourceMaps }),
  );
  return router;
}
