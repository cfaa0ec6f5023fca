/**
 * The one way a remote is built, inside this repository and outside it: Module Federation with a manifest, React
 * shared as the host's singleton (the project's own React checked against the host's range), the descriptor
 * (`slots-remote.json`) written beside the manifest, the components' exports checked, bundle budgets, no eval in any
 * mode (the host's Content-Security-Policy forbids it), and `publicPath: 'auto'`, so the same files
 * work from any origin and folder.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import type { Configuration, Module, RuleSetRule } from 'webpack';
import { BuildPathPlugin } from '../../build/build-path-plugin';
import { BundleBudgetPlugin } from '../../build/bundle-budget-plugin';
import { FEDERATION_EXPOSE_PREFIX, remoteBudgets } from '../../build/bundle-budgets';
import { ExposeAssetsPlugin } from '../../build/expose-assets-plugin';
import { RemoteDescriptorPlugin } from '../../build/remote-descriptor-plugin';
import type { RemoteDescriptorFile } from '../../shared';
import { ComponentExportsPlugin } from './component-exports-plugin';
import { ComponentFilesPlugin } from './component-files-plugin';
import { kitVersion } from './packaged-files';
import { SHARED_REACT_RANGE } from './shared-react';
import { SharedReactVersionPlugin } from './shared-react-plugin';

export type BuildMode = 'production' | 'development';

/** The file a remote's folder declares itself in; its default export is `defineRemote(...)`'s result. */
export const REMOTE_DECLARATION_FILE = 'remote.ts';

export { SHARED_REACT_RANGE } from './shared-react';

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

/**
 * React Router's production build for a production bundle. Its package exports name only the development build
 * (remix-run/react-router#14102, open): a production admin ran the router's development checks and printed its
 * development warnings in staff's consoles. Nothing is aliased when the package is not found from `context` or no
 * longer ships those files (a release that exports its production build again).
 */
export function reactRouterProductionAliases(mode: BuildMode, context: string): Record<string, string> {
  if (mode !== 'production') return {};
  let dist: string;
  try {
    dist = path.join(path.dirname(require.resolve('react-router/package.json', { paths: [context] })), 'dist');
  } catch {
    return {};
  }
  const index = path.join(dist, 'production', 'index.mjs');
  const dom = path.join(dist, 'production', 'dom-export.mjs');
  return existsSync(index) && existsSync(dom) ? { 'react-router$': index, 'react-router/dom$': dom } : {};
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
    resolve: {
      extensions: ['.tsx', '.ts', '.js'],
      modules: ['node_modules', ...modules],
      alias: reactRouterProductionAliases(mode, context),
    },
    module: { rules: [scriptRule(mode)] },
    // A cache folder per build, so watching the host and several remotes at once never shares one.
    cache: mode === 'development' ? { type: 'filesystem', name: `${name}-${mode}` } : false,
    performance: { hints: false },
    stats: 'errors-warnings',
    // The federation plugins log routine notes (e.g. that `publicPath: 'auto'` resolves at run time) as warnings.
    infrastructureLogging: { level: 'error' },
  };
}

/** Each component of a remote with its file: `<Component>` -> `<dir>/components/<Component>.tsx`. */
export function componentFilesOf(descriptor: RemoteDescriptorFile, dir: string): Record<string, string> {
  return Object.fromEntries(
    descriptor.components.map((component) => [component, path.join(dir, 'components', `${component}.tsx`)]),
  );
}

/** The webpack `exposes` of a remote: `./<Component>` -> `<dir>/components/<Component>.tsx`. */
export function exposesOf(descriptor: RemoteDescriptorFile, dir: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(componentFilesOf(descriptor, dir)).map(([component, file]) => [`./${component}`, file]),
  );
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

/** A webpack `output.filename`: a template, or a function of the chunk being named. */
export type EntryFilename = NonNullable<NonNullable<Configuration['output']>['filename']>;

/**
 * An entry file name with a content hash, `<stem>.<hash>.js` (`stem` may hold webpack's `[name]`). The federation
 * runtime module asks webpack for the entry's path while modules are hashed, before the chunk's content hash exists
 * (only to learn its folder); there the name is given without the hash, which changes nothing in the output. A fixed
 * template would fail the build there ("[contenthash] not implemented in this context").
 */
export function hashedEntryFilename(stem: string): EntryFilename {
  return (pathData) =>
    pathData.chunk && 'contentHash' in pathData.chunk && pathData.chunk.contentHash?.javascript === undefined
      ? `${stem}.js`
      : `${stem}.[contenthash:10].js`;
}

/**
 * The container entry's file name. In production it carries a content hash (`remoteEntry.<hash>.js`), like every
 * other file of the build: the manifest names it (`metaData.remoteEntry.name`), the host finds it there, and the
 * server sends it with a year of `immutable` cache, so a warm page load revalidates the manifest only. A development build keeps the stable name the kit's dev server and live reload serve.
 */
export function remoteEntryFilename(mode: BuildMode): EntryFilename {
  return mode === 'production' ? hashedEntryFilename('remoteEntry') : 'remoteEntry.js';
}

/** The chunk that holds the code of every exposed component of a remote (`components.<hash>.js`). */
export const COMPONENTS_CHUNK_NAME = 'components';

