import path from 'node:path';
import express, { type Router } from 'express';
import type { RemotesPayload } from '../../shared';
import { loadRemotesConfig, type RemotesConfig } from './remotes-config';
import { remotesCors } from './remotes-cors';
import { serveBuildOutput } from '../http/build-output-files';

export { loadRemotesConfig, type RemotesConfig, type LoadRemotesConfigOptions } from './remotes-config';
export { RemotesConfigError } from './remotes-config-error';
export { findBuiltRemotes, builtRemoteEntry, MANIFEST_FILE } from './built-remotes';

export interface RemotesRouterOptions {
  env: NodeJS.ProcessEnv;
  /** Root of the build output; each remote built by this repository lives in `<distDir>/remotes/<name>/`. */
  distDir: string;
  /** An already loaded configuration (e.g. to also derive the CSP from it); loaded from env and distDir otherwise. */
  config?: RemotesConfig;
  /** Serve the remotes' source maps (`*.map`). */
  sourceMaps: boolean;
}

/**
 * `GET /api/remotes` (the remotes the host registers with the Module Federation runtime) and the files of the remotes
 * built by this repository under `/remotes/<name>/` (long cache for hashed files, `no-cache` for the manifest and
 * the entry, CORS for the allowed host origins). The configuration is loaded and validated here, at start-up:
 * a bad REMOTES_CONFIG or an inconsistent build throws a RemotesConfigError that says what to fix.
 */
export function createRemotesRouter(options: RemotesRouterOptions): Router {
  const config = options.config ?? loadRemotesConfig({ env: options.env, distDir: options.distDir });
  const payload: RemotesPayload = { remotes: config.remotes };
  const body = JSON.stringify(payload);

  const router = express.Router();
  router.get('/api/remotes', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('application/json').send(body);
  });
  router.use(
    '/remotes',
    remotesCors(config.allowedOrigins),
    serveBuildOutput(path.join(options.distDir, 'remotes'), { sourceMaps: options.sourceMaps }),
  );
  return router;
}
