/**
 * `@slots-platform/remote-kit/schema`: what a team declares its components' props with, in its `remote.ts` (which
 * runs at build time only): TypeBox's `Type`, and {@link propsSchema}. A separate entry from the kit's main one, which
 * components import in the browser: the schema library never reaches a remote's bundles, whatever they import.
 */
import { Type, type ObjectOptions, type TObject, type TProperties } from '@sinclair/typebox';

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
  return schema;
}

/** JSON Schema's types: TypeBox also writes `Date`, `Uint8Array`, `undefined`, `bigint`, `Function`..., which no JSON is. */
const JSON_TYPES: ReadonlySet<string> = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** Where in `schema` a `type` names no JSON type (a TypeBox JavaScript type), with the path of props it is at. */
function typesJsonCannotCarry(schema: unknown, path: string): { path: string; type: string }[] {
  if (schema === null || typeof schema !== 'object') return [];
  const node = schema as Record<string, unknown>;
  const found: { path: string; type: string }[] = [];
  for (const type of [node.type].flat()) {
    if (typeof type === 'string' && !JSON_TYPES.has(type)) found.push({ path, type });
  }
  const properties = node.properties;
  if (properties !== null && typeof properties === 'object') {
    for (const [name, property] of Object.entries(properties)) {
      found.push(...typesJsonCannotCarry(property, `${path}.${name}`));
    }
  }
  for (const key of ['items', 'additionalProperties', 'not'])
    found.push(...typesJsonCannotCarry(node[key], `${path}[]`));
  for (const key of ['anyOf', 'allOf', 'oneOf']) {
    const branches = node[key];
    if (Array.isArray(branches)) for (const branch of branches) found.push(...typesJsonCannotCarry(branch, path));
  }
  return found;
}
