/*
 * Above 300 lines for one reason: publish, activate, canary, preview and roll back are one set of rules that every
 * caller (the API, REMOTES_CONFIG, the canary watch) goes through, each change checked against the same placements
 * and files; the checks themselves live in release-check.ts, release-files-check.ts and release-origin-refusal.ts.
 */
import {
  instantInUtc,
  releaseVersionProblem,
  type RemoteRelease,
  type RemoteRollout,
  type RolloutSeen,
} from '../../shared';
import type { Logger } from 'pino';
import type { DescriptorSource } from '../remotes/descriptor-source';
import type { ReleaseAddressGuard } from '../remotes/release-address-guard';
import type { RemoteRegistry } from '../remotes/remote-registry';
import { checkEntryUrl } from '../remotes/remote-entry-url';
import { descriptorUrlOf } from '../remotes/remotes-config';
import { releaseProblems, type ReleaseCheckSubjects } from './release-check';
import { logRequestedReleaseChange } from './release-change-log';
import { releaseClashes } from './release-clashes';
import { RELEASE_REFUSALS } from './release-refusals';
import type { ReleaseSnapshot } from './release-snapshot';
import type { TenantStore } from '../tenants/tenant-store';
import { ReleaseExistsError, type ReleaseStore, type RolloutChange, type RolloutChanged } from './release-store';
import { ReleaseFilesCheck } from './release-files-check';
import { releaseFilesVerdict } from './release-files-refusal';
import { notDeployedStep } from './release-not-deployed';
import { releaseOriginRefusal } from './release-origin-refusal';
import type { TraceContext } from '../observability/trace-context';
import { isCanaryEndedAsSeen, rolloutIsAsSeen, rolloutMovedMessage } from './rollout-seen';

/** Who an automatic rollback is audited as. */
export const AUTO_ROLLBACK_ACTOR = 'auto-rollback';

/** A change refused: `problems` lists the clashes and the placements it would break (empty for other refusals). */
export class ReleaseRefusedError extends Error {
  constructor(
    message: string,
    readonly problems: string[] = [],
    readonly status: 400 | 404 | 409 = 400,
    /** The request's fields at fault, each with why (the error body's `fields`): a form marks them. */
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ReleaseRefusedError';
  }
}

/** How many existing tenants a canary refused for an unknown one names. */
const TENANTS_NAMED = 10;

export interface ReleaseServiceParts extends ReleaseCheckSubjects {
  store: ReleaseStore;
  snapshot: ReleaseSnapshot;
  /** Where a published entry's descriptor file is read (over HTTP from the remote's origin). */
  source: DescriptorSource;
  /** Production: a plain-http entry must be on a loopback host (as in REMOTES_CONFIG). */
  production: boolean;
  /** The tenants there are: a canary names only those (a typo would give the canary to nobody, silently). */
  tenants: Pick<TenantStore, 'list'>;
  /** Checks that a published release's manifest and entry script answer (default: with the descriptor's timeout). */
  files?: ReleaseFilesCheck;
  /** Refuses an entry on an internal address for a remote without `"releaseOrigins"` (release-address-guard.ts). */
  addresses?: Pick<ReleaseAddressGuard, 'refusal'>;
  /** Where the changes asked of the service are logged (release-change-log.ts); the audit trail records them too. */
  logger: Pick<Logger, 'info'>;
}

/**
 * Publishing and rolling out releases: the rules every caller (the API, REMOTES_CONFIG) goes through. A release
 * is checked against every current placement when published and again when it is put in force (placements may
 * have changed meanwhile); every change is audited by the store and seen by this host at once (the snapshot is
 * read again), by the others at their next poll.
 */
export class ReleaseService {
  private readonly files: ReleaseFilesCheck;

  constructor(private readonly parts: ReleaseServiceParts) {
    this.files = parts.files ?? new ReleaseFilesCheck();
  }

