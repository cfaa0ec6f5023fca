import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import type { Chunk, ChunkGroup, Compilation, Compiler } from 'webpack';
import { REMOTE_HINTS_MARKER } from '../shared';

/** webpack's module type of a Module Federation "provide shared" module (a module the host offers to remotes). */
const PROVIDE_MODULE_TYPE = 'provide-module';

export interface BootPreloadOptions {
  /** The entrypoint whose async boundary is preloaded (`main`). */
  entry: string;
  /** The request of the entry's dynamic import that is the boundary (`./bootstrap`). */
  boundary: string;
}

/**
 * The JavaScript files a page loads right behind the entry's async boundary: the chunks of `import(boundary)`, and
 * those of the shared modules the entry provides lazily (React when not eager: the boundary's code consumes them,
 * and with the host as the provider the runtime loads the provider's chunks). Consumption fallbacks and other
 * dynamic imports (loaded only on demand) are left out. Sorted, without duplicates.
 */
export function bootChunkFiles(compilation: Compilation, options: BootPreloadOptions): string[] {
  const entrypoint = compilation.entrypoints.get(options.entry);
  if (!entrypoint) return [];
  const files = new Set<string>();
  for (const group of entrypoint.getChildren() as ChunkGroup[]) {
    const booted = group.origins.some(
      (origin) => origin.request === options.boundary || origin.module?.type === PROVIDE_MODULE_TYPE,
    );
    if (!booted) continue;
    for (const chunk of group.chunks as Chunk[]) {
      for (const file of chunk.files) if (file.endsWith('.js')) files.add(file);
    }
  }
  return [...files].sort();
}

/**
 * The head of index.html in loading order: the entry script first, with `fetchpriority="high"` (a deferred script
 * is otherwise fetched at low priority, yet it is what starts the page's requests); then the stylesheet; then
 * `<link rel="preload" as="script">` for every boot chunk, so the async boundary costs no network round trip
 * (without it, React and the shell are requested only once the entry has run); last, in a build that loads
 * remotes, the `<meta name="slots-remote-hints">` element the server replaces with hints for the remote files the
 * page needs (server/frontend/boot-hints.ts). Use it with html-webpack-plugin `inject: 'head'`, `scriptLoading:
 * 'defer'`.
 */
export class BootPreloadPlugin {
  constructor(private readonly options: BootPreloadOptions) {}

  apply(compiler: Compiler): void {
    // Only a host that loads remotes through Module Federation has remote files to hint at.
    const federated = compiler.options.plugins.some((plugin) => plugin instanceof ModuleFederationPlugin);
    compiler.hooks.thisCompilation.tap(BootPreloadPlugin.name, (compilation) => {
      HtmlWebpackPlugin.getCompilationHooks(compilation).alterAssetTags.tap(BootPreloadPlugin.name, (data) => {
        for (const script of data.assetTags.scripts) script.attributes.fetchpriority = 'high';
        for (const file of bootChunkFiles(compilation, this.options)) {
          data.assetTags.styles.push(
            HtmlWebpackPlugin.createHtmlTagObject('link', {
              rel: 'preload',
              as: 'script',
              href: `${data.publicPath}${file}`,
            }),
          );
        }
        if (federated) {
          data.assetTags.styles.push(HtmlWebpackPlugin.createHtmlTagObject('meta', { name: REMOTE_HINTS_MARKER }));
        }
        return data;
      });
    });
  }
}
