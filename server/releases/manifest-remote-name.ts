import { quotedValue } from '../http/quoted-value';

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * Why the federation manifest at `manifestUrl` is not the build of `remote`, or null when it is: its `name`, and its
 * `metaData.globalName` when it has one, must be the remote's name. The host registers the remote by that name, and
 * the federation runtime takes the container its entry script defines from the global the manifest names: a manifest
 * naming another remote (copied, or edited by hand) makes every page fail to load the container ("Failed to get
 * remoteEntry exports", RUNTIME-001), or find that other remote's. A build made with the kit writes the remote's name
 * in both (webpack's federation `name`); the values found are quoted cut short, as the manifest is the team's.
 */
export function manifestRemoteNameProblem(manifest: unknown, remote: string, manifestUrl: string): string | null {
  const { name } = record(manifest);
  const { globalName } = record(record(manifest).metaData);
  const wrong = [
    ...(name === remote ? [] : [name === undefined ? 'no "name"' : `"name" ${quotedValue(name)}`]),
    ...(globalName === undefined || globalName === remote ? [] : [`"metaData.globalName" ${quotedValue(globalName)}`]),
  ];
  if (wrong.length === 0) return null;
  return (
    `its mf-manifest.json at ${manifestUrl} is not the build of remote "${remote}": it has ${wrong.join(' and ')}, ` +
    `while pages load the remote's container by its name: none could load this one (the browser's "Failed to get ` +
    `remoteEntry exports"). Build the release with the remote's name, as the kit does, and publish its manifest ` +
    'unedited'
  );
}
