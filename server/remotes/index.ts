import path from 'node:path';
import express, { type Request, type Router } from 'express';
import type { RemoteDescriptor, RemotesPayload } from '../../shared';
import type { RemoteRegistry } from './remote-registry';
import { remotesCors } from './remotes-cors';
import { serveBuildOutput } from '../http/build-output-files';
import { jsonRoute } from '../http/json-route';
import { withPublicOrigin } from '../security/public-url';

export { loadRemotesConfig, type RemotesConfig, type LoadRemotesConfigOptions } from './remotes-config';
export { RemoteRegistry, type RemoteRegistryOptions, type RemoteState } from './remote-registry';
export type { DescriptorSource, DescriptorOutcome } from './descriptor-source';
export { HttpDescriptorSource, type HttpDescriptorSourceOptions } from './http-descriptor-source';
export { RemotesConfigError } from '../config/remotes-config-error';
export { findBuiltRemotes, builtRemoteEntry, MANIFEST_FILE, type BuiltRemote } from './built-remotes';

export interface RemotesRouterOptions {
  /** Root of the build output; each remote built by this repository lives in `<distDir>/remotes/<name>/`. */
  distDir: string;
  /** The remotes now (they change when a remote's descriptor is read, and on a configuration reload). */
  registry: RemoteRegistry;
  /** Whether the host may show failed slots' details (the server does not run in production). */
  showSlotDetails?: boolean;
  /** Serve the remotes' source maps (`*.map`) and build statistics (`mf-stats.json`): files that reveal the source. */
  sourceMaps: boolean;
  /**
   * The origin of the product's own pages (PUBLIC_URL's): answered with CORS besides REMOTES_CONFIG's
   * `allowedOrigins`, wherever the remotes are addressed from (another name of this server, a cache in front).
   */
  publicOrigin?: string;
  /** The remotes of one request when they differ from everyone's (a canary or a preview); null when they do not. */
  forRequest?: (req: Request) => RemoteDescriptor[] | null;
}

/**
 * `GET /api/remotes` (the remotes the host registers with the Module Federation runtime; `no-cache` anonymous,
 * `private, no-store` signed in) and the files of the remotes built by this repository under `/remotes/<name>/` (a
 * year of `immutable` cache for hashed files, the production entry `remoteEntry.<hash>.js` included; `no-cache` for
 * the manifest, the descriptor and a development build's `remoteEntry.js`; CORS for the allowed host origins and the
 * product's own pages). The body is encoded once per change of the remote registry.
 */
export function createRemotesRouter(options: RemotesRouterOptions): Router {
  const { registry } = options;
  let body = { version: -1, json: '' };
  const corsOf = (allowed: readonly string[] | '*') => ({
    allowed,
    handler: remotesCors(withPublicOrigin(allowed, options.publicOrigin)),
  });
  let cors = corsOf(registry.allowedOrigins);

  const router = express.Router();
  // Any other method: a JSON 405 naming GET and HEAD, as on every path of the API.
  jsonRoute(router, '/api/remotes', {
    GET: (req, res) => {
      // Anonymous: the one answer every visitor gets, revalidated. Signed in, it stays `private, no-store`, as the
      // session step marks every signed-in answer (`/meta`, `/api/locations`): it may be chosen for this user (a
      // canary, a preview) and carry the session's Set-Cookie, neither of which a shared cache may keep.
      if (req.user === undefined) res.setHeader('Cache-Control', 'no-cache');
      const own = options.forRequest?.(req) ?? null;
      if (own !== null) {
        // This visitor's canary or preview: private, and encoded for them alone.
        res.setHeader('Cache-Control', 'private, no-store');
        const payload: RemotesPayload = { remotes: own, showSlotDetails: options.showSlotDetails ?? false };
        res.json(payload);
        return;
      }
      if (body.version !== registry.version) {
        const payload: RemotesPayload = {
          remotes: registry.remotes(),
          showSlotDetails: options.showSlotDetails ?? false,
        };
        body = { version: registry.version, json: JSON.stringify(payload) };
      }
      res.type('application/json').send(body.json);
    },
  });
  router.use('/remotes', (req, res, next) => {
    if (cors.allowed !== registry.allowedOrigins) cors = corsOf(registry.allowedOrigins);
    cors.handler(req, res, next);
  });
  // A route, not a mount: metrics and spans name every remote file by it (`GET /remotes/*file`).
  router.get('/remotes/*file', serveBuildOutput(options.distDir, { sourceMaps: options.sourceMaps }));
  return router;
}
