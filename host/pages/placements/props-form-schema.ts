import type { JsonSchema, JsonValue } from '../../../shared';

/** Keywords whose value is one sub-schema. */
const SCHEMA_KEYWORDS = ['items', 'additionalProperties', 'additionalItems', 'contains', 'not', 'if', 'then', 'else'];
/** Keywords whose value is a list of sub-schemas. */
const LIST_KEYWORDS = ['items', 'prefixItems', 'anyOf', 'oneOf', 'allOf'];
/** Keywords whose value maps names to sub-schemas. */
const MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];

/**
 * A component's props schema as react-jsonschema-form is given it. The form picks a field by a schema's `type`: a
 * choice declared without one, an `enum`, a `const` or an `anyOf`/`oneOf` of constants (TypeBox's
 * `Type.Union([Type.Literal('info'), …])` writes the type on each branch only), is shown as "Unsupported field
 * schema" instead of a drop-down. Such a schema gets the type that all its values share (none when they differ),
 * at every depth. The values a schema allows do not change: the form checks the props against what it shows, as the
 * server checks the remote's own schema.
 */
export function propsFormSchema(schema: JsonSchema): JsonSchema {
  return withTypes(schema) as JsonSchema;
}

function withTypes(schema: JsonValue): JsonValue {
  if (!isObject(schema)) return schema;
  const typed: JsonSchema = { ...schema };
  for (const keyword of SCHEMA_KEYWORDS) {
    if (isObject(typed[keyword])) typed[keyword] = withTypes(typed[keyword]);
  }
  for (const keyword of LIST_KEYWORDS) {
    const list = typed[keyword];
    if (Array.isArray(list)) typed[keyword] = list.map(withTypes);
  }
  for (const keyword of MAP_KEYWORDS) {
    const map = typed[keyword];
    if (isObject(map)) {
      typed[keyword] = Object.fromEntries(Object.entries(map).map(([name, sub]) => [name, withTypes(sub)]));
    }
  }
  if (typed.type === undefined) {
    const type = sharedType(allowedValues(typed));
    if (type !== null) typed.type = type;
  }
  return typed;
}

/** The only values a schema allows (its `enum`, its `const`, or those of its branches), or null when not so few. */
function allowedValues(schema: JsonSchema): JsonValue[] | null {
  if (Array.isArray(schema.enum)) return schema.enum;
  if ('const' in schema) return [schema.const!];
  const branches = schema.anyOf ?? schema.oneOf;
  if (!Array.isArray(branches) || branches.length === 0) return null;
  const values: JsonValue[] = [];
  for (const branch of branches) {
    const allowed = isObject(branch) ? allowedValues(branch) : null;
    if (allowed === null) return null;
    values.push(...allowed);
  }
  return values;
}

/**
 * The JSON Schema type of every value, or null when they have none in common, or there is none, or it is not one
 * the form offers a choice of (a drop-down of objects or lists would not be one).
 */
function sharedType(values: JsonValue[] | null): string | null {
  if (values === null || values.length === 0) return null;
  const types = new Set(values.map(typeOf));
  // Whole numbers are numbers too.
  if (types.size === 2 && types.has('integer') && types.has('number')) return 'number';
  const [type] = types;
  return types.size === 1 && type !== 'object' && type !== 'array' ? type! : null;
}

function typeOf(value: JsonValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function isObject(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
