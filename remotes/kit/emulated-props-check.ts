/**
 * The props check of the host emulator and the slot tests, in the server's words. Both check a slot's props with the
 * host's validator (@cfworker/json-schema: no eval, which the page's Content-Security-Policy forbids), whose own
 * words are a validator's (`Instance does not have required property "customer".`); the server checks the same props
 * with Ajv and says `props.customer is required (string)`. Here the validator's findings are worded by the server's
 * own functions (shared/props-words.ts): a missing or undeclared prop and a value outside a union word the same, and
 * every other keyword is given Ajv's words (`must be number`, `must NOT have more than 3 characters`, `must match
 * format "date"`), read from the schema, as the server passes Ajv's on. Browser-safe.
 */
import { Validator } from '@cfworker/json-schema';
import {
  propsPathOf,
  quotingViolation,
  requiredViolation,
  undeclaredViolation,
  unionViolation,
  violationsInWords,
  type JsonObject,
  type JsonSchema,
  type JsonValue,
  type PropsViolation,
} from '../../shared';
import { validatorOf, type OutputUnit, type PropsCheck } from '../../host/core/props-check';

/** Keywords whose error only says that something below failed, or that the unit after it says (`false`). */
const WRAPPER_KEYWORDS = new Set([
  'properties',
  'patternProperties',
  'items',
  'prefixItems',
  'additionalItems',
  'allOf',
  '$ref',
  'false',
]);

/** The props check of an emulated page: `remote.ts`'s schemas, the host's validator, the server's words. */
export function emulatedPropsCheck(schemas: Readonly<Record<string, JsonSchema>>): PropsCheck {
  const validate = validatorOf(Validator);
  return {
    check(component, props) {
      const schema = schemas[component];
      if (schema === undefined) return Promise.resolve(null);
      const violations = propsViolationsOf(validate(schema, props), schema, props, component);
      return Promise.resolve(violations.length === 0 ? null : violationsInWords(violations));
    },
  };
}

/** The validator's errors for `props` against `schema` as the server words them, once each. */
export function propsViolationsOf(
  errors: readonly OutputUnit[],
  schema: JsonSchema,
  props: JsonObject,
  component: string,
): PropsViolation[] {
  const unions = errors.filter((error) => error.keyword === 'anyOf' || error.keyword === 'oneOf');
  const violations: PropsViolation[] = [];
  for (const error of errors) {
    if (WRAPPER_KEYWORDS.has(error.keyword)) continue;
    // A union's branches each fail on their own: the union's own error says what it takes.
    if (unions.some((union) => union !== error && error.keywordLocation.startsWith(`${union.keywordLocation}/`))) {
      continue;
    }
    for (const violation of violationsOf(error, schema, props, component)) {
      if (!violations.some((seen) => seen.path === violation.path && seen.message === violation.message)) {
        violations.push(violation);
      }
    }
  }
  return violations;
}

function violationsOf(error: OutputUnit, root: JsonSchema, props: JsonObject, component: string): PropsViolation[] {
  const segments = pointerSegments(error.instanceLocation);
  const path = propsPathOf(segments);
  const value = valueAt(props, segments);
  const keywordPath = pointerSegments(error.keywordLocation);
  const keywordValue = schemaAt(root, keywordPath);
  const parent = schemaAt(root, keywordPath.slice(0, -1)) as JsonSchema | undefined;
  switch (error.keyword) {
    case 'required': {
      // One error per missing prop, each naming it only in the validator's sentence: found again from the value.
      const present = isObject(value) ? value : {};
      const required = Array.isArray(keywordValue) ? keywordValue.map(String) : [];
      return required.filter((name) => !(name in present)).map((name) => requiredViolation(path, name, parent));
    }
    case 'additionalProperties': {
      if (keywordValue !== false || !isObject(value)) return [];
      const declared = Object.keys((parent?.properties as Record<string, JsonSchema> | undefined) ?? {});
      const patterns = Object.keys((parent?.patternProperties as Record<string, JsonSchema> | undefined) ?? {});
      return Object.keys(value)
        .filter((name) => !declared.includes(name) && !patterns.some((pattern) => new RegExp(pattern, 'u').test(name)))
        .map((name) => undeclaredViolation(path, name, parent, component));
    }
    case 'anyOf':
    case 'oneOf':
      return [unionViolation(path, parent ?? {}, value)];
    default:
      return [quotingViolation(path, ajvWords(error.keyword, keywordValue, value), value)];
  }
}

/**
 * What Ajv says of a keyword a value fails (its English messages, which the server passes on): `must be number`,
 * `must be <= 10`, `must NOT have fewer than 2 characters`, `must match pattern "^[a-z]+$"`.
 */
export function ajvWords(keyword: string, schema: unknown, value: unknown): string {
  const limit = String(schema);
  switch (keyword) {
    case 'type':
      return `must be ${Array.isArray(schema) ? schema.join(',') : limit}`;
    case 'enum':
      return 'must be equal to one of the allowed values';
    case 'const':
      return 'must be equal to constant';
    case 'format':
      return `must match format "${limit}"`;
    case 'pattern':
      return `must match pattern "${limit}"`;
    case 'maximum':
      return `must be <= ${limit}`;
    case 'minimum':
      return `must be >= ${limit}`;
    case 'exclusiveMaximum':
      return `must be < ${limit}`;
    case 'exclusiveMinimum':
      return `must be > ${limit}`;
    case 'multipleOf':
      return `must be multiple of ${limit}`;
    case 'maxLength':
      return `must NOT have more than ${limit} characters`;
    case 'minLength':
      return `must NOT have fewer than ${limit} characters`;
    case 'maxItems':
      return `must NOT have more than ${limit} items`;
    case 'minItems':
      return `must NOT have fewer than ${limit} items`;
    case 'maxProperties':
      return `must NOT have more than ${limit} properties`;
    case 'minProperties':
      return `must NOT have fewer than ${limit} properties`;
    case 'uniqueItems':
      return `must NOT have duplicate items${duplicatesOf(value)}`;
    case 'not':
      return 'must NOT be valid';
    default:
      return `must match the schema's "${keyword}"`;
  }
}

/** ` (items ## 0 and 1 are identical)`: Ajv's pair, the last item equal to an earlier one, and the nearest such. */
function duplicatesOf(value: unknown): string {
  if (!Array.isArray(value)) return '';
  for (let i = value.length - 1; i > 0; i--) {
    for (let j = i - 1; j >= 0; j--) {
      if (JSON.stringify(value[i]) === JSON.stringify(value[j])) return ` (items ## ${j} and ${i} are identical)`;
    }
  }
  return '';
}

/** `#/links/0/href` -> `['links', '0', 'href']`. */
function pointerSegments(location: string): string[] {
  return location
    .replace(/^#/, '')
    .split('/')
    .slice(1)
    .map((segment) => decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~'));
}

function valueAt(props: JsonValue, segments: readonly string[]): JsonValue | undefined {
  let value: JsonValue | undefined = props;
  for (const segment of segments) {
    if (Array.isArray(value)) value = value[Number(segment)];
    else if (isObject(value)) value = value[segment];
    else return undefined;
  }
  return value;
}

function schemaAt(schema: JsonSchema, segments: readonly string[]): unknown {
  let node: unknown = schema;
  for (const segment of segments) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
