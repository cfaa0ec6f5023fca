import { COMPONENT_NAME_PATTERN, REMOTE_NAME_PATTERN } from '../../shared';
import { RemotesConfigError } from './remotes-config-error';

export function checkRemoteName(value: unknown, where: string): string {
  if (typeof value !== 'string' || !REMOTE_NAME_PATTERN.test(value)) {
    throw new RemotesConfigError(`${where}: "name" must match ${REMOTE_NAME_PATTERN}, got ${JSON.stringify(value)}.`);
  }
  return value;
}

/** A list of distinct component names, each usable in a slot (shared COMPONENT_NAME_PATTERN). */
export function checkComponentList(value: unknown, field: string, where: string): string[] {
  if (!Array.isArray(value)) {
    throw new RemotesConfigError(
      `${where}: "${field}" must be a list of component names, got ${JSON.stringify(value)}.`,
    );
  }
  const seen = new Set<string>();
  for (const item of value) {
    if (typeof item !== 'string' || !COMPONENT_NAME_PATTERN.test(item)) {
      throw new RemotesConfigError(
        `${where}: "${field}" holds ${JSON.stringify(item)}, which is not a component name (${COMPONENT_NAME_PATTERN}).`,
      );
    }
    if (seen.has(item)) throw new RemotesConfigError(`${where}: "${field}" lists "${item}" twice.`);
    seen.add(item);
  }
  return [...seen];
}

export function checkFormComponents(
  formComponents: readonly string[],
  components: readonly string[],
  where: string,
): void {
  const missing = formComponents.filter((name) => !components.includes(name));
  if (missing.length > 0) {
    throw new RemotesConfigError(
      `${where}: "formComponents" must be a subset of "components"; not in components: ${missing.join(', ')}.`,
    );
  }
}