/**
 * Every component of a remote, and the code of the remote's own folders they share, in one chunk: a page that
 * renders several components of one remote fetches one file from it, not one per component plus the shared ones
 * (over HTTP/1.1's six connections, each file was one more request in line behind the others). A remote's
 * components are small (each one's budget is 20 KB, and the built-in remotes' are 0.3 to 2 KB), so a page that renders
 * one of them pays little for the rest. Packages from node_modules stay apart: React is the host's (shared), and
 * a large library a single component uses is not loaded by every page of the remote. So does what a component loads
 * with `import()`: only the exposed components' chunks are gathered, so a large module one component needs can be
 * left out of every page that does not render it (with `chunks: 'async'` the lazy chunk was gathered too, and its
 * module counted in every component's budget).
 */
function componentsTogether(): NonNullable<NonNullable<Configuration['optimization']>['splitChunks']> {
  return {
    cacheGroups: {
      [COMPONENTS_CHUNK_NAME]: {
        name: COMPONENTS_CHUNK_NAME,
        chunks: (chunk) => chunk.name?.startsWith(FEDERATION_EXPOSE_PREFIX) ?? false,
        enforce: true,
        priority: 10,
        test: (module: Module) => {
          const resource: unknown = (module as Module & { resource?: unknown }).resource;
          return typeof resource === 'string' && !/[\\/]node_modules[\\/]/.test(resource);
        },
      },
    },
  };
}

/**
 * What a remote's team can do about a budget exceeded (BundleBudgetPlugin's advice in a remote's build). It never
 * points at build/bundle-budgets.ts alone: a standalone project has no such file (the kit carries it compiled).
 */
export const REMOTE_BUDGET_ADVICE =
  `Every component's own code is in one chunk (${COMPONENTS_CHUNK_NAME}.<hash>.js) that each component's budget ` +
  'counts whole, so a large module any component imports is paid by every page that shows any of them. When one ' +
  'component needs it, load it from that component with `import()` (it becomes a chunk of its own, outside the ' +
  'budgets, fetched only when that component asks for it); fetch large data at run time rather than bundling it; or ' +
  "make the module smaller. The budgets are the product's: the kit has no setting for them (in the product's " +
  'repository, build/bundle-budgets.ts).';

/** The webpack configuration of a remote. */
export function remoteWebpackConfig(options: RemoteWebpackOptions): Configuration {
  const { remote, dir, mode } = options;
  const hashed = mode === 'production' ? '[name].[contenthash:10]' : '[name]';
  return {
    ...baseConfiguration(mode, remote.name, dir, options.extraModuleFolders ?? []),
    // A development remote may be loaded by a production host (and the other way round): its JSX always uses the
    // runtime every React build provides.
    module: { rules: [scriptRule(mode, false)] },
    // No page of its own: the container entry (remoteEntry[.<hash>].js) is the remote's only entry point.
    entry: {},
    output: {
      path: options.outputPath ?? path.join(dir, 'dist'),
      // `auto`: chunks load relative to wherever remoteEntry.js was loaded from, and the manifest says `auto` so
      // the host resolves remoteEntry.js relative to the remote's entry (the URL of mf-manifest.json). The same
      // build works under /remotes/<name>/ of the product's server and from any other origin.
      publicPath: 'auto',
      // The container entry is the build's only entry chunk: this names it (the federation plugin's `filename`
      // takes a fixed string only, which cannot carry a content hash here; see hashedEntryFilename).
      filename: remoteEntryFilename(mode),
      chunkFilename: `${hashed}.js`,
      uniqueName: remote.name,
      clean: true,
    },
    // A build with errors writes nothing (webpack writes anyway in development): the last good build stays served,
    // as `slots-remote dev` tells pages of good builds only, and a page loaded meanwhile would otherwise be told of a
    // component that cannot load.
    optimization: { splitChunks: componentsTogether(), emitOnErrors: false },
    plugins: [
      new ModuleFederationPlugin({
        name: remote.name,
        exposes: exposesOf(remote, dir),
        shared: sharedReact(false),
        dts: false,
        manifest: true,
        // The federation runtime core comes from the host page, not from a copy in every remoteEntry.js: a
        // remote's entry is then mostly its expose map. A remote consumes no other remote (the kit declares none):
        // the bundler runtime's handling of remote imports is left out (about 2 KB of each entry), and with it,
        // like the host's, the runtime's Node paths (a remote runs in the host's page only).
        experiments: { externalRuntime: true, optimization: { target: 'web', disableRemote: true } },
      }),
      new RemoteDescriptorPlugin({ ...remote, kit: kitVersion() }),
      // A declared component without its file fails with one error saying so (not the federation's BUILD-001 first).
      new ComponentFilesPlugin(componentFilesOf(remote, dir)),
      // A declared component whose file exports no component fails here, not on the pages that show it.
      new ComponentExportsPlugin(componentFilesOf(remote, dir)),
      // A project on another React than the host's builds and tests green, then fails on every page.
      new SharedReactVersionPlugin(),
      new ExposeAssetsPlugin(),
      new BuildPathPlugin(options.rootDir ?? dir),
      // Budgets apply to what ships: unminified development builds would exceed them by design.
      ...(mode === 'production'
        ? [new BundleBudgetPlugin(remoteBudgets(remote.name), { advice: REMOTE_BUDGET_ADVICE })]
        : []),
    ],
  };
}
