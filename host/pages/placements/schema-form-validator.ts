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

function outputOf(schema: RJSFSchema, data: unknown): OutputUnit[] {
  return new Validator(schema as never, '2020-12', false).validate(data).errors;
}

function errorsOf(schema: RJSFSchema, data: unknown): RJSFValidationError[] {
  return outputOf(schema, data)
    .filter((unit) => !WRAPPER_KEYWORDS.has(unit.keyword))
    .map((unit) => {
      const segments = unit.instanceLocation.replace(/^#/, '').split('/').slice(1).map(decodeURIComponent);
      const property = segments.map((segment) => `.${segment}`).join('');
      return {
        name: unit.keyword,
        property,
        message: unit.error,
        stack: `${property || 'props'} ${unit.error}`,
        schemaPath: unit.keywordLocation,
      };
    });
}