  /**
   * `trace`: the publishing request's, continued by the request for the release's descriptor. A version published
   * already at the same entry is answered as it is (`created` false: a retry after a lost answer, from CI say); at
   * another entry it is refused with 409, releases being immutable.
   */
  async publish(
    remote: string,
    version: unknown,
    entry: unknown,
    publishedBy: string,
    trace?: TraceContext,
  ): Promise<{ release: RemoteRelease; created: boolean }> {
    this.refuseUndeclaredRemote(remote);
    if (typeof version !== 'string') {
      const given = version === undefined ? 'none was given' : `got ${JSON.stringify(version)}`;
      throw new ReleaseRefusedError(`"version" must be the release's version, a string, ${given}.`);
    }
    const versionProblem = releaseVersionProblem(version);
    if (versionProblem !== null) {
      throw new ReleaseRefusedError(`"version" ${JSON.stringify(version)} cannot be published: ${versionProblem}.`);
    }
    if (typeof entry !== 'string') throw new ReleaseRefusedError('"entry" must be the URL of the mf-manifest.json.');
    let url: URL;
    try {
      url = new URL(entry);
    } catch {
      throw new ReleaseRefusedError(`"entry" must be an absolute URL, got ${JSON.stringify(entry)}.`);
    }
    const refused = checkEntryUrl(url, this.parts.production);
    if (refused) throw new ReleaseRefusedError(refused);
    // Before anything is asked: the entry names where the server's requests go (release-origin-refusal.ts).
    const notAllowed = releaseOriginRefusal(this.parts.remoteRegistry.config, remote, url);
    if (notAllowed) throw new ReleaseRefusedError(notAllowed);
    const internal = await this.parts.addresses?.refusal(remote, url);
    if (internal) throw new ReleaseRefusedError(internal);
    const descriptorUrl = descriptorUrlOf(url.href);
    if (descriptorUrl === null) throw new ReleaseRefusedError('"entry" must be the URL of an mf-manifest.json.');
    const existing = await this.parts.store.release(remote, version);
    if (existing?.entry === url.href) return { release: existing, created: false };
    if (existing) throw new ReleaseRefusedError(releaseExistsMessage(existing, url.href), [], 409);
    const outcome = await this.parts.source.read({ name: remote, entry: url.href, descriptorUrl }, trace);
    if (outcome.status !== 'ready') {
      const answer = outcome.answered === undefined ? undefined : { url: descriptorUrl, status: outcome.answered };
      throw new ReleaseRefusedError(
        withNextStep(`The release's descriptor cannot be read: ${outcome.reason}.`, notDeployedStep(answer)),
      );
    }
    // A kit's development server (its descriptor announces rebuilds) serves a remoteEntry.js that changes at every
    // save: a release must be files that never change under it, as a file's entry of one is never made a release.
    if (outcome.developmentServer) {
      throw new ReleaseRefusedError(
        `The entry is a development server (slots-remote dev): its files change at every save, so it is never made ` +
          'a release. Build the remote (npm run build), deploy its dist/ folder, and publish the entry deployed.',
        [],
        400,
        { entry: 'a development server, never a release' },
      );
    }
    // The descriptor alone says nothing of the files a page loads: a release without them fails every slot, as does
    // a component its manifest does not expose.
    const { components, formComponents = [] } = outcome.descriptor;
    const missing = await this.files.check(remote, url.href, trace, [...components, ...formComponents]);
    if (missing !== null) {
      throw new ReleaseRefusedError(
        withNextStep(`The release cannot be loaded: ${missing.message}.`, notDeployedStep(missing.errorAnswer)),
      );
    }
    const candidate = { remote, components, formComponents, props: { ...outcome.props } };
    this.refuseBreaking(candidate, `Release "${version}" of "${remote}"`);
    const kit = outcome.kit === undefined ? {} : { kit: outcome.kit };
    try {
      const release = await this.parts.store.publish({ ...candidate, ...kit, version, entry: url.href, publishedBy });
      await this.parts.snapshot.refresh();
      return { release, created: true };
    } catch (error) {
      // Published by another request meanwhile (the same retry sent twice at once): as above.
      if (!(error instanceof ReleaseExistsError)) throw error;
      const stored = await this.parts.store.release(remote, version);
      if (stored?.entry === url.href) return { release: stored, created: false };
      throw new ReleaseRefusedError(stored ? releaseExistsMessage(stored, url.href) : error.message, [], 409);
    }
  }

