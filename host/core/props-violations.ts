/**
 * A slot's props checked against its component's schema in the browser, worded as the server words them. The host's
 * development placeholder and the remote kit's host emulator and slot tests both check with @cfworker/json-schema,
 * an interpretive validator (no eval, which the page's Content-Security-Policy forbids), whose own words are a
 * validator's (`Instance does not have required property "customer".`); the server checks the same props with Ajv
 * and says `props.customer is required (string)`. So that a remote team reads one wording for one mistake, wherever
 * it is found, the validator's findings are worded here by the server's own functions (shared/props-words.ts): a
 * missing or undeclared prop and a value outside a union word the same, and every other keyword is given Ajv's words
 * (ajv-words.ts), read from the schema, as the server passes Ajv's on.
 */
import {
  propsPathOf,
  quotingViolation,
  requiredViolation,
  undeclaredViolation,
  unionViolation,
  type JsonObject,
  type JsonSchema,
  type JsonValue,
  type PropsViolation,
} from '../../shared';
import { ajvWords } from './ajv-words';

/** One error of @cfworker/json-schema's output. */
export interface OutputUnit {
  keyword: string;
  keywordLocation: string;
  instanceLocation: string;
  error: string;
}

/** The props of a slot of `component` against `schema`: each way they fail it, in the server's words. */
export type ValidateProps = (schema: JsonSchema, props: JsonObject, component: string) => PropsViolation[];

/** What {@link propsValidatorOf} uses of @cfworker/json-schema's `Validator` (its ESM and CommonJS builds alike). */
export interface ValidatorClass {
  new (schema: never, draft: '2020-12', shortCircuit: boolean): { validate(instance: unknown): { errors: unknown } };
}

/**
 * The check of props with @cfworker/json-schema's `Validator`, given by the caller: the host loads it in a
 * development-only chunk, the kit bundles it.
 */
export function propsValidatorOf(Validator: ValidatorClass): ValidateProps {
  return (schema, props, component) => {
    const errors = new Validator(schema as never, '2020-12', false).validate(props).errors as OutputUnit[];
    return propsViolationsOf(errors, schema, props, component);
  };
}

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
