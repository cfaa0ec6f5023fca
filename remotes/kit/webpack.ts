/**
 * The one way a remote is built, inside this repository and outside it: Module Federation with a manifest, React
 * shared as the host's singleton, the descriptor (`slots-remote.json`) written beside the manifest, bundle budgets,
 * no eval in any mode (the host's Content-Security-Policy forbids it), and `publicPath: 'auto'`, so the same files
 * work from any origin and folder.
 */
import path from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import type { Configuration, RuleSetRule } from 'webpack';
import { BuildPathPlugin } from '../../build/build-path-plugin';
import { BundleBudgetPlugin } from '../../build/bundle-budget-plugin';
import { remoteBudgets } from '../../build/bundle-budgets';
import { RemoteDescriptorPlugin } from '../../build/remote-descriptor-plugin';
import type { RemoteDescriptorFile } from '../../shared';

export type BuildMode = 'production' | 'development';

/** The file a remote's folder declares itself in; its default export is `defineRemote(...)`'s result. */
export const REMOTE_DECLARATION_FILE = 'remote.ts';

/** React's version range host and remotes agree on; the host provides it, a remote never loads its own copy. */
export const SHARED_REACT_RANGE = '^19.2.0';

/** The one React both sides use: singletons, so hooks and context work across the federation boundary. */
export function sharedReact(eager: boolean) {
  const requiredVersion = SHARED_REACT_RANGE;
  return {
    react: { singleton: true, requiredVersion, eager },
    'react-dom': { singleton: true, requiredVersion, eager },
    'react/jsx-runtime': { singleton: true, requiredVersion, eager },
    // Development builds compile JSX to this entry point instead.
    'react/jsx-dev-runtime': { singleton: true, requiredVersion, eager },
  };
}

/**
 * TypeScript and JSX through swc: types are stripped, not checked (`tsc` checks them). `developmentJsx` compiles JSX
 * to React's development runtime, which only works with a development build of React: right for the host, which
 * brings its own React, wrong for a remote, which runs on whatever React the host page provides.
 */
export function scriptRule(mode: BuildMode, developmentJsx = mode === 'development'): RuleSetRule {
  return {
    test: /\.[cm]?tsx?$/,
    exclude: /node_modules/,
    use: {
      loader: require.resolve('swc-loader'),
      options: {
        jsc: {
          target: 'es2020',
          parser: { syntax: 'typescript', tsx: true },
          transform: { react: { runtime: 'automatic', development: developmentJsx } },
        },
      },
    },
  };
}

/** What every front-end build shares: no eval-based source maps in any mode, TypeScript through swc. */
export function baseConfiguration(mode: BuildMode, name: string, context: string, modules: string[]): Configuration {
  return {
    name,
    mode,
    context,
    target: 'web',
    // Never an eval-based devtool: the server's Content-Security-Policy allows no eval, in development too.
    devtool: mode === 'production' ? 'source-map' : 'cheap-module-source-map',
    resolve: { extensions: ['.tsx', '.ts', '.js'], modules: ['node_modules', ...modules] },
    module: { rules: [scriptRule(mode)] },
    // A cache folder per build, so watching the host and several remotes at once never shares one.
    cache: mode === 'development' ? { type: 'filesystem', name: `${name}-${mode}` } : false,
    performance: { hints: false },
    stats: 'errors-warnings',
    // The federation plugins log routine notes (e.g. that `publicPath: 'auto'` resolves at run time) as warnings.
    infrastructureLogging: { level: 'error' },
  };
}

/** The webpack `exposes` of a remote: `./<Component>` -> `<dir>/components/<Component>.tsx`. */
export function exposesOf(descriptor: RemoteDescriptorFile, dir: string): Record<string, string> {
  const exposes: Record<string, string> = {};
  for (const component of descriptor.components) {
    exposes[`./${component}`] = path.join(dir, 'components', `${component}.tsx`);
  }
  return exposes;
}

export interface RemoteWebpackOptions {
  /** What the remote provides: the default export of its `remote.ts`. */
  remote: RemoteDescriptorFile;
  /** The remote's folder: components are `<dir>/components/<Component>.tsx`. */
  dir: string;
  mode: BuildMode;
  /** Where the build goes; `<dir>/dist` by default. */
  outputPath?: string;
  /** Folders searched for packages after `node_modules` (this repository adds its own node_modules). */
  extraModuleFolders?: string[];
  /** The folder whose absolute path is taken out of every emitted file (source maps); `dir` by default. */
  rootDir?: string;
}

/** The webpack configuration of a remote. */
export function remoteWebpackConfig(options: RemoteWebpackOptions): Configuration {
  const { remote, dir, mode } = options;
  const hashed = mode === 'production' ? '[name].[contenthash:10]' : '[name]';
  return {
    ...baseConfiguration(mode, remote.name, dir, options.extraModuleFolders ?? []),
    // A development remote may be loaded by a production host (and the other way round): its JSX always uses the
    // runtime every React build provides.
    module: { rules: [scriptRule(mode, false)] },
    // No page of its own: the container entry (remoteEntry.js) is the remote's only entry point.
    entry: {},
    output: {
      path: options.outputPath ?? path.join(dir, 'dist'),
      // `auto`: chunks load relative to wherever remoteEntry.js was loaded from, and the manifest says `auto` so
      // the host resolves remoteEntry.js relative to the remote's entry (the URL of mf-manifest.json). The same
      // build works under /remotes/<name>/ of the product's server and from any other origin.
      publicPath: 'auto',
      filename: `${hashed}.js`,
      chunkFilename: `${hashed}.js`,
      uniqueName: remote.name,
      clean: true,
    },
    plugins: [
      new ModuleFederationPlugin({
        name: remote.name,
        filename: 'remoteEntry.js',
        exposes: exposesOf(remote, dir),
        shared: sharedReact(false),
        dts: false,
        manifest: true,
        // The federation runtime core comes from the host page, not from a copy in every remoteEntry.js: a
        // remote's entry is then mostly its expose map.
        experiments: { externalRuntime: true },
      }),
      new RemoteDescriptorPlugin(remote),
      new BuildPathPlugin(options.rootDir ?? dir),
      // Budgets apply to what ships: unminified development builds would exceed them by design.
      ...(mode === 'production' ? [new BundleBudgetPlugin(remoteBudgets(remote.name))] : []),
    ],
  };
}
