/**
 * How a slot's props that fail their component's schema are worded, wherever they are checked: the server's props
 * check (Ajv) and the remote kit's host emulator and slot tests (@cfworker/json-schema) say the same words for the
 * same props, `props.customer is required (string)`, `props.amountDue must be number, got "lots"`.
 */
import type { JsonSchema } from './wire';

/** One way a slot's props fail their component's schema: where (`props.amountDue`) and what was expected. */
export interface PropsViolation {
  /** The JSON path inside the slot, from `props`: `props`, `props.amountDue`, `props.links[1].href`. */
  path: string;
  /** `must be number, got "lots"`, `is required (string)`, `is not a prop of InvoiceBanner (its props: amountDue)`. */
  message: string;
  /**
   * The offending value as `message` quotes it, when it does (`"lots"`: the message then ends with `, got "lots"`),
   * so a reader who may not see the props can be given the message without it.
   */
  quoted?: string;
}

/** What a schema expects, in a few words: `number`, `"info" or "warning"`, `array`, `a value`. */
export function expectedOf(schema: JsonSchema): string {
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(' or ');
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches)) {
    return branches
      .map((branch) => (branch !== null && typeof branch === 'object' ? expectedOf(branch as JsonSchema) : 'a value'))
      .join(' or ');
  }
  if (typeof schema.type === 'string') return schema.type;
  if (Array.isArray(schema.type)) return schema.type.join(' or ');
  return 'a value';
}

/** A prop the object schema `parent` requires is missing: `props.customer is required (string)`. */
export function requiredViolation(path: string, missing: string, parent: JsonSchema | undefined): PropsViolation {
  const properties = parent?.properties as Record<string, JsonSchema> | undefined;
  const expected = properties?.[missing];
  return { path: `${path}.${missing}`, message: `is required${expected ? ` (${expectedOf(expected)})` : ''}` };
}

/** A prop the object schema `parent` does not declare: `props.extra is not a prop of InvoiceBanner (its props: …)`. */
export function undeclaredViolation(
  path: string,
  extra: string,
  parent: JsonSchema | undefined,
  component: string,
): PropsViolation {
  const known = Object.keys((parent?.properties as Record<string, JsonSchema> | undefined) ?? {});
  const of = path === 'props' ? component : path;
  return {
    path: `${path}.${extra}`,
    message: `is not a prop of ${of} (${known.length > 0 ? `its props: ${known.join(', ')}` : 'it takes none'})`,
  };
}

/** A violation whose message ends with the offending value: `must be number, got "lots"`. */
export function quotingViolation(path: string, expected: string, value: unknown): PropsViolation {
  const quoted = shownValue(value);
  return { path, message: `${expected}, got ${quoted}`, quoted };
}

/** A value of a union that is none of its branches: `must be string or number, got true`. */
export function unionViolation(path: string, union: JsonSchema, value: unknown): PropsViolation {
  return quotingViolation(path, `must be ${expectedOf(union)}`, value);
}

/** The path of a value inside the slot from its segments: `['links', '1', 'href']` -> `props.links[1].href`. */
export function propsPathOf(segments: readonly string[]): string {
  return segments.reduce(
    (path, segment) =>
      /^\d+$/.test(segment)
        ? `${path}[${segment}]`
        : /^[A-Za-z_$][\w$]*$/.test(segment)
          ? `${path}.${segment}`
          : `${path}[${JSON.stringify(segment)}]`,
    'props',
  );
}

/** Violations in one line, as the server's problem lines list them: `props.a is required (string); props.b …`. */
export function violationsInWords(violations: readonly PropsViolation[]): string {
  return violations.map((violation) => `${violation.path} ${violation.message}`).join('; ');
}

/** The offending value, short enough for one line. */
function shownValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
