/**
 * The rules for every kind of name that crosses a boundary (server registration, remote build, wire), one pattern
 * each, so the server, the host and the remote kit never disagree on what a name may be.
 */

/** A slot's component name, as registered and looked up in the host: a letter, then letters, digits, `_-./`. */
export const COMPONENT_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_./-]{0,127}$/;

/**
 * A component a remote exposes. It also names a file and a Module Federation expose key (`./SlugPreview`), so it is
 * a plain PascalCase identifier; every such name is also a valid {@link COMPONENT_NAME_PATTERN}.
 */
export const EXPOSED_COMPONENT_PATTERN = /^[A-Z][A-Za-z0-9]{0,127}$/;

/**
 * A remote's container name. It becomes a JavaScript global (`window.team_records`) and travels in module ids
 * (`<remote>/<component>`), so it is an identifier: no `-`, no `/`.
 */
export const REMOTE_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** Names in URLs and navigation (resources, modules, dashboards): lower-case kebab-case. */
export const SLUG_PATTERN = /^[a-z][a-z0-9-]{0,63}$/;

/**
 * A value as an error message names it: `null`, `undefined`, `the string "x"`, `a number`, `an array`,
 * `a Date`, `an object`. The article agrees with the word ("an Object", never "a Object").
 */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  if (Array.isArray(value)) return 'an array';
  const kind =
    typeof value === 'object'
      ? Object.getPrototypeOf(value) === null
        ? 'object'
        : ((value as object).constructor?.name ?? 'object')
      : typeof value;
  return `${/^[aeiou]/i.test(kind) ? 'an' : 'a'} ${kind === 'Object' ? 'object' : kind}`;
}
