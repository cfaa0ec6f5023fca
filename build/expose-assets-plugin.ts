import type { Compilation, Compiler } from 'webpack';
import { FEDERATION_EXPOSE_PREFIX } from './bundle-budgets';

/** The manifest the federation plugin writes. */
const MANIFEST_FILE = 'mf-manifest.json';

interface ManifestExpose {
  name?: unknown;
  assets?: { js?: { sync?: unknown }; css?: { sync?: unknown } };
}

/** The JavaScript and CSS files webpack emitted for an exposed component's chunk group, maps and notices left out. */
function filesOfExpose(compilation: Compilation, component: string): { js: string[]; css: string[] } | null {
  const group = compilation.chunkGroups.find(
    (candidate) => candidate.name === `${FEDERATION_EXPOSE_PREFIX}${component}`,
  );
  if (!group) return null;
  const files = group.chunks.flatMap((chunk) => [...chunk.files]);
  return {
    js: [...new Set(files.filter((file) => file.endsWith('.js')))],
    css: [...new Set(files.filter((file) => file.endsWith('.css')))],
  };
}

/**
 * Lists in `mf-manifest.json`, for every exposed component, the files its chunk group loads (`assets.js.sync`,
 * `assets.css.sync`). The federation plugin finds an expose's files by the name of its own chunk; when the
 * components share one chunk (remoteWebpackConfig's componentsTogether) their own chunks are empty and removed, and
 * it lists the shared chunk under a few of them only. The server preloads what the manifest lists for the components
 * of a page (server/host-page/boot-hints.ts), so every component must list its files. Runs after the manifest is
 * written, with the files' final (hashed) names.
 */
export class ExposeAssetsPlugin {
  apply(compiler: Compiler): void {
    const { webpack } = compiler;
    compiler.hooks.thisCompilation.tap(ExposeAssetsPlugin.name, (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: ExposeAssetsPlugin.name, stage: webpack.Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_TRANSFER + 1 },
        () => {
          const asset = compilation.getAsset(MANIFEST_FILE);
          if (!asset) return;
          const manifest = JSON.parse(asset.source.source().toString()) as { exposes?: ManifestExpose[] };
          for (const expose of manifest.exposes ?? []) {
            if (typeof expose.name !== 'string') continue;
            const files = filesOfExpose(compilation, expose.name.replace(/^\.\//, ''));
            if (!files) continue;
            expose.assets = {
              ...expose.assets,
              js: { ...expose.assets?.js, sync: files.js },
              css: { ...expose.assets?.css, sync: files.css },
            };
          }
          compilation.updateAsset(MANIFEST_FILE, new webpack.sources.RawSource(JSON.stringify(manifest, null, 2)));
        },
      );
    });
  }
}