  /**
   * Puts `version` in force for everyone (ends a canary). A `rollback` is audited as one, so it must go back: to a
   * release published before the active one (the order of the releases everywhere, newest first). `trace`: the
   * operator's request's, continued by the requests for the release's files.
   */
  async activate(
    remote: string,
    version: unknown,
    actor: string,
    action: 'activate' | 'rollback',
    trace?: TraceContext,
    seen?: RolloutSeen,
  ): Promise<RemoteRollout> {
    const release = await this.publishedReleaseNow(remote, version);
    this.refuseOriginNotAllowed(release);
    this.refuseBreaking(release, `Release "${release.version}" of "${remote}"`);
    // Refused by the rollout now before its files are asked (a while, on a slow origin); again in the transaction.
    const now = await this.parts.store.rollout(remote);
    await this.refuseMovedSince(remote, seen, now);
    if (action === 'rollback') this.refuseForwardRollback(release, now);
    const reason = await this.filesReason(release, now, trace);
    return this.change(
      {
        remote,
        action,
        actor,
        reason,
        next: (before) => {
          // Again against the database: another host may have moved the rollout since this one's copy was read.
          refuseMoved(remote, seen, before);
          if (action === 'rollback') this.refuseForwardRollback(release, before);
          return { active: release.version, canary: null };
        },
      },
      seen,
    );
  }

  /**
   * Refuses a rollback that would not go back from `rollout` (to a newer release, to the active one with no canary
   * running, or from none): a false trail.
   */
  private refuseForwardRollback(release: RemoteRelease, rollout: RemoteRollout | undefined): void {
    const { remote, version } = release;
    const active = rollout?.active ?? null;
    // To the active release while a canary runs: the canary is what is rolled back (everyone back on it).
    if (version === active && rollout?.canary) return;
    if (active === null) {
      throw new ReleaseRefusedError(
        `Remote "${remote}" has no release in force to roll back from: use activate to put "${version}" in force.`,
      );
    }
    // Newest first, as published: the same order the operators' page lists them in (and offers a rollback by).
    const order = this.parts.snapshot
      .releases()
      .filter((each) => each.remote === remote)
      .map((each) => each.version);
    if (order.indexOf(version) <= order.indexOf(active)) {
      throw new ReleaseRefusedError(
        `Release "${version}" of "${remote}" is not earlier than the active release "${active}": a rollback goes ` +
          'back to a release published before it; use activate for a newer one.',
      );
    }
  }

  /**
   * Takes the release in force away (and a running canary): the remote's own build, the one the server was given
   * (REMOTES_CONFIG or built in), is served again, after the same check a release gets. Refused when there is no
   * release in force, or no own build to serve (a remote only releases serve, or whose origin does not answer).
   */
  async serveOwnBuild(remote: string, actor: string, seen?: RolloutSeen): Promise<RemoteRollout> {
    // The database, not this host's copy: a release activated on another host within the last poll is in force.
    const rollout = await this.parts.store.rollout(remote);
    await this.refuseMovedSince(remote, seen, rollout);
    if (!rollout.active) {
      this.refuseUnknownRemote(remote);
      throw new ReleaseRefusedError(`Remote "${remote}" has no release in force: its own build is served.`);
    }
    const own = await this.ownBuild(remote);
    this.refuseBreaking(
      {
        remote,
        components: [...own.components],
        formComponents: [...(own.formComponents ?? [])],
        props: { ...own.props },
      },
      `The own build of "${remote}"`,
    );
    return this.change(
      {
        remote,
        action: 'deactivate',
        actor,
        next: (before) => {
          refuseMoved(remote, seen, before);
          if (!before.active)
            throw new ReleaseRefusedError(`Remote "${remote}" has no release in force: its own build is served.`);
          return { active: null, canary: null };
        },
      },
      seen,
    );
  }

  /**
   * The contract of `remote`'s own build, asking its REMOTES_CONFIG entry first when what it answers is not known: a
   * remote served from a release is never asked otherwise (not after a restart either), so "unknown" is no "down".
   */
  private async ownBuild(remote: string): Promise<NonNullable<ReturnType<RemoteRegistry['ownBuildContract']>>> {
    const registry = this.parts.remoteRegistry;
    const known = registry.ownBuildContract(remote);
    if (known !== null) return known;
    const entry = registry.config.pending.find((pending) => pending.name === remote);
    if (entry === undefined) {
      throw new ReleaseRefusedError(
        `Remote "${remote}" has no build of its own on this server (REMOTES_CONFIG or built in): only a release can ` +
          'serve it. Activate another release instead.',
      );
    }
    // Kept by the registry as its own requests are: the inspector and /metrics show what this one came to.
    registry.record(entry, await this.parts.source.read(entry));
    const answered = registry.ownBuildContract(remote);
    if (answered !== null) return answered;
    const state = registry.stateOf(remote);
    const why = state.status === 'failing' ? `${state.failure}: ${state.reason}` : 'not answered';
    throw new ReleaseRefusedError(
      `The own build of "${remote}" (its REMOTES_CONFIG entry ${entry.entry}) does not answer (${why}): only a ` +
        'release can serve it now. Activate another release instead, or try again once it answers.',
    );
  }

