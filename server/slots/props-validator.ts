import Ajv, { type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { compileLinearPattern, patternsIn, PATTERNS_PER_SCHEMA_MAX } from '../../shared/linear-patterns';
import { RE2JS } from 're2js';
import type { JsonSchema, JsonValue } from '../../shared';

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

/**
 * Validates slot props against the JSON Schemas of the remotes' descriptors with Ajv, each schema compiled once and
 * kept (schemas change only when a descriptor does, slots are checked at every start and reload). Every violation is
 * reported, not only the first, in the words a registration error needs: the JSON path and the expected type.
 * Formats (`date`, `email`, `uri`, ...) are checked, as the host and the kit's slot tests check them
 * (@cfworker/json-schema): props the kit refuses are not taken here, nor the other way round.
 */
export class PropsValidator {
  /** The patterns met that the product does not run, and why (Ajv compiles each pattern once per instance). */
  private readonly patternsNotRun = new Map<string, string>();
  /**
   * A schema's `pattern` (and `patternProperties`) run in linear time, with JavaScript's meaning
   * (shared/linear-patterns.ts): the schemas are a remote team's, which the product does not trust, and JavaScript's
   * own engine backtracks, so a pattern such as `^([a-z ]+)*$` held the server's one thread for hours on a placed prop
   * of a few dozen characters (a release's check, every start's, every placements save). One it cannot run
   * (lookaround, backreferences, a counted repetition too large) is left unchecked and said (notCheckedIn): a release
   * already in force keeps its slots after an upgrade, and a release published with one is refused (release-check.ts).
   */
  private readonly linearTimeRegExp: NonNullable<NonNullable<Options['code']>['regExp']> = Object.assign(
    (pattern: string) => {
      try {
        return compileLinearPattern(pattern, (source) => RE2JS.compile(source));
      } catch (error) {
        this.patternsNotRun.set(pattern, (error as Error).message);
        return { test: () => true };
      }
    },
    { code: 'compileLinearPattern' },
  );
  private readonly ajv = addFormats(
    new Ajv({ allErrors: true, verbose: true, strict: false, logger: false, code: { regExp: this.linearTimeRegExp } }),
  );
  private readonly compiled = new Map<string, CompiledSchema | Error>();

  /** The patterns of `schema` left unchecked, and why; empty when every one is checked. */
  notCheckedIn(schema: JsonSchema): readonly PatternNotChecked[] {
    return this.compile(schema).notCheckedIn;
  }

  /** The violations of `props` against `schema`; empty when they conform. Throws when the schema is no schema. */
  validate(schema: JsonSchema, props: JsonValue, component: string): PropsViolation[] {
    const { validator } = this.compile(schema);
    if (validator(props)) return [];
    return describeErrors(validator.errors ?? [], component);
  }

  /**
   * The schema compiled, with its patterns left unchecked: both found once per schema, as a slot check asks for both
   * for every slot.
   */
  private compile(schema: JsonSchema): CompiledSchema {
    const key = JSON.stringify(schema);
    let compiled = this.compiled.get(key);
    if (compiled === undefined) {
      const patterns = patternsIn(schema);
      try {
        if (patterns.length > PATTERNS_PER_SCHEMA_MAX) {
          throw new Error(`it has ${patterns.length} patterns, over the ${PATTERNS_PER_SCHEMA_MAX} a schema may have`);
        }
        const validator = this.ajv.compile(schema);
        // Read after compiling: Ajv compiles a pattern met in an earlier schema once, and said then why it is not run.
        const notCheckedIn = [...new Set(patterns)].flatMap((pattern) => {
          const reason = this.patternsNotRun.get(pattern);
          return reason === undefined ? [] : [{ pattern, reason }];
        });
        compiled = { validator, notCheckedIn };
      } catch (error) {
        compiled = new Error(`its props schema is not a valid JSON Schema (${(error as Error).message})`);
      }
      this.compiled.set(key, compiled);
    }
    return unlessFailed(compiled);
  }
}

/** A pattern of a schema that the product does not run, and why. */
export interface PatternNotChecked {
  pattern: string;
  reason: string;
}

interface CompiledSchema {
  validator: ValidateFunction;
  notCheckedIn: readonly PatternNotChecked[];
}

function unlessFailed(compiled: CompiledSchema | Error): CompiledSchema {
  if (compiled instanceof Error) throw compiled;
  return compiled;
}

/** Ajv's errors as violations, without the per-branch noise of a union (`anyOf`): the union's own error says it. */
function describeErrors(errors: readonly ErrorObject[], component: string): PropsViolation[] {
  const unions = errors.filter((error) => error.keyword === 'anyOf' || error.keyword === 'oneOf');
  const inBranch = (error: ErrorObject) =>
    unions.some((union) => union !== error && error.schemaPath.startsWith(`${union.schemaPath}/`));
  const violations: PropsViolation[] = [];
  for (const error of errors) {
    if (inBranch(error)) continue;
    const violation = describeError(error, component);
    if (!violations.some((seen) => seen.path === violation.path && seen.message === violation.message)) {
      violations.push(violation);
    }
  }
  return violations;
}

function describeError(error: ErrorObject, component: string): PropsViolation {
  const path = jsonPath(error.instancePath);
  switch (error.keyword) {
    case 'required': {
      const missing = String((error.params as { missingProperty: string }).missingProperty);
      const properties = (error.parentSchema as { properties?: Record<string, JsonSchema> } | undefined)?.properties;
      const expected = properties?.[missing];
      return {
        path: `${path}.${missing}`,
        message: `is required${expected ? ` (${expectedOf(expected)})` : ''}`,
      };
    }
    case 'additionalProperties': {
      const extra = String((error.params as { additionalProperty: string }).additionalProperty);
      const properties = (error.parentSchema as { properties?: Record<string, JsonSchema> } | undefined)?.properties;
      const known = Object.keys(properties ?? {});
      const of = path === 'props' ? component : path;
      return {
        path: `${path}.${extra}`,
        message: `is not a prop of ${of} (${known.length > 0 ? `its props: ${known.join(', ')}` : 'it takes none'})`,
      };
    }
    case 'anyOf':
    case 'oneOf':
      return quoting(path, `must be ${expectedOf(error.parentSchema as JsonSchema)}`, error.data);
    default:
      return quoting(path, error.message ?? 'is invalid', error.data);
  }
}

/** A violation whose message ends with the offending value. */
function quoting(path: string, expected: string, value: unknown): PropsViolation {
  const quoted = shown(value);
  return { path, message: `${expected}, got ${quoted}`, quoted };
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

/** `/links/1/href` -> `props.links[1].href`. */
function jsonPath(instancePath: string): string {
  if (instancePath === '') return 'props';
  return instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce(
      (path, segment) =>
        /^\d+$/.test(segment)
          ? `${path}[${segment}]`
          : /^[A-Za-z_$][\w$]*$/.test(segment)
            ? `${path}.${segment}`
            : `${path}[${JSON.stringify(segment)}]`,
      'props',
    );
}

/** The offending value, short enough for one line. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
