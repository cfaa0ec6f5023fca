import { SLUG_PATTERN } from '../../shared';

/** A module or dashboard defined wrongly; thrown when it is registered. */
export class NavigationDefinitionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NavigationDefinitionError';
  }
}

/**
 * What modules and dashboards have in common: a slug name, unique among its kind, and a label. Throws the error
 * that names what is wrong, e.g. `Module "content" is already registered.`
 */
export function checkNavigationName(
  kind: 'Module' | 'Dashboard',
  name: unknown,
  label: unknown,
  registered: ReadonlyArray<{ name: string }>,
): asserts name is string {
  if (typeof name !== 'string' || !SLUG_PATTERN.test(name)) {
    throw new NavigationDefinitionError(
      `${kind} name ${JSON.stringify(name)} is not valid: use lower case letters, digits and "-".`,
    );
  }
  if (registered.some((item) => item.name === name)) {
    throw new NavigationDefinitionError(`${kind} "${name}" is already registered.`);
  }
  if (typeof label !== 'string' || label.trim() === '') {
    throw new NavigationDefinitionError(`${kind} "${name}" needs a label.`);
  }
}
