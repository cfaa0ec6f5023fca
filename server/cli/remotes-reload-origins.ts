import type { JsonSchema, RemoteRelease } from '../../shared';
import type { DescriptorSource } from '../remotes/descriptor-source';
import type { PendingRemote } from '../remotes/remotes-config';

/** A remote declared by entry alone as its origin answered here: what a host would check the file's slots against. */
export interface AnsweredRemote {
  name: string;
  entry: string;
  components: readonly string[];
  formComponents: readonly string[];
  props: Readonly<Record<string, JsonSchema>>;
}

/** What `npm run remotes:reload` read of the file's remotes declared by entry alone. */
export interface EntryRemotesRead {
  /** Those whose descriptor a host would check the file with, as their origins answered here. */
  answered: AnsweredRemote[];
  /** One line per remote left unchecked here, and why (its origin not reached, a development server, a clash). */
  unchecked: string[];
}

/**
 * Reads, as a host reads it (its `slots-remote.json`, beside the manifest, by the same source), the descriptor of each
 * remote `pending` declares by entry alone that a host would check the file with what its origin answers: every one
 * without a release in force, and one whose entry no release of it has yet (a host reads that new entry, and serves it
 * as the release in force once the file is taken). A remote whose release in force a host keeps is the releases'.
 *
 * What cannot be checked soundly is said, never refused: an origin that does not answer here (a host takes the file
 * and leaves the remote's slots out until it answers; this machine may not reach what the hosts reach), a kit's
 * development server (no release: a host checks it as it answers), and a descriptor claiming a component another
 * remote serves (a host takes the file and does not serve that remote, logging why).
 */
export async function readEntryRemotes(
  pending: readonly PendingRemote[],
  stored: readonly RemoteRelease[],
  inForce: readonly RemoteRelease[],
  served: ReadonlyArray<{ name: string; components: readonly string[] }>,
  source: DescriptorSource,
): Promise<EntryRemotesRead> {
  const toRead = pending.filter(
    ({ name, entry }) =>
      !inForce.some((release) => release.remote === name) ||
      !stored.some((release) => release.remote === name && release.entry === entry),
  );
  const outcomes = await Promise.all(toRead.map((remote) => source.read(remote)));
  const answered: AnsweredRemote[] = [];
  const unchecked: string[] = [];
  const owners = new Map<string, string>();
  for (const { name, components } of served) for (const component of components) owners.set(component, name);
  for (const [index, remote] of toRead.entries()) {
    const outcome = outcomes[index]!;
    const { name } = remote;
    const release = inForce.find((candidate) => candidate.remote === name);
    if (outcome.status !== 'ready') {
      unchecked.push(
        `Remote "${name}" (declared by entry alone) could not be read here: ${outcome.reason}. Its slots are not ` +
          'checked here; a host that cannot read it either takes the file and leaves them out until it answers.',
      );
      continue;
    }
    if (outcome.developmentServer) {
      unchecked.push(
        `Remote "${name}" answered as a development server (slots-remote dev), which is never made a release: ` +
          (release === undefined
            ? 'its slots are not checked here; each host checks them as the server answers it.'
            : `release "${release.version}", in force, is what the hosts check its slots against.`),
      );
      continue;
    }
    const { components, formComponents } = outcome.descriptor;
    const clash = [...components, ...formComponents].find((component) => {
      const owner = owners.get(component);
      return owner !== undefined && owner !== name;
    });
    if (clash !== undefined) {
      unchecked.push(
        `Remote "${name}" answered, but its component "${clash}" is already provided by "${owners.get(clash)}": ` +
          'the hosts take the file without serving it (each logs why)' +
          (release === undefined ? '' : `, release "${release.version}" staying in force`) +
          '; its slots are not checked here.',
      );
      continue;
    }
    for (const component of [...components, ...formComponents]) owners.set(component, name);
    answered.push({ name, entry: remote.entry, components, formComponents, props: outcome.props });
  }
  return { answered, unchecked };
}
