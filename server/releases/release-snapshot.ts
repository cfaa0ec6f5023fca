import type { RemoteRelease, RemoteRollout } from '../../shared';
import { canaryBucket } from './canary-bucket';
import type { ReleaseStore } from './release-store';
import type { RolloutPlanStore, StoredRolloutPlan } from './rollout-plan-store';
import { OneReadAtATime } from '../storage/one-read-at-a-time';

/** Who asks for a page: what the choice of a release depends on. */
export interface ReleaseAudience {
  /** The signed-in user's id; undefined for an anonymous visitor (who gets the active release). */
  userId?: number | undefined;
  tenant?: string | undefined;
  /** Remote -> version this session previews. */
  previews?: Readonly<Record<string, string>> | undefined;
}

export interface ReleaseSnapshotOptions {
  /** How often the database is read again for changes made elsewhere (other hosts, the CLI); default 1 s. */
  pollMs?: number;
  onError?: (error: unknown) => void;
  /** The progressive rollout plans, read with the rollouts (their steps are read by every host's metrics and check). */
  plans?: Pick<RolloutPlanStore, 'plans'>;
}

const DEFAULT_POLL_MS = 1000;

/**
 * The rollouts and releases of every remote, held in memory: the hot paths (index.html, GET /api/remotes) choose a
 * release per request from it without a query. It is read again after every change made through this process, and
 * polled (a small read of the rollouts and the newest release id) so a change made on another host, or by the CLI,
 * is seen within about a second, and a host that was away catches up on its next read.
 */
export class ReleaseSnapshot {
  private rolloutsByRemote = new Map<string, RemoteRollout>();
  private releasesByKey = new Map<string, RemoteRelease>();
  private releaseList: RemoteRelease[] = [];
  private lastReleaseId = -1;
  private rolloutsJson = '';
  private plans: StoredRolloutPlan[] = [];
  private version = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly reads = new OneReadAtATime();
  private readonly listeners = new Set<() => void>();
  /** The newest REMOTES_CONFIG reload request seen (null before the first read: requests before the start are done). */
  private lastConfigReload: number | null = null;
  private readonly reloadListeners = new Set<() => void>();

  constructor(
    private readonly store: ReleaseStore,
    private readonly options: ReleaseSnapshotOptions = {},
  ) {}

  /** Moves whenever what the snapshot answers changes. */
  get changeVersion(): number {
    return this.version;
  }

  /** Reads the database once, then keeps polling it. */
  async start(): Promise<void> {
    await this.refresh();
    this.timer ??= setInterval(() => {
      this.refresh().catch((error: unknown) => this.options.onError?.(error));
    }, this.options.pollMs ?? DEFAULT_POLL_MS);
    this.timer.unref();
  }

  /** Reads the rollouts (and the releases when one was published) again; notifies the listeners of a change. */
  refresh(): Promise<void> {
    return this.reads.run(() => this.read());
  }

  private async read(): Promise<void> {
    const [rollouts, lastReleaseId, lastConfigReload, plans] = await Promise.all([
      this.store.rollouts(),
      this.store.lastReleaseId(),
      this.store.lastConfigReload(),
      this.options.plans?.plans() ?? [],
    ]);
    const reloadAsked = this.lastConfigReload !== null && lastConfigReload !== this.lastConfigReload;
    this.lastConfigReload = lastConfigReload;
    if (reloadAsked) for (const listener of this.reloadListeners) listener();
    const rolloutsJson = JSON.stringify([rollouts, plans]);
    if (rolloutsJson === this.rolloutsJson && lastReleaseId === this.lastReleaseId) return;
    if (lastReleaseId !== this.lastReleaseId) {
      this.releaseList = await this.store.releases();
      this.releasesByKey = new Map(
        this.releaseList.map((release) => [keyOf(release.remote, release.version), release]),
      );
      this.lastReleaseId = lastReleaseId;
    }
    this.rolloutsByRemote = new Map(rollouts.map((rollout) => [rollout.remote, rollout]));
    this.plans = plans;
    this.rolloutsJson = rolloutsJson;
    this.version++;
    for (const listener of this.listeners) listener();
  }

  /** Calls `listener` after every change; returns the function that stops it. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Calls `listener` when `npm run remotes:reload` asks every host to re-read REMOTES_CONFIG. */
  onConfigReload(listener: () => void): void {
    this.reloadListeners.add(listener);
  }

  /** Every remote's rollout. */
  rollouts(): RemoteRollout[] {
    return [...this.rolloutsByRemote.values()];
  }

  /** Every remote's progressive rollout plan (the last started: running, paused or ended), as last read. */
  rolloutPlans(): readonly StoredRolloutPlan[] {
    return this.plans;
  }

  rollout(remote: string): RemoteRollout | undefined {
    return this.rolloutsByRemote.get(remote);
  }

  release(remote: string, version: string): RemoteRelease | undefined {
    return this.releasesByKey.get(keyOf(remote, version));
  }

  /** Every release, newest first. */
  releases(): readonly RemoteRelease[] {
    return this.releaseList;
  }

  /** The active release of every remote that has one. */
  activeReleases(): RemoteRelease[] {
    return [...this.rolloutsByRemote.values()].flatMap((rollout) => {
      const release = rollout.active === null ? undefined : this.release(rollout.remote, rollout.active);
      return release ? [release] : [];
    });
  }

  /**
   * The releases a page may get now without a preview: the active one and the running canary of every remote (what
   * the page's CSP allows; an earlier or a never-activated release is not among them).
   */
  servedReleases(): RemoteRelease[] {
    return [...this.rolloutsByRemote.values()].flatMap((rollout) =>
      [rollout.active, rollout.canary?.version ?? null].flatMap((version) => {
        const release = version === null ? undefined : this.release(rollout.remote, version);
        return release ? [release] : [];
      }),
    );
  }

  /** Whether a request may get another release than the active one (a canary runs, or it previews one). */
  variesFor(audience: ReleaseAudience): boolean {
    if (audience.previews && Object.keys(audience.previews).length > 0) return true;
    if (audience.userId === undefined) return false;
    for (const rollout of this.rolloutsByRemote.values()) if (rollout.canary) return true;
    return false;
  }

  /**
   * The release of `remote` a request gets: the session's preview, else the canary (the user's tenant is listed,
   * or the user's bucket falls below its percentage), else the active release. Anonymous visitors get the active
   * one. Undefined when the remote has no active release (it is served as configured).
   */
  choose(remote: string, audience: ReleaseAudience): RemoteRelease | undefined {
    const preview = audience.previews?.[remote];
    const previewed = preview === undefined ? undefined : this.release(remote, preview);
    if (previewed) return previewed;
    const rollout = this.rolloutsByRemote.get(remote);
    if (!rollout || rollout.active === null) return undefined;
    const { canary } = rollout;
    if (canary && audience.userId !== undefined) {
      const inTenant = audience.tenant !== undefined && canary.tenants.includes(audience.tenant);
      if (inTenant || canaryBucket(audience.userId, remote) < canary.percent) {
        const release = this.release(remote, canary.version);
        if (release) return release;
      }
    }
    return this.release(remote, rollout.active);
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

function keyOf(remote: string, version: string): string {
  return `${remote}\0${version}`;
}
