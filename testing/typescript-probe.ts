import path from 'node:path';
import ts from 'typescript';

/** The compiler options of a probe: strict, no emit, no ambient types unless given. */
export const PROBE_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  types: [],
  lib: ['lib.es2023.d.ts'],
};

/**
 * A TypeScript program where `file` holds `code` without being written anywhere (the tests that type-check what
 * code would look like leave no file behind), compiled with `roots` (`file` alone by default).
 */
export function probeProgram(
  file: string,
  code: string,
  options: ts.CompilerOptions = PROBE_OPTIONS,
  roots: readonly string[] = [file],
): ts.Program {
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const isProbe = (name: string) => path.resolve(name) === file;
  host.readFile = (name) => (isProbe(name) ? code : readFile(name));
  host.fileExists = (name) => isProbe(name) || fileExists(name);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) =>
    isProbe(name) ? ts.createSourceFile(name, code, language, true) : getSourceFile(name, language, ...rest);
  return ts.createProgram([...roots], options, host);
}

/** The errors the compiler finds in `file` of `program`, by line. */
export function probeErrors(program: ts.Program, file: string): Array<{ line: number; message: string }> {
  return ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((diagnostic) => ({
    line: (diagnostic.file?.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line ?? -1) + 1,
    message: ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'),
  }));
}