  /**
   * Refuses a release of a remote the operators have not declared (REMOTES_CONFIG, disabled there included) and
   * this server does not build: publishing would otherwise add a remote, and its origin to every page's
   * Content-Security-Policy, that nobody declared. Releases are later versions of a remote the product knows.
   */
  private refuseUndeclaredRemote(remote: string): void {
    const { remotes, pending, disabled } = this.parts.remoteRegistry.config;
    if ([...remotes, ...pending, ...disabled].some((each) => each.name === remote)) return;
    throw new ReleaseRefusedError(
      `Remote "${remote}" is not declared on this server (neither in REMOTES_CONFIG nor built in): a release is a ` +
        "new version of a remote the product knows. Ask the operators to add the remote's REMOTES_CONFIG entry first.",
    );
  }

  /** Gives `version` to `percent` % of the users (sticky) and to every user of `tenants`. */
  async canary(
    remote: string,
    body: Record<string, unknown>,
    actor: string,
    trace?: TraceContext,
    seen?: RolloutSeen,
  ): Promise<RemoteRollout> {
    const release = await this.publishedReleaseNow(remote, body.version);
    const { percent } = body;
    const tenants = body.tenants ?? [];
    const refused = (message: string, ...fields: string[]): ReleaseRefusedError =>
      new ReleaseRefusedError(message, [], 400, Object.fromEntries(fields.map((field) => [field, message])));
    if (typeof percent !== 'number' || !Number.isInteger(percent) || percent < 0 || percent > 100) {
      throw refused('"percent" must be a whole number from 0 to 100.', 'percent');
    }
    if (!Array.isArray(tenants) || !tenants.every((tenant) => typeof tenant === 'string')) {
      throw refused('"tenants" must be a list of tenant ids.', 'tenants');
    }
    if (percent === 0 && tenants.length === 0) throw refused(RELEASE_REFUSALS.canaryOfNobody, 'percent', 'tenants');
    if (tenants.length > 0) {
      const known = (await this.parts.tenants.list()).map((tenant) => tenant.id);
      const unknown = (tenants as string[]).filter((tenant) => !known.includes(tenant));
      if (unknown.length > 0) {
        // The existing ones help spot a typo; a deployment with many tenants gets the first few and a count.
        const shown = known.slice(0, TENANTS_NAMED);
        const more = known.length > shown.length ? ` and ${known.length - shown.length} more` : '';
        throw refused(
          `No tenant ${unknown.map((tenant) => JSON.stringify(tenant)).join(', ')}; ` +
            `tenants: ${shown.join(', ') || 'none'}${more}.`,
          'tenants',
        );
      }
    }
    const canary = { version: release.version, percent, tenants: [...new Set(tenants as string[])] };
    this.refuseOriginNotAllowed(release);
    this.refuseBreaking(release, `Release "${release.version}" of "${remote}"`);
    const now = await this.parts.store.rollout(remote);
    await this.refuseMovedSince(remote, seen, now);
    this.refuseCanaryOf(release, now.active);
    const reason = await this.filesReason(release, now, trace);
    return this.change(
      {
        remote,
        action: 'canary',
        actor,
        reason,
        // The active release kept is the database's: another host may have activated one within the last poll.
        next: (before) => {
          refuseMoved(remote, seen, before);
          this.refuseCanaryOf(release, before.active);
          return { active: before.active, canary };
        },
      },
      seen,
    );
  }

