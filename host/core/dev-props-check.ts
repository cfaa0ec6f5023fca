import type { SlotSchemasPayload } from '../../shared';
import type { ApiClient } from '../loader/api-client';
import { propsCheckWith, type LoadedSchemas, type PropsCheck } from './props-check';

/**
 * The development check of slot props before rendering. Loads, on the first check only, the schemas of the
 * components known now (`GET /api/slots/schemas`, which only a development server answers) and an interpretive JSON
 * Schema validator (@cfworker/json-schema, in its own chunk with the server's wording of what it finds,
 * props-violations.ts: the page's Content-Security-Policy forbids the eval a compiling validator needs). A production
 * page never creates it, so it costs production nothing.
 */
export function createPropsCheck(client: ApiClient): PropsCheck {
  let loading: Promise<LoadedSchemas | null> | null = null;
  const load = () =>
    (loading ??= Promise.all([
      client.get<SlotSchemasPayload>('/api/slots/schemas'),
      // A development-only chunk (build/bundle-budgets.ts): never part of what a production page loads.
      import(/* webpackChunkName: "dev-only-props-check" */ '@cfworker/json-schema'),
      import(/* webpackChunkName: "dev-only-props-check" */ './backtracking-patterns'),
      import(/* webpackChunkName: "dev-only-props-check" */ './props-violations'),
    ]).then(
      ([payload, { Validator }, { withoutBacktrackingPatterns }, { propsValidatorOf }]) => ({
        schemas: payload.schemas,
        // A remote team's patterns that may backtrack without end in the browser are left to the server's check,
        // and the wording reads the same schema as the validator (its undeclared props test the patterns kept).
        validate: (schema, props, component) =>
          propsValidatorOf(Validator)(withoutBacktrackingPatterns(schema), props, component),
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
