import type { Logger } from 'pino';
import { SlotContractError, type SlotProblem } from '../slots/slot-contract';
import type { RemoteRegistry } from './remote-registry';
import { loadRemotesConfig, type LoadRemotesConfigOptions, type RemotesConfig } from './remotes-config';
import { RemotesConfigError } from '../config/remotes-config-error';

export interface RemotesConfigReloadOptions {
  /** Where REMOTES_CONFIG and the built-in remotes are read from, as at start-up. */
  load: LoadRemotesConfigOptions;
  remoteRegistry: RemoteRegistry;
  /** The slot check against a configuration being considered. */
  checkSlots: (config: RemotesConfig) => SlotProblem[];
  logger: Logger;
  /**
   * The configuration in force made of the file's: the file with the database's placements
   * (placements/placements-service.ts). The file's alone by default.
   */
  inForce?: (file: RemotesConfig) => RemotesConfig;
  /** Told the file's configuration when it is taken. */
  onTaken?: (file: RemotesConfig) => void;
  /**
   * Before the check: what the file would change beyond itself is read (its changed entries, which become releases
   * once it is taken), for the check to judge the file with them.
   */
  consider?: (file: RemotesConfig) => Promise<void>;
}

/**
 * The line a host logs when it keeps its configuration: `npm run remotes:reload` prints the same one for a file it
 * refuses before asking the hosts, so the operator reads there what the hosts' logs would have said.
 */
export function remotesConfigNotReloaded(problem: string): string {
  return `Remotes configuration not reloaded, the previous one stays in use: ${problem}`;
}

/**
 * Re-reads REMOTES_CONFIG (on SIGHUP): remotes, their slots and the allowed origins change for the next request,
 * sessions and requests in flight are untouched. An invalid file, or one that would leave a slot unable to render,
 * keeps the configuration in use and logs why.
 * @returns whether the new configuration was taken
 */
export async function reloadRemotesConfig(options: RemotesConfigReloadOptions): Promise<boolean> {
  const { logger, remoteRegistry } = options;
  let file;
  try {
    file = loadRemotesConfig(options.load);
  } catch (error) {
    if (!(error instanceof RemotesConfigError)) throw error;
    logger.error(remotesConfigNotReloaded(error.message));
    return false;
  }
  await options.consider?.(file);
  const config = options.inForce?.(file) ?? file;
  // One component, one remote, as a start refuses it in the file alone: here with what the origins gave (a release
  // in force), which the file does not show. Taken, the pages would load either remote's code for the component.
  const clash = remoteRegistry.componentClash(config);
  if (clash !== null) {
    logger.error(remotesConfigNotReloaded(clash));
    return false;
  }
  const blocking = options.checkSlots(config).filter((problem) => problem.blocking);
  if (blocking.length > 0) {
    logger.error(remotesConfigNotReloaded(new SlotContractError(blocking).message));
    return false;
  }
  options.onTaken?.(file);
  remoteRegistry.serveConsidered();
  await remoteRegistry.replace(config);
  logger.info(
    { remotes: remoteRegistry.remotes().map((remote) => remote.name), slots: config.slots.length },
    'Remotes configuration reloaded.',
  );
  return true;
}
