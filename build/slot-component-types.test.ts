import path from 'node:path';
import ts from 'typescript';
import { COMPONENT_NAME_PATTERN, REMOTE_NAME_PATTERN, type JsonSchema } from '../shared';
import { probeProgram } from '../testing/typescript-probe';
import { slotComponentTypes } from './slot-component-types';

const ROOT_DIR = path.resolve(__dirname, '..');
/** Where the generated text is compiled: beside the committed file, as a file only this test's compiler host has. */
const PROBE_FILE = path.join(ROOT_DIR, 'server', 'slots', 'generated', 'slot-component-types-probe.ts');
const SLOT_MODULE = '../../../shared/slot';

/** What a tester wrote as a descriptor's name to end the comment and the declarations, and write a statement. */
const INJECTED_REMOTE_NAME =
  "team */ } } export const injected = (globalThis as any).process?.exit?.(7); declare module '../../../shared/slot' { interface KnownSlotComponents { /* x";

/** Texts that end a string, a comment or a line where they are written raw. */
const HOSTILE_TEXTS = [
  '*/ } } export const fromKey = 1; /*',
  '"; export const fromQuote = 1; //',
  "'; export const fromSingleQuote = 1; //",
  'line\nexport const fromNewline = 1;',
  'separator\u2028export const fromLineSeparator = 1; //',
  'back\\slash` ${template}',
];

interface CompiledDeclarations {
  /** Diagnostics of the generated text itself (syntax and types). */
  errors: string[];
  /** The kinds of the generated file's top-level statements. */
  statements: string[];
  /** Component -> the type the compiler gives its props. */
  components: Map<string, ts.Type>;
  checker: ts.TypeChecker;
}

/** Compiles `source` as the generated file against the real shared/slot.ts; reads back `KnownSlotComponents`. */
function compile(source: string): CompiledDeclarations {
  const program = probeProgram(PROBE_FILE, source);
  const probe = program.getSourceFile(PROBE_FILE)!;
  const checker = program.getTypeChecker();
  const slotFile = program.getSourceFile(path.join(ROOT_DIR, 'shared', 'slot.ts'))!;
  const known = slotFile.statements.find(
    (statement): statement is ts.InterfaceDeclaration =>
      ts.isInterfaceDeclaration(statement) && statement.name.text === 'KnownSlotComponents',
  )!;
  const knownType = checker.getTypeAtLocation(known.name);
  return {
    errors: ts
      .getPreEmitDiagnostics(program, probe)
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')),
    statements: probe.statements.map((statement) => ts.SyntaxKind[statement.kind]),
    components: new Map(
      checker.getPropertiesOfType(knownType).map((member) => [member.getName(), checker.getTypeOfSymbol(member)]),
    ),
    checker,
  };
}

function propertyNames(compiled: CompiledDeclarations, type: ts.Type): string[] {
  return compiled.checker.getPropertiesOfType(type).map((member) => member.getName());
}

function literalValues(compiled: CompiledDeclarations, type: ts.Type): unknown[] {
  const parts = type.isUnion() ? type.types : [type];
  return parts.map((part) => (part.isLiteral() ? part.value : compiled.checker.typeToString(part)));
}

describe('slotComponentTypes: names a descriptor may give', () => {
  it('refuses a remote name that is not a remote name, naming it and the pattern', () => {
    const write = () => slotComponentTypes([{ name: INJECTED_REMOTE_NAME, components: ['Notice'] }], SLOT_MODULE);
    expect(write).toThrow(JSON.stringify(INJECTED_REMOTE_NAME));
    expect(write).toThrow(String(REMOTE_NAME_PATTERN));
  });

  it.each(['Evil Component!', 'Notice*/', '1Notice', '', 'x'.repeat(200)])(
    'refuses the component name %j, naming the remote, the name and the pattern',
    (component) => {
      const write = () => slotComponentTypes([{ name: 'team_billing', components: [component] }], SLOT_MODULE);
      expect(write).toThrow(`"team_billing": its component ${JSON.stringify(component)}`);
      expect(write).toThrow(String(COMPONENT_NAME_PATTERN));
    },
  );

  it('declares a component name that is not an identifier as a quoted property', () => {
    const source = slotComponentTypes(
      [
        {
          name: 'team_forms',
          components: ['forms/Slug-Preview.v2', 'constructor'],
          props: {
            'forms/Slug-Preview.v2': { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
          },
        },
      ],
      SLOT_MODULE,
    );
    const compiled = compile(source);
    expect(compiled.errors).toEqual([]);
    expect([...compiled.components.keys()]).toEqual(['forms/Slug-Preview.v2', 'constructor']);
    expect(compiled.checker.typeToString(compiled.components.get('forms/Slug-Preview.v2')!)).toBe('{ title: string; }');
    // `constructor` has no schema of its own: the one every object inherits is not read as its props schema.
    expect(compiled.checker.typeToString(compiled.components.get('constructor')!)).toBe('Record<string, unknown>');
  });
});

describe('slotComponentTypes: hostile props schemas', () => {
  const hostileSchema: JsonSchema = {
    type: 'object',
    description: '*/ export const fromDescription = 1; /*',
    title: '*/ export const fromTitle = 1; /*',
    properties: {
      ...Object.fromEntries(
        HOSTILE_TEXTS.map((text) => [text, { type: 'string', description: `${text} */ export const d = 1; /*` }]),
      ),
      tone: { enum: HOSTILE_TEXTS },
      fixed: { const: HOSTILE_TEXTS[0]! },
      nested: {
        type: 'array',
        items: { type: 'object', properties: { [HOSTILE_TEXTS[1]!]: { const: HOSTILE_TEXTS[2]! } } },
      },
    },
    required: [HOSTILE_TEXTS[0]!, 'tone'],
    additionalProperties: false,
  };
  const source = slotComponentTypes(
    [{ name: 'team_hostile', components: ['HostileNotice'], props: { HostileNotice: hostileSchema } }],
    SLOT_MODULE,
  );
  const compiled = compile(source);

  it('compiles with no error, to an import and the augmentation alone', () => {
    expect(compiled.errors).toEqual([]);
    expect(compiled.statements).toEqual(['ImportDeclaration', 'ModuleDeclaration']);
    expect(source).not.toMatch(/\u2028|\u2029/);
  });

  it('declares exactly the component, with every property name and string value as the schema wrote it', () => {
    expect([...compiled.components.keys()]).toEqual(['HostileNotice']);
    const props = compiled.components.get('HostileNotice')!;
    expect(propertyNames(compiled, props)).toEqual([...HOSTILE_TEXTS, 'tone', 'fixed', 'nested']);

    const member = (type: ts.Type, name: string) => compiled.checker.getTypeOfSymbol(type.getProperty(name)!);
    expect(literalValues(compiled, member(props, 'tone'))).toEqual(HOSTILE_TEXTS);
    const fixed = compiled.checker.getNonNullableType(member(props, 'fixed'));
    expect(literalValues(compiled, fixed)).toEqual([HOSTILE_TEXTS[0]]);
    expect(compiled.checker.typeToString(member(props, HOSTILE_TEXTS[3]!))).toBe('string | undefined');

    const item = compiled.checker.getIndexTypeOfType(
      compiled.checker.getNonNullableType(member(props, 'nested')),
      ts.IndexKind.Number,
    )!;
    expect(propertyNames(compiled, item)).toEqual([HOSTILE_TEXTS[1]]);
    const nestedValue = compiled.checker.getNonNullableType(member(item, HOSTILE_TEXTS[1]!));
    expect(literalValues(compiled, nestedValue)).toEqual([HOSTILE_TEXTS[2]]);
  });
});
