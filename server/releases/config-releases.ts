// REMOTES_CONFIG's entries as releases, one flow kept together: read from their origins and checked as a team's
// publish is (files, dev servers, clashes), taken (published and activated unless a later decision stands), and asked
// again while their origins do not answer (ConfigReleaseImports).
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { CONFIG_RELEASE_PREFIX, type RemoteRelease } from '../../shared';
import { childContextOf } from '../observability/trace-context';
import type { DescriptorSource } from '../remotes/descriptor-source';
import type { PendingRemote } from '../remotes/remotes-config';
import type { ReleaseFilesCheck } from './release-files-check';
import type { ReleaseSnapshot } from './release-snapshot';
import type { NewRelease, ReleaseStore } from './release-store';

/**
 * Who publishes and activates the releases REMOTES_CONFIG declares: the audit and a release's `publishedBy` name the
 * file, so an operator reading `config-<hash>` among the releases knows where it came from.
 */
export const CONFIG_ACTOR = 'REMOTES_CONFIG';

/** Thrown inside the rollout's transaction when the release is already in force: nothing to write, nothing to audit. */
class AlreadyInForce extends Error {}

/** Thrown inside the rollout's transaction when another release was activated since the entry was read. */
class Superseded extends Error {
  constructor(readonly active: string | null) {
    super(`release "${active}" was activated since`);
  }
}

export interface ConfigReleaseParts {
  store: ReleaseStore;
  snapshot: ReleaseSnapshot;
  source: DescriptorSource;
  /** The manifest and entry script, asked as a team's publish asks them. */
  files: ReleaseFilesCheck;
  /**
   * The components of a release another remote provides now, one line each (release-clashes.ts): a team's publish
   * and an activation are refused for them, and so is an entry of the file.
   */
  clashes: (release: Pick<RemoteRelease, 'remote' | 'components'>) => string[];
  logger: Logger;
}

/**
 * REMOTES_CONFIG's kit-built remotes (declared by entry) as releases, on start and on reload (GitOps). An entry
 * that some release of that remote already has is left alone, without asking its origin: the file did not change
 * it, and what an operator activated since stays in force. A new entry (a remote added to the file, or its entry
 * changed) is read from its origin once, published as `config-<hash of entry and descriptor>` by `REMOTES_CONFIG`
 * and activated (unless another host importing the same entry at once activated it first: no second, no-op entry in
 * the audit): a change of the file wins, an unchanged file never undoes an operator's rollout. An origin that does
 * not answer is returned, for ConfigReleaseImports to ask again (the release in force, if any, stays meanwhile); a
 * kit's development server (`slots-remote dev`) is left to the remote registry, which keeps it live. An entry whose
 * manifest or entry script does not load is refused as a team's publish is, with an error in the log: the release in
 * force, if any, stays (activated, it would fail every slot of the remote); the next reload asks again.
 * @returns the entries whose origin did not answer
 */
export async function importConfigReleases(
  pending: readonly PendingRemote[],
  parts: ConfigReleaseParts,
): Promise<PendingRemote[]> {
  const read = await readConfigReleases(pending, parts);
  await takeConfigReleases(read, parts);
  return read.unanswered;
}

/** What a new REMOTES_CONFIG entry would be published as: read, not written yet. */
export type ConfigRelease = NewRelease;

/** REMOTES_CONFIG's new entries read: the releases they make, and those whose origin did not answer. */
export interface ConfigReleasesRead {
  releases: ConfigRelease[];
  unanswered: PendingRemote[];
  /** The release in force of each remote read (null: none), when it was read: a later activation wins over it. */
  activeWhenRead: ReadonlyMap<string, string | null>;
}

/**
 * The releases REMOTES_CONFIG's new entries make (importConfigReleases), read from their origins and checked, with
 * nothing written: a start serves them for its slot check before any host is told (ReleasesModule).
 */
