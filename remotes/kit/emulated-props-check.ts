/**
 * The props check of the host emulator and the slot tests: the host's own (host/core/props-check.ts), against the
 * schemas of `remote.ts`, so that a remote team reads the words the product's development placeholder and its server
 * say for the same props (`props.customer is required (string)`). Browser-safe.
 */
import { Validator } from '@cfworker/json-schema';
import type { JsonSchema } from '../../shared';
import { propsCheckWith, type PropsCheck } from '../../host/core/props-check';
import { propsValidatorOf } from '../../host/core/props-violations';

/** The props check of an emulated page: `remote.ts`'s schemas, the host's validator and words. */
export function emulatedPropsCheck(schemas: Readonly<Record<string, JsonSchema>>): PropsCheck {
  const loaded = { schemas, validate: propsValidatorOf(Validator) };
  return propsCheckWith(() => Promise.resolve(loaded));
}
