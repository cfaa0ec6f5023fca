/** A remote as the ownership rule sees it: `release`, the version in force that gives its components, if any. */
export interface ComponentOwner {
  name: string;
  components: readonly string[];
  release?: string;
}

/**
 * The first component two of `remotes` provide, said as a start refuses it, or null. A remote served by its release
 * in force is named with it: its components are the release's (read from its origin when it was published), which
 * the file does not show, so the operator is told where the other claim comes from.
 */
export function componentOwnershipProblem(
  remotes: readonly ComponentOwner[],
  configFile: string | null,
): string | null {
  const owners = new Map<string, ComponentOwner>();
  const named = ({ name, release }: ComponentOwner) =>
    release === undefined ? `"${name}"` : `"${name}" (its release ${release}, in force)`;
  for (const remote of remotes) {
    for (const component of remote.components) {
      const owner = owners.get(component);
      if (owner !== undefined) {
        return (
          `Component "${component}" is provided by both ${named(owner)} and ${named(remote)}` +
          `${configFile ? ` (REMOTES_CONFIG ${configFile})` : ''}; a component name must belong to one remote.`
        );
      }
      owners.set(component, remote);
    }
  }
  return null;
}
