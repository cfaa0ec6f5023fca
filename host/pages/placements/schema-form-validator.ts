import { Validator, type OutputUnit } from '@cfworker/json-schema';
import {
  toErrorSchema,
  type CustomValidator,
  type ErrorTransformer,
  type RJSFSchema,
  type RJSFValidationError,
  type ValidationData,
  type ValidatorType,
} from '@rjsf/utils';
import type { JsonSchema, JsonValue } from '../../../shared';
import { withoutBacktrackingPatterns } from '../../core/backtracking-patterns';
import { propLabel } from './prop-words';

/** Keywords whose error only says that something below failed: the error below says what. */
const WRAPPER_KEYWORDS = new Set(['properties', 'items', 'prefixItems', 'allOf', '$ref']);

/**
 * react-jsonschema-form's validator on @cfworker/json-schema, an interpretive validator: the page's
 * Content-Security-Policy forbids the eval that the library's own (ajv) validator compiles schemas with. Errors are
 * given to the form's fields by their instance location (`#/links/0/href` -> `.links.0.href`).
 */
export const schemaFormValidator: ValidatorType = {
  validateFormData(
    formData: unknown,
    schema: RJSFSchema,
    _customValidate?: CustomValidator,
    transformErrors?: ErrorTransformer,
  ): ValidationData<unknown> {
    // The editor gives no custom validation: the schema is the contract, and the server checks it again.
    const errors = transformErrors ? transformErrors(errorsOf(schema, formData)) : errorsOf(schema, formData);
    return { errors, errorSchema: toErrorSchema(errors) };
  },
  isValid(schema: RJSFSchema, formData: unknown, rootSchema: RJSFSchema): boolean {
    // A sub-schema may point into the root one ($ref "#/$defs/..."): checked with the root's definitions beside it.
    const withRoot = { ...rootSchema, ...schema } as RJSFSchema;
    return outputOf(withRoot, formData).length === 0;
  },
  rawValidation<Result>(schema: RJSFSchema, formData?: unknown): { errors?: Result[]; validationError?: Error } {
    try {
      return { errors: outputOf(schema, formData) as Result[] };
    } catch (error) {
      return { validationError: error as Error };
    }
  },
};

/** The schema's errors for `data`, the patterns that may backtrack without end in the browser left to the server. */
function outputOf(schema: RJSFSchema, data: unknown): OutputUnit[] {
  const checked = withoutBacktrackingPatterns(schema as JsonSchema);
  return new Validator(checked as never, '2020-12', false).validate(data).errors;
}

/** A JSON Schema type in the operator's words. */
const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: 'text',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'yes or no',
  array: 'a list',
  object: 'a group of fields',
  null: 'empty',
};

/**
 * One error in words, for the field it is shown under: `Title is required`, `Count must be a whole number`. The
 * validator's own text (`Instance does not have required property "title".`) is developer words; a keyword without
 * words of its own keeps it, after the prop's name.
 */
function inWords(keyword: string, schemaAt: JsonValue | undefined, error: string): string {
  if (keyword === 'required') return 'is required';
  if (keyword === 'type') {
    const type = (schemaAt as { type?: unknown } | undefined)?.type;
    const types = (Array.isArray(type) ? type : [type]).filter((each): each is string => typeof each === 'string');
    return `must be ${types.map((each) => TYPE_WORDS[each] ?? each).join(' or ')}`;
  }
  if (keyword === 'enum' || keyword === 'const' || keyword === 'anyOf' || keyword === 'oneOf') {
    return 'must be one of the choices';
  }
  return `is not valid: ${error}`;
}

/** The sub-schema at a prop's steps (properties by name, items by number), or undefined where none is known. */
function schemaAtSteps(schema: RJSFSchema, steps: ReadonlyArray<string | number>): JsonValue | undefined {
  let at: JsonValue | undefined = schema as JsonValue;
  for (const step of steps) {
    const node = at as { properties?: Record<string, JsonValue>; items?: JsonValue } | undefined;
    at = typeof step === 'number' ? node?.items : node?.properties?.[step];
  }
  return at;
}

function errorsOf(schema: RJSFSchema, data: unknown): RJSFValidationError[] {
  return outputOf(schema, data)
    .filter((unit) => !WRAPPER_KEYWORDS.has(unit.keyword))
    .map((unit) => {
      const steps: Array<string | number> = unit.instanceLocation
        .replace(/^#/, '')
        .split('/')
        .slice(1)
        .map(decodeURIComponent)
        .map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
      // A missing prop is the object's error for the validator, the prop's field's for the operator.
      const missing = unit.keyword === 'required' ? /"((?:[^"\\]|\\.)*)"\.$/.exec(unit.error)?.[1] : undefined;
      if (missing !== undefined) steps.push(missing);
      const property = steps.map((step) => `.${step}`).join('');
      const label = steps.length === 0 ? 'The props' : propLabel(schema as JsonSchema, steps);
      const message = `${label} ${inWords(unit.keyword, schemaAtSteps(schema, steps), unit.error)}`;
      return { name: unit.keyword, property, message, stack: message, schemaPath: unit.keywordLocation };
    });
}
