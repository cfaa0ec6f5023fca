import { violationsInWords, type JsonObject, type JsonSchema } from '../../shared';
import type { ValidateProps } from './props-violations';

/**
 * Checks a slot's own props against its component's schema; null when they conform or no schema is known. Its words
 * are the server's (`props.customer is required (string)`), joined with `; ` as the server's problem lines are.
 */
export interface PropsCheck {
  check(component: string, props: JsonObject): Promise<string | null>;
}

/** The schemas of the components known, and the validator that checks props against one of them. */
export interface LoadedSchemas {
  schemas: Readonly<Record<string, JsonSchema>>;
  validate: ValidateProps;
  /** Only the public slots' components (signed out): a component missing may have a schema a signed-in load gets. */
  partial?: boolean;
}

/**
 * The check itself, whatever gives the schemas: the product's server (dev-props-check.ts), a remote's own
 * declaration in the kit's host emulator and slot tests. `load` answers null when there are none (the props are then
 * not checked).
 */
export function propsCheckWith(load: () => Promise<LoadedSchemas | null>): PropsCheck {
  return {
    async check(component, props) {
      const loaded = await load();
      const schema = loaded?.schemas[component];
      if (!loaded || schema === undefined) return null;
      const violations = loaded.validate(schema, props, component);
      return violations.length === 0 ? null : violationsInWords(violations);
    },
  };
}
