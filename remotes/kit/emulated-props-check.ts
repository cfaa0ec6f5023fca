/**
 * The props check of the host emulator and the slot tests: the host's own (host/core/props-check.ts), against the
 * schemas of `remote.ts`, so that a remote team reads the words the product's development placeholder and its server
 * say for the same props (`props.customer is required (string)`). Browser-safe.
 */
import { Validator } from '@cfworker/json-schema';
import type { JsonSchema } from '../../shared';
import { withoutBacktrackingPatterns } from '../../host/core/backtracking-patterns';
import { propsCheckWith, type PropsCheck } from '../../host/core/props-check';
import { propsValidatorOf, type ValidateProps } from '../../host/core/props-violations';

/** The props check of an emulated page: `remote.ts`'s schemas, the host's validator and words. */
export function emulatedPropsCheck(schemas: Readonly<Record<string, JsonSchema>>): PropsCheck {
  const validateAll = propsValidatorOf(Validator);
  // As the host's development check (host/core/dev-props-check.ts): a pattern that may backtrack without end in
  // JavaScript's engine (`^([a-z ]+)*$`) is left to the server, which runs it in linear time; run here, it held a
  // slot test or the emulator's page on a text that almost matches. The words read the same schema.
  const validate: ValidateProps = (schema, props, component) =>
    validateAll(withoutBacktrackingPatterns(schema), props, component);
  const loaded = { schemas, validate };
  return propsCheckWith(() => Promise.resolve(loaded));
}
