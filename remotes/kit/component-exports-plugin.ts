import path from 'node:path';
import type { Compiler, Module } from 'webpack';

/** What the build says of a declared component whose file exports nothing the host can render, and what it exports. */
export function missingComponentExportMessage(component: string, file: string, exported: readonly string[]): string {
  const found =
    exported.length === 0 ? 'it exports nothing' : `it exports only ${[...exported].sort().map(quoted).join(', ')}`;
  return (
    `Component "${component}" has no export to render in ${file}: the host renders its default export or its ` +
    `named export "${component}", and ${found}. Export the component as \`export default\` or ` +
    `\`export function ${component}\`, or remove "${component}" from remote.ts.`
  );
}

function quoted(name: string): string {
  return `"${name}"`;
}

/**
 * Fails the build when a component `remote.ts` declares has neither a default export nor a named export with its name.
 * Such a file builds, but every page that shows the component gets a load error from the host instead of it. A
 * missing file fails already (webpack's "Module not found", the federation's BUILD-001); this is the other half.
 * Only a module whose exports webpack knows is judged: CommonJS, or a star re-export of one, is left to run time.
 */
export class ComponentExportsPlugin {
  /** Each declared component with its file (absolute). */
  constructor(private readonly components: Readonly<Record<string, string>>) {}

  apply(compiler: Compiler): void {
    const { webpack } = compiler;
    compiler.hooks.thisCompilation.tap(ComponentExportsPlugin.name, (compilation) => {
      // After webpack's own tap (FlagDependencyExportsPlugin, stage 0), which works out each module's exports.
      compilation.hooks.finishModules.tap({ name: ComponentExportsPlugin.name, stage: 100 }, (modules) => {
        const modulesByFile = new Map<string, Module>();
        for (const module of modules) {
          const file = module.nameForCondition();
          if (file !== null) modulesByFile.set(file, module);
        }
        for (const [component, file] of Object.entries(this.components)) {
          const module = modulesByFile.get(file);
          // A missing file is webpack's own "Module not found" error already.
          if (module === undefined) continue;
          const exported = compilation.moduleGraph.getProvidedExports(module);
          if (!Array.isArray(exported) || exported.includes('default') || exported.includes(component)) continue;
          const shown = path.relative(compiler.context, file) || file;
          compilation.errors.push(exportError(webpack.WebpackError, module, component, shown, exported));
        }
      });
    });
  }
}

function exportError(
  WebpackError: Compiler['webpack']['WebpackError'],
  module: Module,
  component: string,
  file: string,
  exported: readonly string[],
): InstanceType<Compiler['webpack']['WebpackError']> {
  const error = new WebpackError(missingComponentExportMessage(component, file, exported));
  error.name = 'ComponentExportError';
  // Webpack's own report then heads the error with the module, as it does for "Module not found".
  error.module = module;
  error.hideStack = true;
  return error;
}
