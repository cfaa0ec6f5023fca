/**
 * The third side of the page benchmark: a plain Module Federation setup, what a team would build instead of this
 * product by following the `@module-federation/enhanced` documentation. The same host shell (HostApp, pages, core,
 * slot source, styles) and the same remote components from the same sources, built with the same loaders, minifier
 * and HTML template, with the plugin's defaults where the product has its own work:
 *
 * - remotes registered at run time by the URL of their `mf-manifest.json` (`registerRemotes`), the runtime fetching
 *   each manifest and then the remote's entry; a component loaded with `loadRemote('<remote>/<expose>')` under
 *   `React.lazy` the first time a slot renders it (start-plain-host.ts, bootstrap.tsx);
 * - the application behind the async boundary: nothing of the page is started before React and the shell arrive;
 * - React, react-dom and react/jsx-runtime shared as singletons, not eager, with the default share strategy
 *   (`version-first`) and no runtime plugin;
 * - each remote's container entry `remoteEntry.js` (the plugin's default name: revalidated on every load, where the
 *   product's carries a content hash and is cached for a year), the runtime bundled into every container, one chunk
 *   per exposed module as the plugin emits them by default (webpack's default splitChunks), `dts: false`, a manifest.
 *
 * What it leaves out of the product (webpack.config.ts, build/host-federation-plugin.ts, remotes/kit/webpack.ts,
 * host/index.ts, host/startup/, host/loader/):
 * - BootPreloadPlugin: no `<link rel=preload>` for the boot chunks, no `fetchpriority` on the entry, and no marker
 *   for the server's hints, so the server writes neither preloads of the page's remote files (boot-hints.ts) nor the
 *   boot data that lists the remotes (which registers each by its hashed entry, no manifest on the page's path; the
 *   signed-in page's session data it still writes: that is the shell's);
 * - the start-up code before the async boundary (API requests and the page's remote modules started ahead);
 * - the host's runtime plugins (provide-runtime-core.ts: the remotes' `externalRuntime`; singleton-shares.ts),
 *   `shareStrategy: 'loaded-first'`, eager React, `experiments.optimization.target: 'web'`;
 * - the remotes' components gathered in one chunk (componentsTogether), their hashed entry, the expose asset lists
 *   of the manifest (ExposeAssetsPlugin: only the server's preloads read them), budgets and build checks.
 *
 * Built by the bench (bench/suites/front-end-build.ts) into its own folder, `<outputDir>/host/` and
 * `<outputDir>/remotes/<name>/`, served by bench/servers/bench-server-main.ts with BENCH_DIST_DIR.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import type { Configuration } from 'webpack';
import { BuildPathPlugin } from '../../build/build-path-plugin';
import { RemoteDescriptorPlugin } from '../../build/remote-descriptor-plugin';
import { baseConfiguration, exposesOf, scriptRule } from '../../remotes/kit/webpack';
import { hostConfiguration, ROOT_DIR, type RepositoryRemote } from '../../webpack.config';
import type { PlainRemote } from './plain-remote';

/** The plain host's federation name (the product's host is `host`). */
export const PLAIN_HOST_NAME = 'plain_host';

/** The plugin's default name of a container entry, which the plain remotes keep. */
export const PLAIN_REMOTE_ENTRY = 'remoteEntry.js';

/** React shared as the documentation shares it: singletons, the version from package.json, nothing eager. */
export function plainSharedReact() {
  return {
    react: { singleton: true },
    'react-dom': { singleton: true },
    'react/jsx-runtime': { singleton: true },
  };
}

type FederationOptions = ConstructorParameters<typeof ModuleFederationPlugin>[0];

/** The plain host's federation: a name and the shared React, every other setting the plugin's default. */
export function plainHostFederation(): FederationOptions {
  return { name: PLAIN_HOST_NAME, shared: plainSharedReact(), dts: false };
}

/** A plain remote's federation: its exposes, the shared React, a manifest, every other setting the plugin's default. */
export function plainRemoteFederation(remote: RepositoryRemote): FederationOptions {
  return {
    name: remote.descriptor.name,
    filename: PLAIN_REMOTE_ENTRY,
    exposes: exposesOf(remote.descriptor, path.resolve(ROOT_DIR, remote.folder)),
    shared: plainSharedReact(),
    dts: false,
    manifest: true,
  };
}

