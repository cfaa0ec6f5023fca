import { EXPOSED_COMPONENT_PATTERN, REMOTE_NAME_PATTERN, type RemoteDescriptorFile } from '../../shared';

/**
 * Where a team declares its remote: the `remote.ts` of the remote's folder default-exports {@link defineRemote}'s
 * result, the content of its `slots-remote.json`. Everything else derives from it: webpack's `exposes`
 * (`./<Component>` -> `components/<Component>.tsx`, see ./webpack.ts), the `slots-remote.json` written beside
 * `mf-manifest.json`, and through that file the server's `GET /api/remotes`. So a component is listed once, by the
 * team that owns it.
 */

/** A remote's descriptor as {@link defineRemote} returns it: checked and frozen. */
export type RemoteDeclaration = Readonly<RemoteDescriptorFile>;

export class InvalidRemoteDescriptorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidRemoteDescriptorError';
  }
}

/** Validates and freezes a remote's descriptor, so a typo fails the build with a message naming the remote. */
export function defineRemote(descriptor: RemoteDescriptorFile): RemoteDeclaration {
  const problems = findDescriptorProblems(descriptor);
  if (problems.length > 0) {
    throw new InvalidRemoteDescriptorError(
      `Remote descriptor ${JSON.stringify(descriptor.name)} is invalid: ${problems.join('; ')}.`,
    );
  }
  return Object.freeze({
    name: descriptor.name,
    components: Object.freeze([...descriptor.components]) as string[],
    formComponents: Object.freeze([...descriptor.formComponents]) as string[],
  });
}

export function findDescriptorProblems(descriptor: RemoteDescriptorFile): string[] {
  const problems: string[] = [];
  if (!REMOTE_NAME_PATTERN.test(descriptor.name)) {
    problems.push(`name must match ${REMOTE_NAME_PATTERN}`);
  }
  if (descriptor.components.length === 0) problems.push('it declares no component');
  const seen = new Set<string>();
  for (const component of descriptor.components) {
    if (!EXPOSED_COMPONENT_PATTERN.test(component)) {
      problems.push(`component ${JSON.stringify(component)} must match ${EXPOSED_COMPONENT_PATTERN}`);
    }
    if (seen.has(component)) problems.push(`component ${JSON.stringify(component)} is listed twice`);
    seen.add(component);
  }
  for (const formComponent of descriptor.formComponents) {
    if (!seen.has(formComponent)) {
      problems.push(`form component ${JSON.stringify(formComponent)} is not in components`);
    }
  }
  return problems;
}
