/**
 * `@slots-platform/remote-kit/schema`: what a team declares its components' props with, in its `remote.ts` (which
 * runs at build time only): TypeBox's `Type`, and {@link propsSchema}. A separate entry from the kit's main one, which
 * components import in the browser: the schema library never reaches a remote's bundles, whatever they import.
 */
import {
  Type,
  type ObjectOptions,
  type StringOptions,
  type TObject,
  type TProperties,
  type TString,
} from '@sinclair/typebox';
import { compileLinearPattern, patternsIn, PATTERNS_PER_SCHEMA_MAX } from '../../shared/linear-patterns';
import { FORM_FIELD_KEYWORD } from '../../shared/wire';
import { RE2JS } from 're2js';

export { Type, type Static, type TSchema } from '@sinclair/typebox';

/**
 * The props schema of a component: an object of the given properties, and no other (a misspelled prop in a slot is
 * then reported at registration instead of being silently ignored). `Type.Optional(...)` marks an optional prop.
 * `options.examples` (`[{ name: 'world' }]`) are the props the host emulator of `slots-remote dev` starts with.
 */
export function propsSchema<Properties extends TProperties>(
  properties: Properties,
  options: Omit<ObjectOptions, 'additionalProperties'> = {},
): TObject<Properties> {
  const schema = Type.Object(properties, { ...options, additionalProperties: false });
  const notJson = typesJsonCannotCarry(schema, 'props');
  if (notJson.length > 0) {
    throw new Error(
      `propsSchema: ${notJson.map(({ path, type }) => `${path} is of type "${type}"`).join(', ')}, which JSON ` +
        'cannot carry: props travel as JSON, and the product refuses such a schema. Use a JSON type instead ' +
        "(a date: Type.String({ format: 'date' }) or { format: 'date-time' }).",
    );
  }
  const patterns = patternsIn(schema).length;
  if (patterns > PATTERNS_PER_SCHEMA_MAX) {
    throw new Error(
      `propsSchema: ${patterns} patterns, over the ${PATTERNS_PER_SCHEMA_MAX} the product checks in one component's props.`,
    );
  }
  const notRun = patternsNotRun(schema, 'props');
  if (notRun.length > 0) {
    throw new Error(
      `propsSchema: ${notRun.map(({ path, pattern, reason }) => `${path} has the pattern ${JSON.stringify(pattern)}, which the product does not run: ${reason}`).join('; ')}. ` +
        'The product checks props against patterns in linear time (RE2), and refuses such a schema.',
    );
  }
  return schema;
}

/**
 * A prop naming a field of the form its component sits in (`propsSchema({ field: formFieldName() })`): a non-empty
 * string the product holds against the fields of the slot's resource. A form slot naming a field its resource lacks
 * is refused at the product's start, at a configuration reload, in a placements draft and when a release comes,
 * instead of reading nothing and having what it writes dropped at the save.
 */
export function formFieldName(options: StringOptions = {}): TString {
  return Type.String({ minLength: 1, ...options, [FORM_FIELD_KEYWORD]: true });
}

/** Every sub-schema of `schema`, with the path of props it applies to. */
function eachSubschema(
  schema: unknown,
  path: string,
  visit: (node: Record<string, unknown>, path: string) => void,
): void {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return;
  const node = schema as Record<string, unknown>;
  visit(node, path);
  for (const [key, at] of [
    ['properties', (name: string) => `${path}.${name}`],
    ['patternProperties', () => `${path}[]`],
  ] as const) {
    const children = node[key];
    if (children !== null && typeof children === 'object') {
      for (const [name, child] of Object.entries(children)) eachSubschema(child, at(name), visit);
    }
  }
  for (const key of ['items', 'additionalProperties', 'not']) eachSubschema(node[key], `${path}[]`, visit);
  // A tuple's items (TypeBox writes them as `items: [...]`, a later draft as `prefixItems`), each at its place.
  for (const key of ['items', 'prefixItems']) {
    const places = node[key];
    if (Array.isArray(places)) places.forEach((place, index) => eachSubschema(place, `${path}[${index}]`, visit));
  }
  for (const key of ['anyOf', 'allOf', 'oneOf']) {
    const branches = node[key];
    if (Array.isArray(branches)) for (const branch of branches) eachSubschema(branch, path, visit);
  }
}

/** The patterns (`pattern`, and `patternProperties`' names) the product does not run, and why (shared/linear-patterns.ts). */
function patternsNotRun(schema: unknown, path: string): { path: string; pattern: string; reason: string }[] {
  const found: { path: string; pattern: string; reason: string }[] = [];
  eachSubschema(schema, path, (node, at) => {
    const patterns = [node.pattern, ...Object.keys((node.patternProperties as object | undefined) ?? {})];
    for (const pattern of patterns) {
      if (typeof pattern !== 'string') continue;
      try {
        compileLinearPattern(pattern, (source) => RE2JS.compile(source));
      } catch (error) {
        found.push({ path: at, pattern, reason: (error as Error).message });
      }
    }
  });
  return found;
}

/** JSON Schema's types: TypeBox also writes `Date`, `Uint8Array`, `undefined`, `bigint`, `Function`..., which no JSON is. */
const JSON_TYPES: ReadonlySet<string> = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** Where in `schema` a `type` names no JSON type (a TypeBox JavaScript type), with the path of props it is at. */
function typesJsonCannotCarry(schema: unknown, path: string): { path: string; type: string }[] {
  const found: { path: string; type: string }[] = [];
  eachSubschema(schema, path, (node, at) => {
    for (const type of [node.type].flat()) {
      if (typeof type === 'string' && !JSON_TYPES.has(type)) found.push({ path: at, type });
    }
  });
  return found;
}