export interface PlainHostOptions {
  /** The generated entry (writePlainEntry). */
  entryFile: string;
  /** Root of the output: the host goes to `<outputDir>/host/`, as the server's distDir layout expects. */
  outputDir: string;
}

/**
 * The product host's production configuration (same loaders, minifier, HTML template, CSS, hashed file names) with
 * the plain side's entry and a plain ModuleFederationPlugin: of its plugins only the HTML page and the build path
 * cleaner are kept (no BootPreloadPlugin, no bundle budgets, not the product's federation settings).
 */
export function plainHostConfiguration(options: PlainHostOptions): Configuration {
  const base = hostConfiguration('production');
  const kept = (base.plugins ?? []).filter(
    (plugin) => plugin instanceof HtmlWebpackPlugin || plugin instanceof BuildPathPlugin,
  );
  return {
    ...base,
    name: 'bench-plain-host',
    entry: { main: options.entryFile },
    output: { ...base.output, path: path.join(options.outputDir, 'host'), uniqueName: 'bench_plain_host' },
    plugins: [new ModuleFederationPlugin(plainHostFederation()), ...kept],
    // As the bundled host: maps beside the files, not named in them.
    devtool: 'hidden-source-map',
  };
}

/**
 * A remote of this repository built with a plain ModuleFederationPlugin: its components exposed from the same files
 * (`./<Component>`), the same loaders as the remote kit's preset, webpack's default chunking. The descriptor file
 * (`slots-remote.json`) is written too: the server lists the remote and checks slots from it, the page never loads it.
 */
export function plainRemoteConfiguration(remote: RepositoryRemote, outputDir: string): Configuration {
  const { name } = remote.descriptor;
  const dir = path.resolve(ROOT_DIR, remote.folder);
  return {
    ...baseConfiguration('production', `bench-plain-${name}`, dir, [path.join(ROOT_DIR, 'node_modules')]),
    // JSX compiled to the runtime every React build provides, as the kit does (the host's React runs it).
    module: { rules: [scriptRule('production', false)] },
    entry: {},
    output: {
      path: path.join(outputDir, 'remotes', name),
      // The documentation's setting: chunks load relative to where the container entry came from.
      publicPath: 'auto',
      chunkFilename: '[name].[contenthash:10].js',
      // Each remote's own chunk loading global: several remotes run on one page.
      uniqueName: name,
      clean: true,
    },
    plugins: [new ModuleFederationPlugin(plainRemoteFederation(remote)), new RemoteDescriptorPlugin(remote.descriptor)],
  };
}

/** Every build of the plain side: the host, then each remote. */
export function plainConfigurations(
  options: PlainHostOptions & { remotes: readonly RepositoryRemote[] },
): Configuration[] {
  return [
    plainHostConfiguration(options),
    ...options.remotes.map((remote) => plainRemoteConfiguration(remote, options.outputDir)),
  ];
}

/**
 * Writes the plain host's entry: the host's styles, then startPlainHost with the remotes and their components, from
 * the remotes' own descriptors (generated, as the bundled host's entry, so no list is kept by hand).
 */
export async function writePlainEntry(options: {
  rootDir: string;
  remotes: readonly RepositoryRemote[];
  outputFile: string;
}): Promise<string> {
  const { rootDir, remotes, outputFile } = options;
  const plain: PlainRemote[] = remotes.map(({ descriptor }) => ({
    name: descriptor.name,
    components: [...descriptor.components],
    formComponents: [...descriptor.formComponents],
  }));
  const lines = ['// Generated by bench/plain-federation/webpack.config.ts for the page benchmark.'];
  const stylesheet = path.join(rootDir, 'host/styles.css');
  if (existsSync(stylesheet)) lines.push(`import ${JSON.stringify(stylesheet)};`);
  lines.push(
    `import { startPlainHost } from ${JSON.stringify(path.join(rootDir, 'bench/plain-federation/start-plain-host'))};`,
    `startPlainHost(${JSON.stringify(plain)});`,
    '',
  );
  await mkdir(path.dirname(outputFile), { recursive: true });
  await writeFile(outputFile, lines.join('\n'));
  return outputFile;
}
