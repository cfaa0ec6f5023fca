import Ajv, { type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { compileLinearPattern, patternsIn, PATTERNS_PER_SCHEMA_MAX } from '../../shared/linear-patterns';
import { RE2JS } from 're2js';
import {
  propsPathOf,
  quotingViolation,
  requiredViolation,
  undeclaredViolation,
  unionViolation,
  type JsonSchema,
  type JsonValue,
  type PropsViolation,
} from '../../shared';

export type { PropsViolation } from '../../shared';

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
  const parent = error.parentSchema as JsonSchema | undefined;
  switch (error.keyword) {
    case 'required':
      return requiredViolation(path, String((error.params as { missingProperty: string }).missingProperty), parent);
    case 'additionalProperties':
      return undeclaredViolation(
        path,
        String((error.params as { additionalProperty: string }).additionalProperty),
        parent,
        component,
      );
    case 'anyOf':
    case 'oneOf':
      return unionViolation(path, parent as JsonSchema, error.data);
    default:
      return quotingViolation(path, error.message ?? 'is invalid', error.data);
  }
}

/** `/links/1/href` -> `props.links[1].href`. */
function jsonPath(instancePath: string): string {
  if (instancePath === '') return 'props';
  return propsPathOf(
    instancePath
      .split('/')
      .slice(1)
      .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~')),
  );
}
