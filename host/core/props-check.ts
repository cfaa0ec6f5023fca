import type { JsonObject, JsonSchema, SlotSchemasPayload } from '../../shared';
import type { ApiClient } from '../loader/api-client';

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

/**
 * The development check of slot props before rendering. Loads, on the first check only, the schemas of the
 * components known now (`GET /api/slots/schemas`, which only a development server answers) and an interpretive JSON
 * Schema validator (@cfworker/json-schema, in its own chunk: the page's Content-Security-Policy forbids the eval a
 * compiling validator needs). A production page never creates it, so it costs production nothing.
 */
export function createPropsCheck(client: ApiClient): PropsCheck {
  let loading: Promise<LoadedSchemas | null> | null = null;
  const load = () =>
    (loading ??= Promise.all([
      client.get<SlotSchemasPayload>('/api/slots/schemas'),
      // A development-only chunk (build/bundle-budgets.ts): never part of what a production page loads.
      import(/* webpackChunkName: "dev-only-props-check" */ '@cfworker/json-schema'),
      import(/* webpackChunkName: "dev-only-props-check" */ './backtracking-patterns'),
    ]).then(
      ([payload, { Validator }, { withoutBacktrackingPatterns }]) => ({
        schemas: payload.schemas,
        // A remote team's patterns that may backtrack without end in the browser are left to the server's check.
        validate: (schema, props) => validatorOf(Validator)(withoutBacktrackingPatterns(schema), props),
        partial: payload.partial === true,
      }),
      // No schemas (an older server; a network error): slots render unchecked, as in production, and the next
      // check asks again.
      () => {
        loading = null;
        return null;
      },
    ));
  // Signed out, only the public slots' schemas come: a component without one there (a protected location's, met
  // after a sign-in in this page) has them asked for again, once per component; checks meanwhile share that load.
  const askedAgain = new Set<string>();
  let reloadedAfter: LoadedSchemas | null = null;
  return {
    async check(component, props) {
      let loaded = await load();
      if (loaded?.partial && loaded.schemas[component] === undefined) {
        if (reloadedAfter !== loaded && !askedAgain.has(component)) {
          reloadedAfter = loaded;
          loading = null;
        }
        askedAgain.add(component);
        // The load started for this answer (by this check or one beside it) is the one to wait for.
        if (reloadedAfter === loaded) loaded = await load();
      }
      const schemas = loaded;
      return propsCheckWith(() => Promise.resolve(schemas)).check(component, props);
    },
  };
}

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