  /**
   * Refuses putting `release` in force over `rollout` when its origin answers that its files do not load
   * (releaseFilesVerdict); resolves to the reason the audit trail records (files its origin left unconfirmed).
   */
  private async filesReason(
    release: RemoteRelease,
    rollout: RemoteRollout,
    trace: TraceContext | undefined,
  ): Promise<string | undefined> {
    const verdict = await releaseFilesVerdict(this.files, release, rollout, trace);
    if ('refused' in verdict) throw new ReleaseRefusedError(verdict.refused);
    return verdict.reason;
  }

  /**
   * The release a progressive rollout gives `version` of `remote` a canary of, checked as a canary is (placements,
   * clashes, origin, files, the rollout `seen`), with the reason its files leave unconfirmed. An unknown version is a
   * 400 here: a plan names what it rolls out in its body, as a publish does.
   */
  async rolloutCandidate(
    remote: string,
    version: unknown,
    trace?: TraceContext,
    seen?: RolloutSeen,
  ): Promise<{ release: RemoteRelease; reason: string | undefined }> {
    let release: RemoteRelease;
    try {
      release = await this.publishedReleaseNow(remote, version);
    } catch (error) {
      if (error instanceof ReleaseRefusedError && error.status === 404) throw new ReleaseRefusedError(error.message);
      throw error;
    }
    this.refuseOriginNotAllowed(release);
    this.refuseBreaking(release, `Release "${release.version}" of "${remote}"`);
    const now = await this.parts.store.rollout(remote);
    await this.refuseMovedSince(remote, seen, now);
    this.refuseCanaryOf(release, now.active);
    return { release, reason: await this.filesReason(release, now, trace) };
  }

  /**
   * Checks the release a rollout plan's promotion activates as an activation is checked (placements, clashes, origin,
   * files: everyone outside the canary loads it next); answers the reason its files were left unconfirmed, if they were.
   */
  async promotionFilesReason(remote: string, version: string, trace?: TraceContext): Promise<string | undefined> {
    const release = this.checkedRelease(remote, version);
    return this.filesReason(release, await this.parts.store.rollout(remote), trace);
  }

  /** Refuses a canary of `release` over `active`: with no release in force, or of the release in force itself. */
  refuseCanaryOf(release: RemoteRelease, active: string | null): void {
    const { remote } = release;
    if (active === null)
      throw new ReleaseRefusedError(`Remote "${remote}" has no active release yet: activate one first.`);
    if (release.version === active) {
      throw new ReleaseRefusedError(
        `Release "${active}" of "${remote}" is already active for everyone: a canary gives another release ` +
          'to some users.',
      );
    }
  }

  /**
   * Ends the running canary. With none running (never started, or ended meanwhile by an operator or the automatic
   * rollback) nothing changes and nothing is audited: the rollout as it is answers, as a repeated DELETE would.
   */
  async endCanary(remote: string, actor: string, seen?: RolloutSeen): Promise<RemoteRollout> {
    // The database, not the snapshot: another host may have started or ended the canary within the last second.
    const rollout = await this.parts.store.rollout(remote);
    if (await this.endedAlready(remote, seen, rollout, actor)) return rollout;
    await this.refuseMovedSince(remote, seen, rollout);
    if (!rollout.canary) {
      // Nothing to end: said so for a name this server knows nothing of (a typo), not answered as a remote of its own.
      if (!rollout.active) this.refuseUnknownRemote(remote);
      return rollout;
    }
    // Only while that canary still runs, checked in the transaction (see autoRollback): the active release cannot
    // have moved meanwhile, and a canary ended at the same moment by another host is not recorded twice.
    const changed = await this.parts.store.changeRollout({
      remote,
      action: 'canary-end',
      actor,
      next: { active: rollout.active, canary: null },
      onlyIfCanary: rollout.canary.version,
    });
    await this.parts.snapshot.refresh();
    if (changed !== null) {
      const { version } = rollout.canary;
      logRequestedReleaseChange(this.parts.logger, { actor, remote, action: 'canary-end', version });
      return changed.after;
    }
    // Ended or replaced by another host since it was read: the caller who named the canary it saw is told.
    const after = await this.parts.store.rollout(remote);
    if (await this.endedAlready(remote, seen, after, actor)) return after;
    await this.refuseMovedSince(remote, seen, after);
    return after;
  }

