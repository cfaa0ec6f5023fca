import {
  COMPONENT_NAME_PATTERN,
  isPlainObject,
  JSON_DEPTH_MAX,
  KIT_VERSION_PATTERN,
  nestsDeeperThan,
  REMOTE_NAME_PATTERN,
  type JsonSchema,
  type RemoteDescriptorFile,
} from '../../shared';
import { quotedValue, shortened } from '../http/quoted-value';
import { RemotesConfigError } from '../config/remotes-config-error';

// The values these checks quote may come from a remote's origin (its slots-remote.json): each is quoted cut short
// (quotedValue), so a refusal says what was wrong without sending back a huge, or secret, answer whole.

export function checkRemoteName(value: unknown, where: string): string {
  if (typeof value !== 'string' || !REMOTE_NAME_PATTERN.test(value)) {
    throw new RemotesConfigError(`${where}: "name" must match ${REMOTE_NAME_PATTERN}, got ${quotedValue(value)}.`);
  }
  return value;
}

/** A list of distinct component names, each usable in a slot (shared COMPONENT_NAME_PATTERN). */
export function checkComponentList(value: unknown, field: string, where: string): string[] {
  if (!Array.isArray(value)) {
    throw new RemotesConfigError(`${where}: "${field}" must be a list of component names, got ${quotedValue(value)}.`);
  }
  const seen = new Set<string>();
  for (const item of value) {
    if (typeof item !== 'string' || !COMPONENT_NAME_PATTERN.test(item)) {
      throw new RemotesConfigError(
        `${where}: "${field}" holds ${quotedValue(item)}, which is not a component name (${COMPONENT_NAME_PATTERN}).`,
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
      `${where}: "formComponents" must be a subset of "components"; not in components: ${shortened(missing.join(', '))}.`,
    );
  }
}

/**
 * The content of a remote's `slots-remote.json` (built here, or read from its origin), checked: a name, components,
 * form components among them, and `devEvents` when the kit's development server wrote one.
 */
export function parseRemoteDescriptorFile(raw: unknown, where: string): RemoteDescriptorFile {
  if (!isPlainObject(raw)) {
    throw new RemotesConfigError(`${where} must hold an object { name, components, formComponents }.`);
  }
  const name = checkRemoteName(raw.name, where);
  const components = checkComponentList(raw.components, 'components', where);
  const formComponents = checkComponentList(raw.formComponents ?? [], 'formComponents', where);
  checkFormComponents(formComponents, components, where);
  const descriptor: RemoteDescriptorFile = { name, components, formComponents };
  if (raw.props !== undefined) descriptor.props = checkPropsSchemas(raw.props, components, where);
  if (typeof raw.devEvents === 'string') descriptor.devEvents = raw.devEvents;
  if (raw.kit !== undefined) descriptor.kit = checkKitVersion(raw.kit, where);
  return descriptor;
}

/** `"kit"`: the version of the remote kit that wrote the file, shown with each release made of it. */
function checkKitVersion(value: unknown, where: string): string {
  if (typeof value !== 'string' || !KIT_VERSION_PATTERN.test(value)) {
    throw new RemotesConfigError(
      `${where}: "kit" must be the version of the remote kit that built it, like "0.8.1", not ${quotedValue(value)}.`,
    );
  }
  return value;
}

/** `"props"`: component -> JSON Schema (an object), for components the descriptor lists. */
function checkPropsSchemas(value: unknown, components: readonly string[], where: string): Record<string, JsonSchema> {
  if (!isPlainObject(value)) {
    throw new RemotesConfigError(`${where}: "props" must map component names to JSON Schemas.`);
  }
  const schemas: Record<string, JsonSchema> = {};
  for (const [component, schema] of Object.entries(value)) {
    if (!components.includes(component)) {
      throw new RemotesConfigError(
        `${where}: "props" has a schema for ${quotedValue(component)}, which is not in components.`,
      );
    }
    if (!isPlainObject(schema)) {
      throw new RemotesConfigError(`${where}: "props"."${component}" must be a JSON Schema object.`);
    }
    // A team's file: deeper schemas overflowed the stack of the code that stores and checks them.
    if (nestsDeeperThan(schema)) {
      throw new RemotesConfigError(
        `${where}: "props"."${component}" nests more than ${JSON_DEPTH_MAX} arrays and objects deep; ` +
          'a props schema needs a few levels per level of its props.',
      );
    }
    schemas[component] = schema as JsonSchema;
  }
  return schemas;
}
