import os from 'node:os';
import path from 'node:path';
import type ts from 'typescript';
import { probeErrors, probeProgram, PROBE_OPTIONS } from '../testing/typescript-probe';

const SERVER_DIR = __dirname;
const ROOT_DIR = path.resolve(SERVER_DIR, '..');
/** A host application's file, outside the repository: it exists only in this test's compiler host. */
const HOST_APP_FILE = path.join(os.tmpdir(), 'slots-host-app', 'app.ts');

/**
 * Compiles `code` as the host application's only file, with a tsconfig of its own (none of the repository's `include`
 * lists): what it sees of the server's types is what server/index.ts brings. Returns its errors, by line.
 */
function hostAppErrors(code: string): Array<{ line: number; message: string }> {
  const options: ts.CompilerOptions = {
    ...PROBE_OPTIONS,
    esModuleInterop: true,
    resolveJsonModule: true,
    typeRoots: [path.join(ROOT_DIR, 'node_modules', '@types')],
    types: ['node'],
  };
  return probeErrors(probeProgram(HOST_APP_FILE, code, options), HOST_APP_FILE);
}

describe("server/index.ts in a host application's own compile", () => {
  it('brings the generated declarations: a misspelled component or a wrong prop fails, a known one compiles', () => {
    const errors = hostAppErrors(
      [
        `import { Slot } from ${JSON.stringify(SERVER_DIR)};`,
        "Slot.make('LoginNotice', { title: 'Welcome', text: 'Sign in.' });",
        "Slot.make('LoginNotise', { title: 'Welcome', text: 'Sign in.' });",
        "Slot.make('ActivityTimeline', { limit: 'lots' });",
        "Slot.untyped('InvoiceBanner', { amountDue: 12.5 });",
      ].join('\n'),
    );
    expect(errors.map((error) => error.line)).toEqual([3, 4]);
    expect(errors[0]?.message).toContain('"LoginNotise"');
    expect(errors[1]?.message).toContain("Type 'string' is not assignable to type 'number'");
  }, 60_000);

  it("brings everything a resource's definition names: its fields, relations and filters", () => {
    const errors = hostAppErrors(
      [
        `import { Field, RecordFilter, Relation, Resource } from ${JSON.stringify(SERVER_DIR)};`,
        'const fields = [Field.text("title"), Field.text("label"), Field.select("kind", { options: ["a", "b"] })];',
        'const filters: RecordFilter[] = [RecordFilter.select("kind")];',
        'void [Resource, Relation, fields, filters];',
      ].join('\n'),
    );
    expect(errors).toEqual([]);
  }, 60_000);

  it('brings the errors a start can throw, and the types the references name, to tell them apart', () => {
    const errors = hostAppErrors(
      [
        'import {',
        '  InvalidSlotError, RemotesConfigError, SlotContractError, SlotRegistrationError, UnknownSlotLocationError,',
        '  NavigationDefinitionError, ResourceDefinitionError, type FeatureFlagStore,',
        `} from ${JSON.stringify(SERVER_DIR)};`,
        'export function kindOf(error: unknown): string {',
        '  if (error instanceof InvalidSlotError || error instanceof UnknownSlotLocationError) return "slot";',
        '  if (error instanceof SlotRegistrationError || error instanceof SlotContractError) return "registration";',
        '  if (error instanceof ResourceDefinitionError) return "resource";',
        '  if (error instanceof NavigationDefinitionError) return "navigation";',
        '  return error instanceof RemotesConfigError ? "remotes config" : "other";',
        '}',
        'export type Flags = FeatureFlagStore;',
      ].join('\n'),
    );
    expect(errors).toEqual([]);
  }, 60_000);
});
