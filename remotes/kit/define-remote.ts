import type { Static, TSchema } from '@sinclair/typebox';
import {
  EXPOSED_COMPONENT_PATTERN,
  REMOTE_NAME_PATTERN,
  RESERVED_PROP_NAMES,
  type JsonSchema,
  type RemoteDescriptorFile,
} from '../../shared';

/**
 * Where a team declares its remote: the `remote.ts` of the remote's folder default-exports {@link defineRemote}'s
 * result. Each component is declared once, with the TypeBox schema of the props a slot gives it; everything else
 * derives from that: webpack's `exposes` (`./<Component>` -> `components/<Component>.tsx`, see ./webpack.ts), the
 * `slots-remote.json` written beside `mf-manifest.json` (with each component's JSON Schema), through that file the
 * server's `GET /api/remotes` and its props checks, and the component's props type ({@link PropsOf}).
 */

/** What a team writes: component name -> schema of its own props (context props come from the host). */
export interface DefineRemoteInput<Schemas extends Record<string, TSchema>> {
  name: string;
  components: Schemas;
  /** The components a resource form may place among its fields (they also receive `resource` and `formContext`). */
  formComponents: ReadonlyArray<keyof Schemas & string>;
}

/** @deprecated Renamed {@link DefineRemoteInput}; kept for one release (see CHANGELOG.md). */
export type RemoteDefinition<Schemas extends Record<string, TSchema>> = DefineRemoteInput<Schemas>;

/**
 * A remote's declaration as {@link defineRemote} returns it: the descriptor file's content (checked and frozen) and
 * the TypeBox schemas the props types are inferred from.
 */
export type RemoteDeclaration<Schemas extends Record<string, TSchema> = Record<string, TSchema>> = Readonly<
  RemoteDescriptorFile & { props: Record<string, JsonSchema> }
> & { readonly schemas: Readonly<Schemas> };

/** The props a slot gives component `C` of a declared remote: `PropsOf<typeof remote, 'Hello'>`. */
export type PropsOf<
  Remote extends { schemas: Readonly<Record<string, TSchema>> },
  C extends keyof Remote['schemas'],
> = Static<Remote['schemas'][C]>;

export class InvalidRemoteDescriptorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidRemoteDescriptorError';
  }
}

/** Validates and freezes a remote's declaration, so a typo fails the build with a message naming the remote. */
export function defineRemote<Schemas extends Record<string, TSchema>>(
  input: DefineRemoteInput<Schemas>,
): RemoteDeclaration<Schemas> {
  const props: Record<string, JsonSchema> = {};
  for (const [component, schema] of Object.entries(input.components)) props[component] = jsonSchemaOf(schema);
  const descriptor = {
    name: input.name,
    components: Object.keys(input.components),
    formComponents: [...input.formComponents],
    props,
  };
  const problems = findDescriptorProblems(descriptor);
  if (problems.length > 0) {
    throw new InvalidRemoteDescriptorError(
      `Remote descriptor ${JSON.stringify(input.name)} is invalid: ${problems.join('; ')}.`,
    );
  }
  const declaration = {
    name: descriptor.name,
    components: Object.freeze(descriptor.components) as string[],
    formComponents: Object.freeze(descriptor.formComponents) as string[],
    props: Object.freeze(props),
    schemas: Object.freeze({ ...input.components }),
  };
  return Object.freeze(declaration) as RemoteDeclaration<Schemas>;
}

/** The plain JSON Schema of a TypeBox schema: TypeBox's symbol-keyed markers are not JSON and are dropped. */
function jsonSchemaOf(schema: TSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema)) as JsonSchema;
}

/** A component name the kit takes, made of a refused one: `invoice_banner` -> `InvoiceBanner`, `boom` -> `Boom`. */
function componentNameLike(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter((word) => word !== '');
  const joined = words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
  const named = /^[A-Z]/.test(joined) ? joined : `Component${joined}`;
  return named.slice(0, 128);
}

export function findDescriptorProblems(descriptor: RemoteDescriptorFile): string[] {
  const problems: string[] = [];
  if (!REMOTE_NAME_PATTERN.test(descriptor.name)) {
    problems.push(
      `name ${JSON.stringify(descriptor.name)} is not a remote name: letters, digits and _, starting with a letter ` +
        `or _, 64 characters at most (e.g. team_billing; ${REMOTE_NAME_PATTERN})`,
    );
  }
  if (descriptor.components.length === 0) problems.push('it declares no component');
  const seen = new Set<string>();
  for (const component of descriptor.components) {
    if (!EXPOSED_COMPONENT_PATTERN.test(component)) {
      problems.push(
        `component ${JSON.stringify(component)} is not a component name: a capital letter, then letters and ` +
          `digits only, 128 characters at most (e.g. ${JSON.stringify(componentNameLike(component))} in ` +
          `components/${componentNameLike(component)}.tsx; ${EXPOSED_COMPONENT_PATTERN})`,
      );
    }
    if (seen.has(component)) problems.push(`component ${JSON.stringify(component)} is listed twice`);
    seen.add(component);
  }
  for (const formComponent of descriptor.formComponents) {
    if (!seen.has(formComponent)) {
      problems.push(
        `form component ${JSON.stringify(formComponent)} is not in components (${[...seen].join(', ') || 'none'}): ` +
          'formComponents lists some of the components declared above it',
      );
    }
  }
  for (const [component, schema] of Object.entries(descriptor.props ?? {})) {
    if (schema.type !== 'object') {
      problems.push(`the props schema of ${JSON.stringify(component)} must be an object schema (Type.Object)`);
    }
    const properties = schema.properties;
    const declared = properties !== null && typeof properties === 'object' ? Object.keys(properties) : [];
    for (const reserved of RESERVED_PROP_NAMES.filter((name) => declared.includes(name))) {
      problems.push(
        `component ${JSON.stringify(component)} declares the prop "${reserved}", which React keeps for itself`,
      );
    }
  }
  return problems;
}