  /** Whether the canary `seen` names was ended by this same request, made already (isCanaryEndedAsSeen). */
  private async endedAlready(
    remote: string,
    seen: RolloutSeen | undefined,
    now: RemoteRollout,
    actor: string,
  ): Promise<boolean> {
    if (seen === undefined || rolloutIsAsSeen(now, seen)) return false;
    return isCanaryEndedAsSeen(seen, now, await this.parts.store.lastChangeOf(remote), actor);
  }

  /**
   * Runs `change`; a refusal in its transaction for a rollout moved since `seen` (by a change committed meanwhile,
   * whose audit entry the transaction does not read) is said again naming who moved it, as the check before it says.
   */
  async namingWhoMovedIt<T>(remote: string, seen: RolloutSeen | undefined, change: () => Promise<T>): Promise<T> {
    try {
      return await change();
    } catch (error) {
      if (!(error instanceof ReleaseRefusedError) || error.status !== 409 || seen === undefined) throw error;
      await this.refuseMovedSince(remote, seen, await this.parts.store.rollout(remote));
      throw error;
    }
  }

  /** Refuses (409) a change chosen on a rollout that has moved since, naming who moved it (rollout-seen.ts). */
  private async refuseMovedSince(remote: string, seen: RolloutSeen | undefined, now: RemoteRollout): Promise<void> {
    if (seen === undefined || rolloutIsAsSeen(now, seen)) return;
    throw new ReleaseRefusedError(
      rolloutMovedMessage(remote, seen, now, await this.parts.store.lastChangeOf(remote)),
      [],
      409,
    );
  }

  /**
   * Refuses (404) a name this server knows nothing of: no release, neither configured nor built in. For a remote
   * whose trail is empty, so a typo is not answered with an empty trail while a change of it is refused alike.
   */
  refuseUnknownRemote(remote: string): void {
    if (this.parts.snapshot.releases().some((release) => release.remote === remote)) return;
    const { remotes, pending, disabled } = this.parts.remoteRegistry.config;
    if ([...remotes, ...pending, ...disabled].some((each) => each.name === remote)) return;
    throw new ReleaseRefusedError(
      `Remote "${remote}" has no release, no history and no build on this server: is its name right?`,
      [],
      404,
    );
  }

  /**
   * Ends the canary of `version` because its slot loads fail more than the stable release's (canary-watch.ts),
   * audited as `canary-auto-rollback` with `reason`. Resolves to false when that canary no longer runs (ended by an
   * operator, or by another host that decided the same a moment before).
   */
  async autoRollback(remote: string, version: string, reason: string): Promise<boolean> {
    // The store changes nothing unless `version` is still the canary; the active release is the database's.
    const changed = await this.parts.store.changeRollout({
      remote,
      action: 'canary-auto-rollback',
      actor: AUTO_ROLLBACK_ACTOR,
      next: (rollout) => ({ active: rollout.active, canary: null }),
      reason,
      onlyIfCanary: version,
    });
    await this.parts.snapshot.refresh();
    return changed !== null;
  }

  /**
   * A published release of `remote` that claims no other remote's component and breaks no current placement (a
   * preview, a canary or an activation): another remote may have taken one of its components since it was published.
   */
  checkedRelease(remote: string, version: unknown): RemoteRelease {
    const release = this.publishedRelease(remote, version);
    this.refuseOriginNotAllowed(release);
    this.refuseBreaking(release, `Release "${release.version}" of "${remote}"`);
    return release;
  }

  /**
   * Refuses a release published before its remote's `releaseOrigins` left its origin out: put in force, its origin
   * would be asked every 30 s, which the list is there to prevent (release-origin-refusal.ts).
   */
  private refuseOriginNotAllowed(release: RemoteRelease): void {
    const refused = releaseOriginRefusal(this.parts.remoteRegistry.config, release.remote, new URL(release.entry));
    if (refused !== null) {
      throw new ReleaseRefusedError(
        `Release "${release.version}" of "${release.remote}" was published from an origin the operators allow no ` +
          `more: ${refused}`,
      );
    }
  }

  /** {@link publishedRelease}, this host's copy read again first when it lacks it (published on another host). */
  private async publishedReleaseNow(remote: string, version: unknown): Promise<RemoteRelease> {
    if (typeof version === 'string' && !this.parts.snapshot.release(remote, version))
      await this.parts.snapshot.refresh();
    return this.publishedRelease(remote, version);
  }

