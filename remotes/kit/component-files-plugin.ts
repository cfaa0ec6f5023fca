import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Compilation, Compiler } from 'webpack';

/** What the build says of a component `remote.ts` declares whose file is not there. */
export function missingComponentFileMessage(component: string, file: string): string {
  return (
    `Component "${component}" is declared in remote.ts, and its file ${file} does not exist: add the file ` +
    `(exporting \`export function ${component}\` or \`export default\`), or remove "${component}" from remote.ts.`
  );
}

/** The federation plugin's logger, and the code it logs a declared component without a module under. */
const FEDERATION_LOGGER = 'EnhancedModuleFederationPlugin';
const MISSING_EXPOSE_CODE = 'BUILD-001';

/**
 * A component declared without its file fails the build with one error that says so in the team's words: webpack's
 * own (`Module not found: Error: Can't resolve '/abs/path/components/Goodbye.tsx' in '/abs/path'`) is replaced by it,
 * and the federation plugin's `Failed to find expose module. #BUILD-001` note, which it logs before webpack's report
 * (three lines with its arguments as JSON and a link), is left out of a build this error already fails. Nothing else
 * the federation plugin logs is touched (webpack's `infrastructureLog` hook, for that logger and that code only).
 */
export class ComponentFilesPlugin {
  /** Each declared component with its file (absolute). */
  constructor(private readonly components: Readonly<Record<string, string>>) {}

  apply(compiler: Compiler): void {
    const { webpack } = compiler;
    let reported: Compilation | undefined;
    compiler.hooks.thisCompilation.tap(ComponentFilesPlugin.name, (compilation) => {
      reported = undefined;
      compilation.hooks.finishModules.tap(ComponentFilesPlugin.name, () => {
        const missing = Object.entries(this.components).filter(([, file]) => !existsSync(file));
        if (missing.length === 0) return;
        const resolving = missing.map(([, file]) => `Can't resolve '${file}'`);
        // Webpack's error for the file, found by the absolute path it could not resolve: ours says the same.
        const kept = compilation.errors.filter(
          (error) => !(error.name === 'ModuleNotFoundError' && resolving.some((text) => error.message.includes(text))),
        );
        const ours = missing.map(([component, file]) => {
          const error = new webpack.WebpackError(
            missingComponentFileMessage(component, path.relative(compiler.context, file) || file),
          );
          error.name = 'MissingComponentFileError';
          error.hideStack = true;
          return error;
        });
        compilation.errors.splice(0, compilation.errors.length, ...ours, ...kept);
        reported = compilation;
      });
    });
    compiler.hooks.infrastructureLog.tap(ComponentFilesPlugin.name, (name, _type, args) => {
      const text = (args ?? []).map(String).join(' ');
      // A bail (true) keeps the line from webpack's logger.
      if (name === FEDERATION_LOGGER && reported !== undefined && text.includes(MISSING_EXPOSE_CODE)) return true;
      return undefined;
    });
  }
}
