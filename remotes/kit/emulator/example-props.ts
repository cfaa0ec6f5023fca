import type { JsonObject, JsonSchema, JsonValue } from '../../../shared';

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The props the emulator starts a component with, from its schema: the schema's first example when it gives one
 * (`propsSchema({ ... }, { examples: [{ name: 'world' }] })`), else each property's own example, default, constant or
 * first allowed value, else a plain value of its type. The team edits them in the page from there.
 */
export function exampleProps(schema: JsonSchema | undefined): JsonObject {
  if (!schema) return {};
  const [example] = Array.isArray(schema.examples) ? schema.examples : [];
  if (isObject(example)) return example;
  if (isObject(schema.default)) return schema.default;
  const props: JsonObject = {};
  const properties = isObject(schema.properties) ? schema.properties : {};
  for (const [name, property] of Object.entries(properties)) {
    if (isObject(property)) props[name] = exampleValue(property, name);
  }
  return props;
}

function exampleValue(schema: JsonSchema, name: string): JsonValue {
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0]!;
  if ('default' in schema) return schema.default!;
  if ('const' in schema) return schema.const!;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0]!;
  const [alternative] = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : [];
  if (isObject(alternative)) return exampleValue(alternative, name);
  switch (Array.isArray(schema.type) ? schema.type[0] : schema.type) {
    case 'string':
      return name;
    case 'number':
    case 'integer':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return exampleProps(schema);
    default:
      return null;
  }
}