  /** The published release `version` of `remote`: 400 when `version` is no string, 404 when there is none. */
  private publishedRelease(remote: string, version: unknown): RemoteRelease {
    // Checked before the look-up: a missing version would otherwise read as `no release undefined`.
    if (typeof version !== 'string' || version === '') throw new ReleaseRefusedError(RELEASE_REFUSALS.versionRequired);
    const release = this.parts.snapshot.release(remote, version);
    if (!release) {
      const versions = this.parts.snapshot
        .releases()
        .filter((each) => each.remote === remote)
        .map((each) => each.version);
      throw new ReleaseRefusedError(
        versions.length === 0
          ? `Remote "${remote}" has no release at all: is its name right?`
          : `Remote "${remote}" has no release ${JSON.stringify(version)}; its releases: ${versions.join(', ')}.`,
        [],
        404,
      );
    }
    return release;
  }

  /** `seen`: the rollout the change was chosen on, which `next` checks again in the transaction. */
  private async change(change: RolloutChange, seen: RolloutSeen | undefined): Promise<RemoteRollout> {
    // Without `onlyIfCanary` (never given here) a change is always made. Its rollout is the one the store worked out
    // in the transaction: `next` runs its checks there, once.
    const changed = (await this.namingWhoMovedIt(change.remote, seen, () => this.parts.store.changeRollout(change)))!;
    await this.parts.snapshot.refresh();
    logChange(this.parts.logger, change, changed);
    return changed.after;
  }

  private refuseBreaking(release: Parameters<typeof releaseProblems>[1], what: string): void {
    const clashes = releaseClashes(this.parts.remoteRegistry, release);
    if (clashes.length > 0) {
      throw new ReleaseRefusedError(`${what} claims ${clashes.length} component(s) another remote provides.`, clashes);
    }
    // One line per placement broken, however many problems it has.
    const broken = releaseProblems(this.parts, release);
    if (broken.length > 0) {
      throw new ReleaseRefusedError(`${what} would break ${broken.length} current placement(s).`, broken);
    }
  }
}

/**
 * Logs a change made through {@link ReleaseService.change} (release-change-log.ts), naming the release it is about:
 * the one put in force or given as the canary, or the one a deactivation took out of force.
 */
function logChange(logger: Pick<Logger, 'info'>, change: RolloutChange, { before, after }: RolloutChanged): void {
  const { remote, actor, action, reason } = change;
  if (action === 'canary' && after.canary !== null) {
    const { version, percent, tenants } = after.canary;
    const to = tenants.length === 0 ? '' : ` and ${tenants.length} ${tenants.length === 1 ? 'tenant' : 'tenants'}`;
    const detail = `${percent} %${to}${reason === undefined ? '' : `; ${reason}`}`;
    logRequestedReleaseChange(logger, { actor, remote, action, version }, detail);
    return;
  }
  if (action === 'deactivate' && before.active !== null) {
    const detail = "the remote's own build is served again";
    logRequestedReleaseChange(logger, { actor, remote, action, version: before.active }, detail);
  } else if ((action === 'activate' || action === 'rollback') && after.active !== null) {
    logRequestedReleaseChange(logger, { actor, remote, action, version: after.active }, reason);
  }
}

/** `refusal`, then `step` (what to do about it) when there is one. */
function withNextStep(refusal: string, step: string | null): string {
  return step === null ? refusal : `${refusal} ${step}`;
}

/** Why `existing` is not published again from `entry`: releases are immutable. */
function releaseExistsMessage(existing: RemoteRelease, entry: string): string {
  return (
    `${new ReleaseExistsError(existing.remote, existing.version).message} It was published from ${existing.entry} ` +
    `(by ${existing.publishedBy} at ${instantInUtc(existing.publishedAt)}), not ${entry}.`
  );
}

/**
 * The same in a change's transaction, where the database's rollout is read (a host may have moved it just now); who
 * moved it is added once the transaction is over ({@link ReleaseService.namingWhoMovedIt}).
 */
export function refuseMoved(remote: string, seen: RolloutSeen | undefined, before: RemoteRollout): void {
  if (seen === undefined || rolloutIsAsSeen(before, seen)) return;
  throw new ReleaseRefusedError(rolloutMovedMessage(remote, seen, before, undefined), [], 409);
}
