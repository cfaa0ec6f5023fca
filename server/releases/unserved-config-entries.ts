import type { Logger } from 'pino';
import type { RemoteRelease } from '../../shared';
import { builtRemoteEntry } from '../remotes/built-remotes';
import type { RemotesConfig } from '../remotes/remotes-config';

/** An entry REMOTES_CONFIG gives a remote that is not served, and the release in force that is served instead. */
export interface UnservedConfigEntry {
  remote: string;
  entry: string;
  release: string;
}

/**
 * The entries REMOTES_CONFIG gives built-in remotes (in place of the build's) and listed ones (with their components)
 * that a release in force keeps from being served. Unlike a kit-built remote's entry declared alone, which becomes a
 * release when it changes (config-releases.ts), such an entry is no release: the active one wins over it, as
 * documented, and changing it would change nothing the pages load.
 */
export function unservedConfigEntries(config: RemotesConfig, active: readonly RemoteRelease[]): UnservedConfigEntry[] {
  const released = new Map(active.map((release) => [release.remote, release]));
  return config.remotes.flatMap(({ name, entry }) => {
    const release = released.get(name);
    // A built-in remote the file leaves alone has the build's entry: a release in force is its usual state.
    if (release === undefined || release.entry === entry || entry === builtRemoteEntry(name)) return [];
    return [{ remote: name, entry, release: release.version }];
  });
}

/**
 * Warns of each unserved entry once per change (of the entry, or of the release in force), however often it is asked:
 * at the start, on a reload, whenever the remotes served change. An entry served again, then kept out again, is
 * warned of again.
 */
export function unservedEntriesWarner(
  logger: Logger,
): (config: RemotesConfig, active: readonly RemoteRelease[]) => void {
  /** Remote -> the entry and release last warned of. */
  const warned = new Map<string, string>();
  return (config, active) => {
    const unserved = unservedConfigEntries(config, active);
    const names = new Set(unserved.map(({ remote }) => remote));
    for (const remote of warned.keys()) if (!names.has(remote)) warned.delete(remote);
    for (const { remote, entry, release } of unserved) {
      const said = `${entry} ${release}`;
      if (warned.get(remote) === said) continue;
      warned.set(remote, said);
      logger.warn(
        { remote, entry, release },
        `REMOTES_CONFIG's entry of remote "${remote}" (${entry}) is not served: release "${release}" is in force, ` +
          'and a release wins over the entry the file gives a built-in or listed remote. To serve the entry, take ' +
          `the release away (POST /api/remotes/${remote}/deactivate), or publish the entry as a release and ` +
          'activate it.',
      );
    }
  };
}
