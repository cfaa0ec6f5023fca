import path from 'node:path';
import type { Program } from 'estree';
import type { Compiler, Module } from 'webpack';
import { literalExportsOf } from './literal-exports';

/**
 * Where a module's literal exports ({@link literalExportsOf}) are kept: its `buildInfo`, which webpack keeps with the
 * module in its caches (a development rebuild or restart that reuses a module does not parse it again).
 */
const LITERAL_EXPORTS_KEY = 'slotsRemoteKitLiteralExports';

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

/**
 * What the build says of a declared component whose every export the host could render is a literal written in its
 * file (`export const Widget = { title: 'x' }`): the host finds no component in it, on every page.
 */
export function literalComponentExportMessage(
  component: string,
  file: string,
  literals: Readonly<Record<string, string>>,
): string {
  const found = Object.entries(literals)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, kind]) => `${name === 'default' ? 'its default export' : `"${name}"`} is ${kind}`)
    .join(' and ');
  return (
    `Component "${component}" has no export to render in ${file}: the host renders its named export ` +
    `"${component}", else its default export, when it is a component (a function, a class, or React's memo, ` +
    `forwardRef or lazy), and ${found}. Export the component itself as \`export default\` or ` +
    `\`export function ${component}\`, or remove "${component}" from remote.ts.`
  );
}

function quoted(name: string): string {
  return `"${name}"`;
}

/**
 * Fails the build when a component `remote.ts` declares has neither a default export nor a named export with its name,
 * or when each of those it has is a literal written in the file (an object, an array, a string, a number, …: see
 * {@link literalExportsOf}). Such a file builds, but every page that shows the component gets a load error from the
 * host instead of it. A missing file fails already (./component-files-plugin.ts); this is the other half. Only what
 * the file says is judged: CommonJS, or a star re-export of one, is left to run time, and so is an export whose value
 * only running the code tells (a class that is no React component, a call's result, a re-export of another file's
 * object).
 */
export class ComponentExportsPlugin {
  /** Each declared component with its file (absolute). */
  constructor(private readonly components: Readonly<Record<string, string>>) {}

  apply(compiler: Compiler): void {
    const { webpack } = compiler;
    // Every module of the project, not only the declared components' (the list can change while a module stays cached).
    const recordLiteralExports = (parser: unknown) => {
      if (!(parser instanceof webpack.javascript.JavascriptParser)) return;
      parser.hooks.program.tap(ComponentExportsPlugin.name, (program: Program) => {
        const module = parser.state.module;
        if (/[\\/]node_modules[\\/]/.test(module.resource) || !module.buildInfo) return;
        const literals = literalExportsOf(program);
        if (Object.keys(literals).length > 0) module.buildInfo[LITERAL_EXPORTS_KEY] = literals;
      });
    };
    compiler.hooks.normalModuleFactory.tap(ComponentExportsPlugin.name, (factory) => {
      for (const type of ['javascript/auto', 'javascript/esm']) {
        factory.hooks.parser.for(type).tap(ComponentExportsPlugin.name, recordLiteralExports);
      }
    });
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
          // A missing file has its error already (ComponentFilesPlugin); so has a file that cannot be parsed,
          // whose exports webpack then gives as none (under watch, once an earlier build had them).
          if (module === undefined || module.getNumberOfErrors() > 0) continue;
          const exported = compilation.moduleGraph.getProvidedExports(module);
          if (!Array.isArray(exported)) continue;
          const shown = path.relative(compiler.context, file) || file;
          const rendered = [component, 'default'].filter((name) => exported.includes(name));
          if (rendered.length === 0) {
            const message = missingComponentExportMessage(component, shown, exported);
            compilation.errors.push(exportError(webpack.WebpackError, module, message));
            continue;
          }
          const literals = (module.buildInfo?.[LITERAL_EXPORTS_KEY] ?? {}) as Readonly<Record<string, string>>;
          if (rendered.every((name) => literals[name] !== undefined)) {
            const found = Object.fromEntries(rendered.map((name) => [name, literals[name]!]));
            const message = literalComponentExportMessage(component, shown, found);
            compilation.errors.push(exportError(webpack.WebpackError, module, message));
          }
        }
      });
    });
  }
}

function exportError(
  WebpackError: Compiler['webpack']['WebpackError'],
  module: Module,
  message: string,
): InstanceType<Compiler['webpack']['WebpackError']> {
  const error = new WebpackError(message);
  error.name = 'ComponentExportError';
  // Webpack's own report then heads the error with the module, as it does for "Module not found".
  error.module = module;
  error.hideStack = true;
  return error;
}
