/**
 * Every front-end build of the repository, one webpack configuration each, selectable with `--config-name`:
 * `host` (the React shell) and one per remote (`team_marketing`, `team_records`).
 *
 *   npm run build                                  all of them, production (scripts/build.ts)
 *   npm run dev                                    all of them, development, watching (scripts/dev.ts)
 *   node --import tsx node_modules/webpack-cli/bin/cli.js --config webpack.config.ts --config-name team_records
 *
 * The host declares no remotes: it learns them at run time (from the boot data the server writes into index.html,
 * else from `GET /api/remotes`), so adding a remote or a component never rebuilds the host. Each remote derives its
 * `exposes` from its own declaration (`remotes/<folder>/remote.ts`, default export) through the remote kit
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import type { Configuration } from 'webpack';
import { BuildPathPlugin } from './build/build-path-plugin';
import { BootPreloadPlugin } from './build/boot-preload-plugin';
import { BundleBudgetPlugin } from './build/bundle-budget-plugin';
import { hostBudgets } from './build/bundle-budgets';
import { hostFederationPlugin } from './build/host-federation-plugin';
import type { RemoteDeclaration } from './remotes/kit';
import {
  baseConfiguration,
  hashedEntryFilename,
  REMOTE_DECLARATION_FILE,
  remoteWebpackConfig,
  sharedReact,
  type BuildMode,
} from './remotes/kit/webpack';
import { HOST_NAME, type RemoteDescriptorFile } from './shared';

export type { BuildMode } from './remotes/kit/webpack';

/** A built-in remote: a remote of this repository, built into `dist/remotes/<name>/`. */
export interface RepositoryRemote {
  /** Folder of the remote: relative to the repository root, or absolute (a fixture remote elsewhere). */
  folder: string;
  /** What the remote provides, as its team declares it in `<folder>/remote.ts`. */
  descriptor: RemoteDescriptorFile;
}

export const ROOT_DIR = __dirname;
export const DIST_DIR = path.join(ROOT_DIR, 'dist');
/** Where `npm run dev` builds: never the production `dist/`, which `npm run serve` may be serving. */
export const DEV_DIST_DIR = path.join(ROOT_DIR, '.dev', 'dist');

/**
 * The remotes this repository builds: every `remotes/<folder>/` with a `remote.ts` and no `package.json` of its own.
 * A folder with its own `package.json` is a standalone remote project (`npm run remote:new`), built by its own
 * `npm run build` like any remote outside this repository.
 */
export function findRepositoryRemotes(rootDir = ROOT_DIR): RepositoryRemote[] {
  const remotesDir = path.join(rootDir, 'remotes');
  return readdirSync(remotesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join('remotes', entry.name))
    .filter(
      (folder) =>
        existsSync(path.join(rootDir, folder, REMOTE_DECLARATION_FILE)) &&
        !existsSync(path.join(rootDir, folder, 'package.json')),
    )
    .sort()
    .map((folder) => {
      const declared = require(path.join(rootDir, folder, REMOTE_DECLARATION_FILE)) as { default?: RemoteDeclaration };
      if (!declared.default) {
        throw new Error(`${folder}/${REMOTE_DECLARATION_FILE} must default-export defineRemote({ ... }).`);
      }
      return { folder, descriptor: declared.default };
    });
}

export const REPOSITORY_REMOTES: readonly RepositoryRemote[] = findRepositoryRemotes();

function common(mode: BuildMode, name: string): Configuration {
  // The repository's node_modules also serve sources outside it (a test's fixture remote in a temp folder).
  return baseConfiguration(mode, name, ROOT_DIR, [path.join(ROOT_DIR, 'node_modules')]);
}

/** The host's entry file name: hashed in production (see hashedEntryFilename). */
function hostEntryFilename(mode: BuildMode): NonNullable<Configuration['output']>['filename'] {
  return mode === 'production' ? hashedEntryFilename('assets/[name]') : 'assets/[name].js';
}

export function hostConfiguration(mode: BuildMode, distDir = DIST_DIR): Configuration {
  const hashed = mode === 'production' ? '[name].[contenthash:10]' : '[name]';
  return {
    ...common(mode, HOST_NAME),
    // The entry starts the page's requests and remote loads (host/startup, no React), then imports ./bootstrap.
    entry: { main: './host/index.ts' },
    output: {
      path: path.join(distDir, 'host'),
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
    module: {
      rules: [
        ...(common(mode, HOST_NAME).module?.rules ?? []),
        // The contract's modules only declare (constants, types, pure functions): one the shell does not use is left
        // out even when it is re-exported by shared/index.ts, the barrel every part imports from.
        { test: /[\\/]shared[\\/][^\\/]+\.ts$/, sideEffects: false },
      ],
    },
    plugins: [
      hostFederationPlugin({ rootDir: ROOT_DIR, sharedReact }),
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
  /** The build output root, when not `dist/` (`npm run dev`). */
  distDir?: string;
}

/** A remote of this repository, built with the remote kit's preset like any remote outside it. */
export function remoteConfiguration(
  mode: BuildMode,
  remote: RepositoryRemote,
  options: RemoteBuildOptions = {},
): Configuration {
  return remoteWebpackConfig({
    remote: remote.descriptor,
    dir: path.resolve(ROOT_DIR, remote.folder),
    mode,
    outputPath: options.outputPath ?? path.join(options.distDir ?? DIST_DIR, 'remotes', remote.descriptor.name),
    extraModuleFolders: [path.join(ROOT_DIR, 'node_modules')],
    rootDir: ROOT_DIR,
  });
}

/** Every build, host first, into `distDir` (`dist/` by default). */
export function createConfigurations(mode: BuildMode, distDir = DIST_DIR): Configuration[] {
  return [
    hostConfiguration(mode, distDir),
    ...REPOSITORY_REMOTES.map((remote) => remoteConfiguration(mode, remote, { distDir })),
  ];
}

/** The webpack CLI calls this with `--mode` in `argv`; production unless told otherwise. */
export default function webpackConfig(_env: unknown, argv: { mode?: string } = {}): Configuration[] {
  return createConfigurations(argv.mode === 'development' ? 'development' : 'production');
}