export async function readConfigReleases(
  pending: readonly PendingRemote[],
  parts: ConfigReleaseParts,
): Promise<ConfigReleasesRead> {
  const { snapshot, logger } = parts;
  const releases: ConfigRelease[] = [];
  const unanswered: PendingRemote[] = [];
  const activeWhenRead = new Map<string, string | null>();
  /** The components of the entries made releases so far in this read: two new entries may claim one name. */
  const claimed = new Map<string, string>();
  for (const remote of pending) {
    const known = snapshot
      .releases()
      .some((release) => release.remote === remote.name && release.entry === remote.entry);
    if (known) continue;
    // Before the origin is asked (the slow part): a release activated while it answers is a later decision.
    const wasActive = snapshot.rollout(remote.name)?.active ?? null;
    // One trace for the remote's import (descriptor, manifest, entry script), named in its log lines.
    const trace = childContextOf(null);
    const outcome = await parts.source.read(remote, trace);
    if (outcome.status !== 'ready') {
      unanswered.push(remote);
      continue;
    }
    // A kit's development server (its descriptor announces rebuilds) is live, not a release: a stored descriptor
    // would freeze the components it adds and drop the page reloads it announces. The registry reads it as before.
    if (outcome.developmentServer) {
      // Being no release, it cannot win over one in force: said, or a team pointing a product at its dev server sees
      // its old release and no reason.
      const active = snapshot.rollout(remote.name)?.active ?? null;
      if (active !== null) {
        logger.warn(
          { remote: remote.name, entry: remote.entry, release: active },
          `REMOTES_CONFIG's entry of remote "${remote.name}" (${remote.entry}) is a development server ` +
            `(slots-remote dev), which is never made a release: release "${active}", in force, is served instead. ` +
            `To work against the development server, take the release away (POST /api/remotes/${remote.name}/` +
            'deactivate), and activate a release again when done.',
        );
      }
      continue;
    }
    const { components, formComponents = [] } = outcome.descriptor;
    const missing = await parts.files.problem(remote.name, remote.entry, trace, [...components, ...formComponents]);
    if (missing !== null) {
      const active = snapshot.rollout(remote.name)?.active ?? null;
      logger.error(
        { remote: remote.name, entry: remote.entry, trace_id: trace.traceId },
        `REMOTES_CONFIG's entry of remote "${remote.name}" is not made a release: ${missing}. ` +
          (active === null ? 'The entry is served as configured' : `Release "${active}" stays in force`) +
          '; fix the files or the entry, then reload (npm run remotes:reload).',
      );
      continue;
    }
    // One component name, one remote, as for a team's publish: activated, the entry would take the name from the
    // remote serving it (whose pages would load the other's code), and that remote's next release would be refused.
    const own = [...components, ...formComponents];
    const clashes = [
      ...parts.clashes({ remote: remote.name, components: own }),
      ...own.flatMap((component) => {
        const other = claimed.get(component);
        return other === undefined || other === remote.name
          ? []
          : [`component "${component}" is already provided by "${other}" (declared before it in the file)`];
      }),
    ];
    if (clashes.length > 0) {
      const active = snapshot.rollout(remote.name)?.active ?? null;
      logger.error(
        { remote: remote.name, entry: remote.entry, clashes },
        `REMOTES_CONFIG's entry of remote "${remote.name}" is not made a release: ${clashes.join('; ')}. A ` +
          'component name has one remote: rename the component in one of them (its remote.ts and its file), or ' +
          'take the other remote away. ' +
          (active === null ? 'The entry is not served' : `Release "${active}" stays in force`) +
          '; then reload (npm run remotes:reload).',
      );
      continue;
    }
    for (const component of own) claimed.set(component, remote.name);
    const props = { ...outcome.props };
    const version = `${CONFIG_RELEASE_PREFIX}${createHash('sha256')
      .update(JSON.stringify([remote.entry, components, formComponents, props]))
      .digest('hex')
      .slice(0, 12)}`;
    activeWhenRead.set(remote.name, wasActive);
    releases.push({
      remote: remote.name,
      version,
      entry: remote.entry,
      components,
      formComponents,
      props,
      ...(outcome.kit === undefined ? {} : { kit: outcome.kit }),
      publishedBy: CONFIG_ACTOR,
    });
  }
  return { releases, unanswered, activeWhenRead };
}

/**
 * Publishes (unless published already) and activates each release readConfigReleases made, for every host, unless
 * another release was made the one in force since it was read (a reload, a team's or an operator's activation,
 * another host's start while this one checked its slots): the later decision stands, and the log says so.
 */
