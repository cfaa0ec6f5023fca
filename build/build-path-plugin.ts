import type { Compiler } from 'webpack';

/**
 * Takes the absolute path of the build folder out of every emitted file. Source maps carry the text of generated
 * modules (Module Federation's entry imports its runtime by absolute path), which would tell anyone who reads a map
 * where and by whom the product was built. Paths under the root become relative to it. Runs after the source maps
 * are written and just before the real content hashes are computed, so a file's name still matches what it holds.
 */
export class BuildPathPlugin {
  constructor(private readonly rootDir: string) {}

  apply(compiler: Compiler): void {
    const { webpack } = compiler;
    const root = this.rootDir.replace(/\/+$/, '');
    compiler.hooks.thisCompilation.tap(BuildPathPlugin.name, (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: BuildPathPlugin.name, stage: webpack.Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_HASH - 1 },
        (assets) => {
          for (const [name, source] of Object.entries(assets)) {
            const content = source.source();
            const text = typeof content === 'string' ? content : content.toString('utf8');
            if (!text.includes(root)) continue;
            compilation.updateAsset(name, new webpack.sources.RawSource(withoutRoot(text, root)));
          }
        },
      );
    });
  }
}

/** `<root>/node_modules/x` -> `node_modules/x`, `<root>` alone -> `.`. */
export function withoutRoot(text: string, root: string): string {
  return text.split(`${root}/`).join('').split(root).join('.');
}
