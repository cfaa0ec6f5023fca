/**
 * `@slots-platform/remote-kit/schema`: what a team declares its components' props with, in its `remote.ts` (which
 * runs at build time only): TypeBox's `Type`, and {@link propsSchema}. A separate entry from the kit's main one, which
 * components import in the browser: the schema library never reaches a remote's bundles, whatever they import.
 */
import { Type, type ObjectOptions, type TObject, type TProperties } from '@sinclair/typebox';
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
  const notRun = patternsNotRun(schema, 'props');
  if (notRun.length > 0) {
    throw new Error(
      `propsSchema: ${notRun.map(({ path, pattern }) => `${path} has the pattern ${JSON.stringify(pattern)}`).join(', ')}, ` +
        'which the product does not run: it checks props against patterns in linear time (RE2), without lookaround ' +
        'or backreferences, and refuses such a schema. Write the pattern without them.',
    );
  }
  return schema;
}

/** Every sub-schema of `schema`, with the path of props it applies to. */
function eachSubschema(
  schema: unknown,
  path: string,
  visit: (node: Record<string, unknown>, path: string) => void,
): void {
  if (schema === null || typeof schema !== 'object') return;
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
  for (const key of ['anyOf', 'allOf', 'oneOf']) {
    const branches = node[key];
    if (Array.isArray(branches)) for (const branch of branches) eachSubschema(branch, path, visit);
  }
}

/**
 * The patterns (`pattern`, and `patternProperties`' names) RE2 cannot compile: the product runs a team's patterns in
 * linear time, as JavaScript's backtracking engine could hold its server for hours on one, and refuses these.
 */
function patternsNotRun(schema: unknown, path: string): { path: string; pattern: string }[] {
  const found: { path: string; pattern: string }[] = [];
  eachSubschema(schema, path, (node, at) => {
    const patterns = [node.pattern, ...Object.keys((node.patternProperties as object | undefined) ?? {})];
    for (const pattern of patterns) {
      if (typeof pattern !== 'string') continue;
      try {
        RE2JS.compile(pattern);
      } catch {
        found.push({ path: at, pattern });
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
