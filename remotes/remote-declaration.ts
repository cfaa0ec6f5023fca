import { EXPOSED_COMPONENT_PATTERN, REMOTE_NAME_PATTERN, type RemoteDescriptorFile } from '../shared';

/**
 * What a team declares about its remote, in one file per remote folder (`remotes/<folder>/remote.ts`). Everything
 * else derives from it: webpack's `exposes` (`./<Component>` -> `components/<Component>.tsx`), the
 * `slots-remote.json` descriptor written beside `mf-manifest.json`, and through that descriptor the server's
 * `GET /api/remotes`. So a component is listed once, by the team that owns it.
 */
export type RemoteDeclaration = Readonly<RemoteDescriptorFile>;


export class InvalidRemoteDeclarationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidRemoteDeclarationError';
  }
}

/** Validates and freezes a declaration, so a typo fails the build with a message naming the remote. */
export function defineRemote(declaration: RemoteDescriptorFile): RemoteDeclaration {
  const problems = findDeclarationProblems(declaration);
  if (problems.length > 0) {
    throw new InvalidRemoteDeclarationError(
      `Remote declaration ${JSON.stringify(declaration.name)} is invalid: ${problems.join('; ')}.`,
    );
  }
  return Object.freeze({
    name: declaration.name,
    components: Object.freeze([...declaration.components]) as string[],
    formComponents: Object.freeze([...declaration.formComponents]) as string[],
  });
}

export function findDeclarationProblems(declaration: RemoteDescriptorFile): string[] {
  const problems: string[] = [];
  if (!REMOTE_NAME_PATTERN.test(declaration.name)) {
    problems.push(`name must match ${REMOTE_NAME_PATTERN}`);
  }
  if (declaration.components.length === 0) problems.push('it declares no component');
  const seen = new Set<string>();
  for (const component of declaration.components) {
    if (!EXPOSED_COMPONENT_PATTERN.test(component)) {
      problems.push(`component ${JSON.stringify(component)} must match ${EXPOSED_COMPONENT_PATTERN}`);
    }
    if (seen.has(component)) problems.push(`component ${JSON.stringify(component)} is listed twice`);
    seen.add(component);
  }
  for (const formComponent of declaration.formComponents) {
    if (!seen.has(formComponent)) {
      problems.push(`form component ${JSON.stringify(formComponent)} is not in components`);
    }
  }
  return problems;
}

/** The webpack `exposes` of a remote: `./<Component>` -> `<folder>/components/<Component>.tsx`. */
export function exposesOf(declaration: RemoteDeclaration, folder: string): Record<string, string> {
  const exposes: Record<string, string> = {};
  for (const component of declaration.components) {
    exposes[`./${component}`] = `${folder}/components/${component}.tsx`;
  }
  return exposes;
}
