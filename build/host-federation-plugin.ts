import path from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import type { Compiler } from 'webpack';
import { HOST_NAME } from '../shared';

type SharedOption = ConstructorParameters<typeof ModuleFederationPlugin>[0]['shared'];

/** What the host's federation needs from outside build/ (which imports only build/ and shared/). */
export interface HostFederationInputs {
  /** The repository's root: the host's runtime plugins are under `host/loader/` there. */
  rootDir: string;
  /** The shared React of every remote and host, eager or not (remotes/kit/webpack.ts sharedReact). */
  sharedReact: (eager: boolean) => SharedOption;
}

/** The federation sdk's environment module, as the sdk's own modules import it (`./env.js` in its `dist/`). */
const SDK_ENV_REQUEST = './env.js';
const SDK_DIST = /[\\/]node_modules[\\/]@module-federation[\\/]sdk[\\/]dist$/;

/**
 * Makes the sdk's own modules import `replacement` where they import their environment module. The host's copy
 * (host/loader/federation-env.ts) answers the same, but reads the runtime's debug switch from localStorage only once
 * the page has rendered: the runtime's read at start was the page's first storage access, on the way to its first
 * render. Replaced before resolution, so the copy goes through the host's own loaders like any of its modules.
 */
export function replaceFederationEnv(compiler: Compiler, replacement: string): void {
  compiler.hooks.normalModuleFactory.tap('SlotsFederationEnv', (factory) => {
    factory.hooks.beforeResolve.tap('SlotsFederationEnv', (data) => {
      if (data.request === SDK_ENV_REQUEST && SDK_DIST.test(data.context)) data.request = replacement;
    });
  });
}

/** The federation plugin with the host's copy of the sdk's environment module (replaceFederationEnv). */
class HostFederationPlugin extends ModuleFederationPlugin {
  constructor(
    options: ConstructorParameters<typeof ModuleFederationPlugin>[0],
    private readonly envModule: string,
  ) {
    super(options);
  }

  override apply(compiler: Compiler): void {
    super.apply(compiler);
    replaceFederationEnv(compiler, this.envModule);
  }
}

/**
 * The host's Module Federation settings, for the product's host (webpack.config.ts) and the remote kit's host
 * emulator (scripts/kit-emulator.ts), so a remote meets the same host in a team's `slots-remote dev` as in
 * production: the same name, React shared the same way, the same runtime plugins.
 */
export function hostFederationPlugin({ rootDir, sharedReact }: HostFederationInputs): ModuleFederationPlugin {
  return new HostFederationPlugin(
    {
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
    },
    path.join(rootDir, 'host/loader/federation-env.ts'),
  );
}
