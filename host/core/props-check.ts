import type { JsonObject, JsonSchema } from '../../shared';

/** Checks a slot's own props against its component's schema; null when they conform or no schema is known. */
export interface PropsCheck {
  check(component: string, props: JsonObject): Promise<string | null>;
}

export interface OutputUnit {
  keyword: string;
  keywordLocation: string;
  instanceLocation: string;
  error: string;
}

/** Keywords whose error only says that something below failed: the error below says what. */
const WRAPPER_KEYWORDS = new Set(['properties', 'items', 'prefixItems', 'false', 'additionalProperties']);

/** The schemas of the components known, and the validator that checks props against one of them. */
export interface LoadedSchemas {
  schemas: Readonly<Record<string, JsonSchema>>;
  validate: Validate;
  /** Only the public slots' components (signed out): a component missing may have a schema a signed-in load gets. */
  partial?: boolean;
}

/**
 * The check itself, whatever gives the schemas: the product's server above, a remote's own declaration in the kit's
 * host emulator and slot tests. `load` answers null when there are none (the props are then not checked).
 */
export function propsCheckWith(load: () => Promise<LoadedSchemas | null>): PropsCheck {
  return {
    async check(component, props) {
      const loaded = await load();
      const schema = loaded?.schemas[component];
      if (!loaded || schema === undefined) return null;
      return describePropsErrors(loaded.validate(schema, props));
    },
  };
}

/** What {@link validatorOf} uses of @cfworker/json-schema's `Validator` (its ESM and CommonJS builds alike). */
interface ValidatorClass {
  new (schema: never, draft: '2020-12', shortCircuit: boolean): { validate(instance: unknown): { errors: unknown } };
}

/** @cfworker/json-schema's interpretive validator (no eval: the page's Content-Security-Policy forbids it). */
export function validatorOf(Validator: ValidatorClass): Validate {
  return (schema, props) => new Validator(schema as never, '2020-12', false).validate(props).errors as OutputUnit[];
}

export type Validate = (schema: JsonSchema, props: JsonObject) => OutputUnit[];

/** The validator's errors as one line: `props.amountDue: Instance type "string" is invalid. Expected "number".` */
export function describePropsErrors(errors: readonly OutputUnit[]): string | null {
  const unions = errors.filter((error) => error.keyword === 'anyOf' || error.keyword === 'oneOf');
  const said = errors.filter(
    (error) =>
      !WRAPPER_KEYWORDS.has(error.keyword) &&
      !unions.some((union) => union !== error && error.keywordLocation.startsWith(`${union.keywordLocation}/`)),
  );
  const lines = said.map((error) => `${propsPath(error.instanceLocation)}: ${error.error}`);
  const extra = errors
    .filter((error) => error.keyword === 'false')
    .map((error) => `${propsPath(error.instanceLocation)}: is not a prop of this component.`);
  const all = [...lines, ...extra];
  return all.length === 0 ? null : all.join(' ');
}

/** `#/links/0/href` -> `props.links[0].href`. */
function propsPath(instanceLocation: string): string {
  return instanceLocation
    .replace(/^#/, '')
    .split('/')
    .slice(1)
    .map(decodeURIComponent)
    .reduce((path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : `${path}.${segment}`), 'props');
}
