import { execFileSync } from 'node:child_process';
import path from 'node:path';
import ts from 'typescript';

const ROOT_DIR = path.resolve(__dirname, '../..');
/** A file of server code that exists only in this test's compiler host. */
const PROBE_FILE = path.join(ROOT_DIR, 'server', 'slots', 'typed-slots-probe.ts');
const KNOWN_SLOT_COMPONENTS_FILE = path.join(ROOT_DIR, 'server', 'slots', 'generated', 'known-slot-components.ts');

/** Compiles `code` as a server file beside the generated declarations with tsc; returns its errors, by line. */
function compileErrors(code: string): Array<{ line: number; message: string }> {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    lib: ['lib.es2023.d.ts'],
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (file) => (path.resolve(file) === PROBE_FILE ? code : readFile(file));
  host.fileExists = (file) => path.resolve(file) === PROBE_FILE || fileExists(file);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, language, ...rest) =>
    path.resolve(file) === PROBE_FILE
      ? ts.createSourceFile(file, code, language)
      : getSourceFile(file, language, ...rest);
  const program = ts.createProgram([PROBE_FILE, KNOWN_SLOT_COMPONENTS_FILE], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => diagnostic.file !== undefined && path.resolve(diagnostic.file.fileName) === PROBE_FILE)
    .map((diagnostic) => ({
      line: diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1,
      message: ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'),
    }));
}

describe('typed registrations (server code sees the generated declarations)', () => {
  it('is current: npm run remotes:types writes what is committed', () => {
    const output = execFileSync(
      path.join(ROOT_DIR, 'node_modules', '.bin', 'tsx'),
      [path.join(ROOT_DIR, 'scripts', 'remotes-types.ts'), '--check'],
      { cwd: ROOT_DIR, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    expect(output).toContain('server/slots/generated/known-slot-components.ts is current.');
  });

  it('compiles a known component with the props of its schema, and untyped use of any name', () => {
    const errors = compileErrors(
      [
        "import { Slot } from '../../shared';",
        "Slot.make('LoginNotice', { title: 'Welcome', text: 'Sign in.' });",
        "Slot.make('Callout', { tone: 'info' }, 'content');",
        "Slot.make('TenantSwitcher');",
        "Slot.untyped('InvoiceBanner', { amountDue: 'lots' });",
      ].join('\n'),
    );
    expect(errors).toEqual([]);
  });

  it('fails tsc on an unknown component name, a prop of the wrong type, a missing prop and an unknown prop', () => {
    const errors = compileErrors(
      [
        "import { Slot } from '../../shared';",
        "Slot.make('LoginNotise', { title: 'Welcome', text: 'Sign in.' });",
        "Slot.make('ActivityTimeline', { limit: 'lots' });",
        "Slot.make('LoginNotice', { title: 'Welcome' });",
        "Slot.make('WelcomeCard', { title: 'Hi', titel: 'Hi' });",
        "Slot.make('SystemStatus', { status: 'fine', text: 'x' });",
        "Slot.make('ActivityTimeline');",
      ].join('\n'),
    );
    expect(errors.map((error) => error.line)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(errors[0]?.message).toContain('"LoginNotise"');
    expect(errors[1]?.message).toContain("Type 'string' is not assignable to type 'number'");
    expect(errors[2]?.message).toContain("Property 'text' is missing");
    expect(errors[3]?.message).toContain("'titel' does not exist");
  });
});
