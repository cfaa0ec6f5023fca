/**
 * Every front-end app of the repository, one webpack configuration each, selectable with `--config-name`:
 * `host` (the React shell) and one per remote (`team_marketing`, `team_records`).
 *
 *   npm run build                                  all of them, production (scripts/build.ts)
 *   npm run dev                                    all of them, development, watching (scripts/dev.ts)
 *   node --import tsx node_modules/webpack-cli/bin/cli.js --config webpack.config.ts --config-name team_records
 *
 * The host declares no remotes: it learns them at run time (from the boot data the server writes into index.html,
 * else from `GET /api/remotes`), so adding a remote or a component never rebuilds the host. Each remote derives its
 * `exposes` from its own descriptor (`remotes/<team>/remote.ts`).
 */
import path from 'node:path';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import type { Configuration, RuleSetRule } from 'webpack';
import { BuildPathPlugin } from './build/build-path-plugin';
import { BootPreloadPlugin } from './build/boot-preload-plugin';
import { BundleBudgetPlugin } from './build/bundle-budget-plugin';
import { hostBudgets, remoteBudgets } from './build/bundle-budgets';
import { RemoteDescriptorPlugin } from './build/remote-descriptor-plugin';
import { marketingRemote } from './remotes/marketing/remote';
import { recordsRemote } from './remotes/records/remote';
import { exposesOf } from './remotes/remote-declaration';
import type { RemoteDescriptorFile } from './shared';

export type BuildMode = 'production' | 'development';

export interface RemoteApp {
  /** Folder of the remote: relative to the repository root, or absolute (a fixture remote elsewhere). */
  folder: string;
  /** What the remote provides, as its team declares it in `<folder>/remote.ts`. */
  descriptor: RemoteDescriptorFile;
}

export const ROOT_DIR = __dirname;
export const DIST_DIR = path.join(ROOT_DIR, 'dist');
export const HOST_NAME = 'host';

/** The remotes this repository builds. A new team adds its folder here; nothing else lists its components. */
export const REMOTE_APPS: readonly RemoteApp[] = [
  { folder: 'remotes/marketing', descriptor: marketingRemote },
  { folder: 'remotes/records', descriptor: recordsRemote },
];

/** The one React both sides use: singletons, so hooks and context work across the federation boundary. */
function sharedReact(eager: boolean) {
  const requiredVersion = '^19.2.0';
  return {
    react: { singleton: true, requiredVersion, eager },
    'react-dom': { singleton: true, requiredVersion, eager },
    'react/jsx-runtime': { singleton: true, requiredVersion, eager },
    // Development builds compile JSX to this entry point instead.
    'react/jsx-dev-runtime': { singleton: true, requiredVersion, eager },
  };
}

function scriptRule(mode: BuildMode): RuleSetRule {
  return {
    test: /\.[cm]?tsx?$/,
    exclude: /node_modules/,
    use: {
      loader: 'swc-loader',
      options: {
        jsc: {
          target: 'es2020',
          parser: { syntax: 'typescript', tsx: true },
          transform: { react: { runtime: 'automatic', development: mode === 'development' } },
        },
      },
    },
  };
}

function common(mode: BuildMode, name: string): Configuration {
  return {
    name,
    mode,
    context: ROOT_DIR,
    target: 'web',
    // Never an eval-based devtool: the server's Content-Security-Policy allows no eval, in development too.
    devtool: mode === 'production' ? 'source-map' : 'cheap-module-source-map',
    // The repository's node_modules also serve sources outside it (a test's fixture remote in a temp folder).
    resolve: { extensions: ['.tsx', '.ts', '.js'], modules: ['node_modules', path.join(ROOT_DIR, 'node_modules')] },
    module: { rules: [scriptRule(mode)] },
    // Per-app cache folders, so watching all apps at once never shares one.
    cache: mode === 'development' ? { type: 'filesystem', name: `${name}-${mode}` } : false,
    performance: { hints: false },
    stats: 'errors-warnings',
    // The federation plugins log routine notes (e.g. that `publicPath: 'auto'` resolves at run time) as warnings.
    infrastructureLogging: { level: 'error' },
  };
}

/**
 * The host's entry file name. The federation runtime module asks webpack for this path while hashing modules,
 * before the chunk's content hash exists (only to learn the `assets/` folder); there the name is given without
 * the hash, which changes nothing in the output.
 */