export async function takeConfigReleases(
  { releases, activeWhenRead }: Pick<ConfigReleasesRead, 'releases' | 'activeWhenRead'>,
  parts: ConfigReleaseParts,
): Promise<void> {
  const { store, snapshot, logger } = parts;
  for (const release of releases) {
    const { remote, version, components } = release;
    const was = activeWhenRead.get(remote) ?? null;
    const superseded = (active: string | null) => {
      logger.info(
        { remote, entry: release.entry, active },
        `REMOTES_CONFIG's entry of remote "${remote}" (${release.entry}) is not made a release: release ` +
          `"${active}" was activated since it was read, and stays in force.`,
      );
    };
    const now = (await store.rollout(remote)).active;
    if (now !== was && now !== version) {
      superseded(now);
      continue;
    }
    const published = await store.release(remote, version);
    if (published === undefined) await store.publish(release);
    else if (published.publishedBy !== CONFIG_ACTOR || published.entry !== release.entry) {
      // Only a version taken before publishes were refused the prefix (releaseVersionProblem): never made the one
      // in force by the file, since its files are not the entry's.
      logger.error(
        { remote, entry: release.entry, version, publishedBy: published.publishedBy },
        `REMOTES_CONFIG's entry of remote "${remote}" (${release.entry}) is not made a release: its version ` +
          `"${version}" was published by ${published.publishedBy} at ${published.entry}, not by ${CONFIG_ACTOR}. ` +
          (now === null ? 'The entry is served as configured' : `Release "${now}" stays in force`) +
          '; publish the entry as a release of its own and activate it on the releases page.',
      );
      continue;
    }
    try {
      // Decided on the rollout read in the transaction: two hosts importing the same entry at once both get here,
      // and the second finds it in force already.
      await store.changeRollout({
        remote,
        action: 'activate',
        actor: CONFIG_ACTOR,
        next: (before) => {
          if (before.active === version && before.canary?.version !== version) throw new AlreadyInForce();
          if (before.active !== was && before.active !== version) throw new Superseded(before.active);
          return { active: version, canary: before.canary?.version === version ? null : before.canary };
        },
      });
    } catch (error) {
      if (error instanceof Superseded) superseded(error.active);
      else if (!(error instanceof AlreadyInForce)) throw error;
      continue;
    }
    logger.info(
      { remote, components, version },
      // The remote registry logs the answer itself ("Remote … answered: n component(s)."): this line says only what
      // the import made of it, so one answer is not told twice.
      `REMOTES_CONFIG's entry of remote "${remote}" is now release "${version}", activated.`,
    );
  }
  if (releases.length > 0) await snapshot.refresh();
}

/**
 * The import of REMOTES_CONFIG's entries as releases (importConfigReleases), with the entries whose origin did not
 * answer asked again every interval until each answers (and becomes the release in force) or the next import, on a
 * reload, takes over: a changed entry whose origin was down at the reload would otherwise wait for another reload,
 * while the log said it was being asked. Every host asks; the first to read it publishes, the others find the release.
 */
export class ConfigReleaseImports {
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  /** The import running or last run: imports run one at a time, a reload's after a retry under way. */
  private last: Promise<void> = Promise.resolve();

  constructor(
    private readonly parts: ConfigReleaseParts,
    private readonly intervalMs: number,
    /** The entries the configuration in use declares: a retry asks only those still there, unchanged. */
    private readonly declared: () => readonly PendingRemote[],
  ) {}

  /** Imports `pending`'s new entries, after any import under way; those not answering are asked again later. */
  run(pending: readonly PendingRemote[]): Promise<void> {
    return this.inTurn(async () => this.askAgain(await importConfigReleases(pending, this.parts)));
  }

  /**
   * The start's import, first step: the new entries read, nothing written (the host serves them for its slot check).
   * `take` writes them once the check passed, so a start that fails changes no host's releases.
   */
  read(pending: readonly PendingRemote[]): Promise<ConfigReleasesRead> {
    return readConfigReleases(pending, this.parts);
  }

  /** The start's import, second step: what `read` found published and activated; those not answering asked again. */
  take({ releases, unanswered, activeWhenRead }: ConfigReleasesRead): Promise<void> {
    return this.inTurn(async () => {
      await takeConfigReleases({ releases, activeWhenRead }, this.parts);
      this.askAgain(unanswered);
    });
  }

  private inTurn(work: () => Promise<void>): Promise<void> {
    const next = this.last.then(async () => {
      this.cancel();
      await work();
    });
    this.last = next.catch(() => undefined);
    return next;
  }

  close(): void {
    this.closed = true;
    this.cancel();
  }

  private askAgain(unanswered: readonly PendingRemote[]): void {
    if (this.closed || unanswered.length === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      // A reload since may have changed or dropped an entry: what the file says now is what is asked.
      const still = this.declared().filter((remote) =>
        unanswered.some((asked) => asked.name === remote.name && asked.entry === remote.entry),
      );
      this.run(still).catch((error: unknown) => {
        // A database that does not answer, or another host publishing the same entry at once: asked at the next run.
        this.parts.logger.warn({ err: error }, "REMOTES_CONFIG's entries could not be made releases; asked again");
        this.askAgain(still);
      });
    }, this.intervalMs);
    this.timer.unref();
  }

  private cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
