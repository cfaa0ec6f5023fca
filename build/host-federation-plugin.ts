import path from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import { HOST_NAME } from '../shared';

type SharedOption = ConstructorParameters<typeof ModuleFederationPlugin>[0]['shared'];

/** What the host's federation needs from outside build/ (which imports only build/ and shared/). */
export interface HostFederationInputs {
  /** The repository's root: the host's runtime plugins are under `host/loader/` there. */
  rootDir: string;
  /** The shared React of every remote and host, eager or not (remotes/kit/webpack.ts sharedReact). */
  sharedReact: (eager: boolean) => SharedOption;
}

/**
 * The host's Module Federation settings, for the product's host (webpack.config.ts) and the remote kit's host
 * emulator (scripts/kit-emulator.ts), so a remote meets the same host in a team's `slots-remote dev` as in
 * production: the same name, React shared the same way, the same runtime plugins.
 */
export function hostFederationPlugin({ rootDir, sharedReact }: HostFederationInputs): ModuleFederationPlugin {
  return new ModuleFederationPlugin({
    name: HOST_NAME,
    remotes: {},
    // Eager: React is in the entry chunk, so the async boundary loads only the shell (two chunks, preloaded by
    // BootPreloadPlugin) instead of one chunk per shared package. The host provides React either way.
    shared: sharedReact(true),
    // The host's own React is the one every remote uses. The default ('version-first') would load the entry of
    // every registered remote to compare React versions whenever sharing is set up after they are registered.
    shareStrategy: 'loaded-first',
    dts: false,
    manifest: false,
    // The host runs in browsers only: the runtime's Node paths (loading entries with Node's vm, its environment
    // checks) are left out of the entry every page parses first (about 5 KB of it).
    experiments: { optimization: { target: 'web' } },
    // The remotes run on the host's runtime core (their externalRuntime: remotes/kit/webpack.ts) instead of bundling
    // one each.
    // The singleton shares plugin resolves React without the runtime's semver parser when the answer is certain.
    runtimePlugins: [
      path.join(rootDir, 'host/loader/provide-runtime-core.ts'),
      path.join(rootDir, 'host/loader/singleton-shares.ts'),
    ],
  });
}