function hostEntryFilename(mode: BuildMode): NonNullable<Configuration['output']>['filename'] {
  if (mode !== 'production') return 'assets/[name].js';
  return (pathData) =>
    pathData.chunk && 'contentHash' in pathData.chunk && pathData.chunk.contentHash?.javascript === undefined
      ? 'assets/[name].js'
      : 'assets/[name].[contenthash:10].js';
}

export function hostConfiguration(mode: BuildMode): Configuration {
  const hashed = mode === 'production' ? '[name].[contenthash:10]' : '[name]';
  return {
    ...common(mode, HOST_NAME),
    // The entry starts the page's requests and remote loads (host/startup, no React), then imports ./bootstrap.
    entry: { main: './host/index.ts' },
    output: {
      path: path.join(DIST_DIR, 'host'),
      // Absolute: deep client routes such as /resources/articles/1/edit load the same files.
      publicPath: '/',
      filename: hostEntryFilename(mode),
      chunkFilename: `assets/${hashed}.js`,
      cssFilename: `assets/${hashed}.css`,
      cssChunkFilename: `assets/${hashed}.css`,
      uniqueName: HOST_NAME,
      clean: true,
    },
    experiments: { css: true },
    plugins: [
      new ModuleFederationPlugin({
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
        // The remotes run on the host's runtime core (externalRuntime below) instead of bundling one each.
        runtimePlugins: [path.join(ROOT_DIR, 'host/loader/provide-runtime-core.ts')],
      }),
      new HtmlWebpackPlugin({
        template: './host/index.html',
        filename: 'index.html',
        // In the head, deferred: the entry is requested before the stylesheet and the boot preloads.
        inject: 'head',
        scriptLoading: 'defer',
        minify: mode === 'production',
      }),
      new BootPreloadPlugin({ entry: 'main', boundary: './bootstrap' }),
      new BuildPathPlugin(ROOT_DIR),
      // Budgets apply to what ships: unminified development builds would exceed them by design.
      ...(mode === 'production' ? [new BundleBudgetPlugin(hostBudgets())] : []),
    ],
  };
}

export interface RemoteBuildOptions {
  /** Where to write the build; `dist/remotes/<name>/` by default (tests build fixture remotes elsewhere). */
  outputPath?: string;
}

export function remoteConfiguration(
  mode: BuildMode,
  remote: RemoteApp,
  options: RemoteBuildOptions = {},
): Configuration {
  const { descriptor } = remote;
  const hashed = mode === 'production' ? '[name].[contenthash:10]' : '[name]';
  return {
    ...common(mode, descriptor.name),
    // No page of its own: the container entry (remoteEntry.js) is the remote's only entry point.
    entry: {},
    output: {
      path: options.outputPath ?? path.join(DIST_DIR, 'remotes', descriptor.name),
      // `auto`: chunks load relative to wherever remoteEntry.js was loaded from, and the manifest says `auto` so
      // the host resolves remoteEntry.js relative to the manifest URL. The same build works under
      // /remotes/<name>/ of this server and from any other origin.
      publicPath: 'auto',
      filename: `${hashed}.js`,
      chunkFilename: `${hashed}.js`,
      uniqueName: descriptor.name,
      clean: true,
    },
    plugins: [
      new ModuleFederationPlugin({
        name: descriptor.name,
        filename: 'remoteEntry.js',
        exposes: exposesOf(descriptor, path.isAbsolute(remote.folder) ? remote.folder : `./${remote.folder}`),
        shared: sharedReact(false),
        dts: false,
        manifest: true,
        // The federation runtime core comes from the host page (host/loader/provide-runtime-core.ts), not
        // from a copy in every remoteEntry.js: a remote's entry is then mostly its expose map.
        experiments: { externalRuntime: true },
      }),
      new RemoteDescriptorPlugin(descriptor),
      new BuildPathPlugin(ROOT_DIR),
      ...(mode === 'production' ? [new BundleBudgetPlugin(remoteBudgets(descriptor.name))] : []),
    ],
  };
}

/** Every app, host first. */
export function createConfigurations(mode: BuildMode): Configuration[] {
  return [hostConfiguration(mode), ...REMOTE_APPS.map((remote) => remoteConfiguration(mode, remote))];
}

/** The webpack CLI calls this with `--mode` in `argv`; production unless told otherwise. */
export default function webpackConfig(_env: unknown, argv: { mode?: string } = {}): Configuration[] {
  return createConfigurations(argv.mode === 'development' ? 'development' : 'production');
}
